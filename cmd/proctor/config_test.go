package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/proctorhq/proctor/calibrate"

	"github.com/proctorhq/proctor"
)

// fakeChat serves chat completions on loopback, replying verdict with high
// confidence and counting calls.
func fakeChat(t *testing.T, verdict string, calls *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		content := fmt.Sprintf(`{"criterion":"x","violations":"none","basis":"answer","verdict":%q,"confidence":"high"}`, verdict)
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"content": content}}},
			"usage":   map[string]any{"total_tokens": 10},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfig(t *testing.T) {
	t.Setenv("PROCTOR_TEST_KEY", "k")
	tests := []struct {
		name, file, body string
		wantErr          string
		wantOpts         int
	}{
		{"json", "c.json", `{"judges":[{"name":"j1","family":"a","model":"m","base_url":"http://127.0.0.1:1/v1","api_key_env":"PROCTOR_TEST_KEY"}]}`, "", 1},
		{"yaml", "c.yaml", "judges:\n  - name: j1\n    family: a\n    model: m\n    base_url: http://127.0.0.1:1/v1\n  - {name: j2, family: b, model: m2, base_url: 'http://127.0.0.1:1/v1'}\nallow_same_family: true\njudge_cache: /tmp/x\nredact: true\n", "", 3},
		{"empty", "c.json", `{}`, "", 0},
		{"unknown key", "c.json", `{"judgez":[]}`, "unknown field", 0},
		{"no family", "c.json", `{"judges":[{"name":"j1","model":"m","base_url":"http://127.0.0.1:1/v1"}]}`, "family is required", 0},
		{"duplicate", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"},{"name":"j","family":"b","model":"m","base_url":"http://x"}]}`, "used twice", 0},
		{"unset key", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x","api_key_env":"PROCTOR_TEST_UNSET"}]}`, "not set", 0},
		{"bad yaml", "c.yaml", "judges: [", "yaml: line 1", 0},
		{"panel parallel", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"panel":"parallel"}`, "", 2},
		{"panel unknown", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"panel":"sometimes"}`, "want sequential", 0},
		{"replay", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"judge_cache":"/tmp/x","judge_cache_mode":"replay"}`, "", 2},
		{"replay without cache", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"judge_cache_mode":"replay"}`, "needs judge_cache", 0},
		{"cache mode unknown", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"judge_cache":"/tmp/x","judge_cache_mode":"rw"}`, "judge_cache_mode", 0},
		{"structured off", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x","structured":"off"}]}`, "", 1},
		{"structured unknown", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x","structured":"yes"}]}`, "want auto, on or off", 0},
		{"cost budget, unpriced judge", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"judge_budget":{"cost_usd":1}}`, "(j) has no prices", 0},
		{"cost budget, free judge", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x","prices":{"input_per_mtok":0,"output_per_mtok":0}}],"judge_budget":{"cost_usd":1}}`, "", 2},
		{"field cap", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"judge_field_bytes":1000}`, "", 2},
		{"negative budget", "c.json", `{"judges":[{"name":"j","family":"a","model":"m","base_url":"http://x"}],"judge_budget":{"calls":-1}}`, "negative", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := loadConfig(writeFile(t, tt.file, tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("got %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(opts) != tt.wantOpts {
				t.Errorf("got %d options, %v; want %d, no error", len(opts), err, tt.wantOpts)
			}
		})
	}
}

// loadConfig reads a --config file as the commands do and returns what it
// gives a Compiler.
func loadConfig(path string) ([]proctor.CompilerOption, error) {
	c, err := loadCLIConfig(path)
	if err != nil {
		return nil, err
	}
	return c.CompilerOptions(), nil
}

func TestGradeWithConfig(t *testing.T) {
	var calls atomic.Int64
	url := fakeChat(t, "pass", &calls)
	cfg := writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"j1","family":"fam-a","model":"m","base_url":%q}]}`, url))
	in := strings.Repeat(`{"id":"x","input":"q","output":"Paris"}`+"\n", 3)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"grade", "--config", cfg, "--grader", `{"type":"llm_judge","rubric":"names Paris"}`}, strings.NewReader(in), &out, &errb)
	if code != exitOK || strings.Count(out.String(), `"status":"passed"`) != 3 {
		t.Errorf("exit %d, output %s %s: want three passes", code, out.String(), errb.String())
	}
	if calls.Load() != 1 {
		t.Errorf("three identical samples made %d calls, want 1", calls.Load())
	}
	if !strings.Contains(out.String(), `"evidence":{"judges":[{"name":"j1","family":"fam-a"`) {
		t.Errorf("output lacks the judge evidence: %s", out.String())
	}
}

