package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
)

var decodeSeeds = []string{
	`{"id":"c1","input":"q","output":"Paris","expected":"Paris"}`,
	`{"id":"c2","output":"line\nbreak \"quoted\" \u00e9 \u263a","references":["a","b"],"context":["x"]}`,
	`{"output":"x","metrics":{"latency_ms":120,"input_tokens":10,"output_tokens":50,"total_tokens":60,"cost_usd":0.0012},"http_status":200,"model":{"name":"gpt-4.1","family":"openai"}}`,
	`{"output":"x","grader":{"type":"contains","values":["a","b"],"mode":"any","case_sensitive":false,"n":[1,2.5,null,true,{"k":"v"}]}}`,
	`{"output":"x","item":{"order":"A-17","n":3},"tool_calls":[{"name":"search","arguments":{"q":"x"}}]}`,
	`{"output":"x","expected":{"a":1},"references":[{"id":"d1"},"t",{"id":2,"text":"u"}]}`,
	`{"output":"x","expected":null,"references":[],"context":null,"metrics":{"latency_ms":null}}`,
	`{"ID":"upper","Output":"folded keys"}`,
	`{"output":"a","output":"b","id":"x","id":null}`,
	`{"output":"emoji \ud83d\ude00"}`,
	"{\"output\":\"bad \xff utf8\"}",
	`{"output":"x"} {"output":"y"}`,
	`{"output":"x","http_status":200.5}`,
	`{"output":"x","metrics":{"latency_ms":1e400}}`,
	`{"output":"x","model":{"name":5}}`,
	`{"output":"x","unknown":{"deep":[1,{"a":null}]},"kind":"prose"}`,
	`{"output":5}`, `null`, `[]`, `{`, `{"output":"x",}`, ``,
	`{"output":"x","grader":"contains"}`,
	`{"output":"x","grader":null}`,
	`{"output":"x","metrics":{"LATENCY_MS":3}}`,
	`{"output":"x","metrics":{"latency_ms":-0}}`,
	`{"id":"s1","output":"Here:\n` + "```json\\n{\\\"id\\\": \\\"req-1\\\", \\\"a\\\\\\\\\\\": [1]}\\n```" + `","expected":"x","kind":"json"}`,
	`{"output":"ends with a backslash \\","expected":"\"\\\""}`,
	"{\"output\":\"raw tab\there\"}",
	`{"output":"café \u00e9 \/ \b\f\r\t"}`,
	`{"output":"x","http_status":99999999999999999999}`,
}

// FuzzDecodeLine holds the line decoder to encoding/json: it never panics,
// accepts exactly the lines encoding/json accepts, and decodes each to the
// same Sample, output presence and grader spec.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	var d lineDecoder
	f.Fuzz(func(t *testing.T, b []byte) {
		var got, want line
		gotErr := d.decode(b, &got)
		wantErr := decodeSlow(bytes.TrimSpace(b), &want)
		if len(bytes.TrimSpace(b)) == 0 || bytes.TrimSpace(b)[0] != '{' {
			if gotErr == nil {
				t.Fatalf("decode(%q) accepted a line that is not an object", b)
			}
			return
		}
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("decode(%q): error %v, encoding/json: %v", b, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if d := cmp.Diff(want.sample, got.sample); d != "" {
			t.Fatalf("decode(%q) sample (-encoding/json +decoder):\n%s", b, d)
		}
		if got.hasOutput != want.hasOutput {
			t.Fatalf("decode(%q) hasOutput %v, encoding/json %v", b, got.hasOutput, want.hasOutput)
		}
		if (got.grader == nil) != (want.grader == nil) {
			t.Fatalf("decode(%q) grader %q, encoding/json %q", b, got.grader, want.grader)
		}
		if got.grader != nil {
			var g, w any
			if json.Unmarshal(got.grader, &g) != nil || json.Unmarshal(want.grader, &w) != nil || !cmp.Equal(g, w) {
				t.Fatalf("decode(%q) grader %s, encoding/json %s", b, got.grader, want.grader)
			}
		}
	})
}

func TestDecodeLine(t *testing.T) {
	var d lineDecoder
	var ln line
	if err := d.decode([]byte(decodeSeeds[2]), &ln); err != nil {
		t.Fatal(err)
	}
	want := proctor.Sample{Output: "x", HTTPStatus: 200, Model: proctor.Model{Name: "gpt-4.1", Family: "openai"},
		Metrics: proctor.Metrics{LatencyMS: proctor.Ptr(120.0), InputTokens: proctor.Ptr(10.0), OutputTokens: proctor.Ptr(50.0),
			TotalTokens: proctor.Ptr(60.0), CostUSD: proctor.Ptr(0.0012)}}
	if d := cmp.Diff(want, ln.sample); d != "" {
		t.Errorf("sample (-want +got):\n%s", d)
	}
	// An id read before the line breaks is kept for the result.
	if err := d.decode([]byte(`{"id":"k9","output":"x",`), &ln); err == nil || ln.sample.ID != "k9" {
		t.Errorf("broken line: got id %q, err %v; want id k9 and an error", ln.sample.ID, err)
	}
}

func TestNextSpecial(t *testing.T) {
	naive := func(b []byte) int {
		for i, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				return i
			}
		}
		return -1
	}
	rng := uint64(1)
	for range 100000 {
		n := int(rng>>58) + 1
		b := make([]byte, n)
		for i := range b {
			rng = rng*6364136223846793005 + 1442695040888963407
			b[i] = byte(rng >> 56)
			if b[i] < 0x80 && b[i] >= 0x20 && rng&3 != 0 {
				b[i] |= 0x40 // mostly plain bytes
			}
		}
		var high uint64
		got := nextSpecial(b, 0, &high)
		if want := naive(b); got != want {
			t.Fatalf("nextSpecial(%x) = %d, want %d", b, got, want)
		}
		end := got
		if end < 0 {
			end = len(b)
		}
		wantHigh := false
		for _, c := range b[:end] {
			wantHigh = wantHigh || c >= 0x80
		}
		if wantHigh && high&0x8080808080808080 == 0 {
			t.Fatalf("nextSpecial(%x) missed a byte above 0x7f before %d", b, end)
		}
	}
}

// TestDecodeDuplicateKeys: a line giving a key twice, at the top or
// nested, on each decoding path (flat strings, the tokenizer, encoding/json),
// is malformed; keys that only differ in case are not duplicates.
func TestDecodeDuplicateKeys(t *testing.T) {
	var d lineDecoder
	for _, b := range []string{
		`{"id":"a","output":"x","id":"b"}`,
		`{"output":"x","kind":"a","kind":"b"}`,
		`{"output":"x","k\/":"a","k/":"b"}`,
		`{"output":"x","metrics":{"latency_ms":1},"metrics":{"latency_ms":2}}`,
		`{"output":"x","model":{"name":"a","name":"b"}}`,
		`{"output":"x","grader":{"type":"contains","value":"a","value":"b"}}`,
		`{"output":"x","item":{"a":1,"a":2}}`,
		`{"output":"x","unknown":[{"deep":1,"deep":2}]}`,
	} {
		var ln line
		err := d.decode([]byte(b), &ln)
		if err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("decode(%s) = %v, want a key given twice", b, err)
		}
	}
	var ln line
	if err := d.decode([]byte(`{"output":"x","Output":"y","a":{"b":1},"c":{"b":2}}`), &ln); err != nil {
		t.Errorf("keys differing in case, or in different objects: %v, want accepted", err)
	}
}
