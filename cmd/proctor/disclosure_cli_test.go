package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// Values the disclosure graders find; none may be written back in full by
// proctor grade or proctor serve.
var disclosed = []struct{ spec, value string }{
	{`{"type":"no_secrets"}`, "AKIAQ7ZJXKD3WPLM5RTB"},
	{`{"type":"no_secrets"}`, "ghp_8fKq2LmZx7RtY4vBnW1cJd9sPa3HeUo6QiTg"},
	{`{"type":"no_secrets"}`, "sk-abcdefghij-K7mQ2xR9vL4pT8wZ3nB6cY1dF5"},
	{`{"type":"no_secrets"}`, "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
	{`{"type":"no_secrets"}`, "Zx9qT7vLm2Kp"}, // password=...
	{`{"type":"no_pii"}`, "john.doe@acme.com"},
	{`{"type":"no_pii"}`, "4111 1111 1111 1111"},
	{`{"type":"no_pii"}`, "219-09-9999"},
	{`{"type":"no_pii"}`, "DE89370400440532013000"},
}

// TestGradeNeverEchoesDisclosure: proctor grade with no_secrets or no_pii,
// alone or inside a combinator, writes result lines that name what was
// found but never hold the value.
func TestGradeNeverEchoesDisclosure(t *testing.T) {
	for _, d := range disclosed {
		line, _ := json.Marshal(map[string]string{"id": "c1", "output": "here it is: password=" + d.value + " and " + d.value + "."})
		for _, spec := range []string{d.spec, `{"type":"not","grader":` + d.spec + `}`, `{"type":"all","graders":[` + d.spec + `]}`} {
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"grade", "--grader", spec}, bytes.NewReader(append(line, '\n')), &out, &errb)
			if code == exitUsage {
				t.Fatalf("%s: exit %d: %s", spec, code, errb.String())
			}
			want := `"status":"failed"` // found
			if strings.HasPrefix(spec, `{"type":"not"`) {
				want = `"status":"passed"`
			}
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s on %q: %s, want %s", spec, d.value, out.String(), want)
			}
			if strings.Contains(out.String(), d.value) || strings.Contains(errb.String(), d.value) {
				t.Errorf("%s: output holds %q: %s", spec, d.value, out.String())
			}
		}
	}
}

// TestServeNeverEchoesDisclosure: the same through proctor serve's two
// endpoints.
func TestServeNeverEchoesDisclosure(t *testing.T) {
	cfg := testServeConfig()
	cfg.maxBody = 64 << 10
	_, ts := newTestServer(t, cfg, nil)
	for _, d := range disclosed {
		out := "here it is: password=" + d.value + " and " + d.value + "."
		body, _ := json.Marshal(map[string]any{"grader": json.RawMessage(d.spec), "sample": map[string]string{"output": out}})
		code, _, results := postRaw(t, ts.URL+"/v1/grade", "application/json", string(body))
		if code != 200 || strings.Contains(string(results), d.value) {
			t.Errorf("/v1/grade %s: %d %s, want 200 without %q", d.spec, code, results, d.value)
		}
		pbody, _ := json.Marshal(map[string]any{"output": out})
		resp, err := ts.Client().Post(ts.URL+"/v1/promptfoo?grader="+url.QueryEscape(d.spec), "application/json", bytes.NewReader(pbody))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.Contains(b.String(), d.value) {
			t.Errorf("/v1/promptfoo %s: %d %s, want 200 without %q", d.spec, resp.StatusCode, b.String(), d.value)
		}
	}
}