// A CI run on recorded judgements: record once, then replay, which calls
// no judge; a prompt never recorded is not graded, with the reason. The
// base URL is part of the judge's identity, so replay names the same one.
func TestGradeJudgeCacheReplay(t *testing.T) {
	var calls atomic.Int64
	url := fakeChat(t, "pass", &calls)
	dir := t.TempDir()
	conf := func(mode, base string) string {
		return writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"j1","family":"fam-a","model":"m","base_url":%q}],"judge_cache":%q,"judge_cache_mode":%q}`, base, dir, mode))
	}
	grade := func(cfg, output string) string {
		var out, errb bytes.Buffer
		in := fmt.Sprintf(`{"id":"x","input":"q","output":%q}`+"\n", output)
		run(context.Background(), []string{"grade", "--config", cfg, "--grader", `{"type":"llm_judge","rubric":"names Paris"}`}, strings.NewReader(in), &out, &errb)
		return out.String()
	}
	if out := grade(conf("record", url), "Paris"); !strings.Contains(out, `"status":"passed"`) || calls.Load() != 1 {
		t.Fatalf("record: %s after %d calls", out, calls.Load())
	}
	if out := grade(conf("replay", url), "Paris"); !strings.Contains(out, `"status":"passed"`) || calls.Load() != 1 {
		t.Errorf("replay of a recorded prompt: %s after %d calls, want passed with no call", out, calls.Load())
	}
	out := grade(conf("replay", url), "Lyon")
	if calls.Load() != 1 {
		t.Errorf("replay called the judge: %d calls", calls.Load())
	}
	if !strings.Contains(out, `"status":"not_graded"`) || !strings.Contains(out, "no recorded judge reply") {
		t.Errorf("replay miss: %s, want not graded saying no reply was recorded", out)
	}
}

func TestCalibrateCommand(t *testing.T) {
	var calls atomic.Int64
	url := fakeChat(t, "pass", &calls)
	cfg := writeFile(t, "c.yaml", "judges:\n  - {name: j1, family: fam-a, model: m, base_url: "+url+"}\n")
	samples := writeFile(t, "s.jsonl", `{"output":"Paris","label":"pass"}
{"output":"Lyon","label":"fail"}
{"output":"Nice","label":"pass"}
`)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"calibrate", "--grader", `{"type":"llm_judge","rubric":"names Paris"}`, "--config", cfg, "--json", samples}, nil, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Samples   int      `json:"samples"`
		Agree     int      `json:"agree"`
		Agreement *float64 `json:"agreement"`
		Kappa     *float64 `json:"kappa"`
		Confusion struct {
			FailPassed int `json:"fail_passed"`
		} `json:"confusion"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	// The judge passes everything: 2 of 3 agree, kappa 0 (no better than chance).
	if got.Samples != 3 || got.Agree != 2 || got.Confusion.FailPassed != 1 || got.Kappa == nil || *got.Kappa != 0 {
		t.Errorf("got %+v, want 3 samples, 2 agreeing, kappa 0", got)
	}
	// The file is what run --calibration reads: it names the grader, and a
	// judge that passes everything has Se + Sp = 1 + 0, too weak to correct.
	gc, err := calibrate.Parse(out.Bytes())
	var extra struct {
		Sensitivity, Specificity *float64
		Judges                   []proctor.JudgeStats
	}
	_ = json.Unmarshal(out.Bytes(), &extra)
	if err != nil || gc.Grader != "llm_judge" || extra.Sensitivity == nil || *extra.Sensitivity != 1 || *extra.Specificity != 0 || len(extra.Judges) != 1 {
		t.Errorf("calibrate --json as a calibration file: %+v %+v %v\n%s", gc, extra, err, out.String())
	}
	for _, args := range [][]string{
		{"calibrate", samples},
		{"calibrate", "--grader", `{"type":"contains","value":"x"}`, "--config", cfg, samples},
		{"calibrate", "--grader", `{"type":"llm_judge","rubric":"r"}`, samples},
	} {
		if code := run(context.Background(), args, nil, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

func TestScriptedJudgeConfig(t *testing.T) {
	tests := []struct {
		name, body, wantErr string
	}{
		{"ok", "judges:\n  - {name: s, type: scripted, family: f, replies: [{case: a, reply: {verdict: pass}}, {reply: 'Verdict: FAIL'}]}\n", ""},
		{"no replies", "judges:\n  - {name: s, type: scripted, family: f}\n", "a scripted judge needs replies"},
		{"reply missing", "judges:\n  - {name: s, type: scripted, family: f, replies: [{case: a}]}\n", "replies[0]: reply is required"},
		{"with endpoint", "judges:\n  - {name: s, type: scripted, family: f, base_url: 'http://127.0.0.1:1', replies: [{reply: x}]}\n", "a scripted judge calls nothing"},
		{"replies on openai", "judges:\n  - {name: s, family: f, base_url: 'http://127.0.0.1:1', replies: [{reply: x}]}\n", "replies are for type scripted"},
		{"unknown type", "judges:\n  - {name: s, type: magic, family: f}\n", `type "magic": want openai (the default), anthropic or scripted`},
		{"unknown reply key", "judges:\n  - {name: s, type: scripted, family: f, replies: [{reply: x, when: y}]}\n", "unknown field"},
		{"no family", "judges:\n  - {name: s, type: scripted, replies: [{reply: x}]}\n", "family is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfig(writeFile(t, "c.yaml", tt.body))
			if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("got %v, want error %q", err, tt.wantErr)
			}
		})
	}
}

func TestScriptedJudgeReplies(t *testing.T) {
	cfg := writeFile(t, "c.yaml", `judges:
  - name: scripted offline judge
    type: scripted
    family: scripted
    replies:
      - {case: a, prompt_contains: "Rome", reply: {criterion: c, violations: v, verdict: fail, confidence: high}}
      - {case: a, reply: {criterion: c, violations: none, verdict: pass, confidence: high}}
      - {case: b, reply: "Verdict: FAIL"}
`)
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "s.yaml")
	os.WriteFile(suitePath, []byte(`cases:
  - {id: a, outputs: ["Paris", "Rome"], checks: [{type: llm_judge, rubric: r}]}
  - {id: b, outputs: ["x"], checks: [{type: llm_judge, rubric: r}]}
  - {id: c, outputs: ["y"], checks: [{type: llm_judge, rubric: r}]}
`), 0o644)
	out := filepath.Join(dir, "r.json")
	cli(t, "run", suitePath, "--config", cfg, "--out", out)
	rep, err := readReport(out)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id   string
		want proctor.Status
		why  string
	}{
		{"a", proctor.StatusFlaky, "matched by case id, then by a substring of the prompt: Paris passes, Rome fails"},
		{"b", proctor.StatusFailed, "a plain-text reply is read as a judge's"},
		{"c", proctor.StatusNotGraded, "no reply matches: the judge call fails and the check is not graded, never passed"},
	}
	for i, tt := range tests {
		if c := rep.Cases[i]; c.ID != tt.id || c.Verdict != tt.want {
			t.Errorf("case %s: %v, want %s %v (%s)", c.ID, c.Verdict, tt.id, tt.want, tt.why)
		}
	}
	if r := rep.Cases[2].Attempts[0].Grades[0].Reason; !strings.Contains(r, `has no reply for case "c"`) {
		t.Errorf("reason %q does not say the scripted judge had no reply", r)
	}
}

// TestScriptedPromptContainsSeesRubric: prompt_contains is searched in the
// whole prompt, so a phrase of the rubric matches every case graded with
// it, and a case no reply matches is named in the reason.
func TestScriptedPromptContainsSeesRubric(t *testing.T) {
	cfg := writeFile(t, "c.yaml", `judges:
  - name: sj
    type: scripted
    family: scripted
    replies:
      - {prompt_contains: "mentions a refund", reply: "Verdict: PASS"}
`)
	suitePath := writeSuite(t, "s.yaml", `cases:
  - {id: a, outputs: ["no money back"], checks: [{type: llm_judge, rubric: "mentions a refund"}]}
  - {id: b, outputs: ["x"], checks: [{type: llm_judge, rubric: "is polite"}]}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	cli(t, "run", suitePath, "--config", cfg, "--out", out)
	rep, err := readReport(out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases[0].Verdict != proctor.StatusPassed {
		t.Errorf("case a: %v; the rubric's phrase is in the prompt, so the reply applies", rep.Cases[0].Verdict)
	}
	if r := rep.Cases[1].Attempts[0].Grades[0].Reason; !strings.Contains(r, `no reply for case "b"`) || !strings.Contains(r, "rubric included") {
		t.Errorf("case b's reason %q does not name the case and how replies match", r)
	}
}

// panel: parallel asks the whole panel; the default stops once two judges
// agree.
func TestGradePanelMode(t *testing.T) {
	judges := "judges:\n" +
		"  - {name: j1, type: scripted, family: a, replies: [{reply: {verdict: pass, confidence: low}}]}\n" +
		"  - {name: j2, type: scripted, family: b, replies: [{reply: {verdict: pass, confidence: high}}]}\n" +
		"  - {name: j3, type: scripted, family: c, replies: [{reply: {verdict: fail, confidence: high}}]}\n"
	for _, tt := range []struct{ panel, j3 string }{{"", "0 calls"}, {"panel: parallel\n", "1 call"}} {
		cfg := writeFile(t, "c.yaml", judges+tt.panel)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"grade", "--config", cfg, "--grader", `{"type":"llm_judge","rubric":"r"}`},
			strings.NewReader(`{"id":"x","input":"q","output":"Paris"}`+"\n"), &out, &errb)
		if code != exitOK || !strings.Contains(out.String(), `"status":"passed"`) {
			t.Errorf("%q: exit %d, %s %s", tt.panel, code, out.String(), errb.String())
		}
		if !strings.Contains(errb.String(), "judge j3 (c, canned replies): "+tt.j3) {
			t.Errorf("%q: stderr %s, want j3 with %s", tt.panel, errb.String(), tt.j3)
		}
	}
}
