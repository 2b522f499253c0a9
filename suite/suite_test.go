package suite_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

const suites = "../testdata/suites"

func load(t *testing.T, path string, opts suite.Options) *suite.Suite {
	t.Helper()
	s, err := suite.Load(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func collect(t *testing.T, s *suite.Suite) []proctor.Case {
	t.Helper()
	var out []proctor.Case
	for c, err := range s.Cases() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestLoadFull(t *testing.T) {
	s := load(t, filepath.Join(suites, "full.yaml"), suite.Options{})
	if s.Name != "full" || len(s.Checks) != 1 || s.Count != 3 || s.Total != 3 {
		t.Fatalf("name %q, %d checks, %d/%d cases; want full, 1, 3/3", s.Name, len(s.Checks), s.Count, s.Total)
	}
	cs := collect(t, s)
	str := cs[0]
	if str.ID != "strings" || str.Attempts != 2 || len(str.Outputs) != 3 || str.Severity != proctor.SeverityCritical || str.Split != "holdout" {
		t.Errorf("strings case = id %q, %d attempts, %d outputs, severity %v, split %q", str.ID, str.Attempts, len(str.Outputs), str.Severity, str.Split)
	}
	wantSample := proctor.Sample{ID: "strings", Input: "capital of France?", Expected: proctor.Ptr("Paris"),
		References: []string{"Paris", "Paris is the capital."}, ReferenceIDs: []string{"doc-7"},
		Context: []string{"France's capital is Paris."}, Item: map[string]any{"country": "France", "n": 3.0},
		Model: proctor.Model{Name: "bot-1", Family: "acme"}}
	if d := cmp.Diff(wantSample, str.Sample); d != "" {
		t.Errorf("strings sample (-want +got):\n%s", d)
	}
	if len(str.Checks) != 2 || str.Checks[0].Name() != "not_contains" || !str.Checks[1].Required {
		t.Errorf("strings checks = %+v, want the suite's not_contains, then its own required check", str.Checks)
	}
	obj := cs[1]
	if got := *obj.Sample.Expected; got != `{"order":"A-17","items":[1,2]}` {
		t.Errorf("JSON expected = %s, want its compact JSON text", got)
	}
	o := obj.Outputs[0]
	if o.Metrics.LatencyMS == nil || *o.Metrics.LatencyMS != 120 || o.Metrics.InputTokens != nil || o.HTTPStatus != 200 ||
		len(o.ToolCalls) != 1 || string(o.ToolCalls[0].Arguments) != `{"id":"A-17"}` || o.Model.Name != "bot-2" {
		t.Errorf("sample object decoded wrongly: %+v", o)
	}
	// Graded: Paris and paris pass exact_match (2 of 3 outputs: attempts 2);
	// the object compares structurally; the anchored expected is used.
	rep, err := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals != (proctor.Totals{Passed: 3}) {
		t.Errorf("totals = %+v, want 3 passed: %+v", rep.Totals, rep.Cases)
	}
	if n := len(rep.Cases[0].Attempts); n != 2 {
		t.Errorf("strings case made %d attempts, want 2 (suite attempts)", n)
	}
}

func TestLoadJSON(t *testing.T) {
	s := load(t, filepath.Join(suites, "full.json"), suite.Options{Attempts: 3})
	cs := collect(t, s)
	if s.Name != "full-json" || len(cs) != 2 || *cs[1].Sample.Expected != "42" || cs[0].Attempts != 3 {
		t.Errorf("got name %q, %d cases, expected %q, attempts %d", s.Name, len(cs), *cs[1].Sample.Expected, cs[0].Attempts)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, ext, text string
		want            string // substring of the error
		why             string
	}{
		{"unknown suite key", ".yaml", "name: x\ncasez: []\n", ":2: casez: unknown key", "typo of cases"},
		{"unknown case key", ".yaml", "cases:\n  - id: a\n    outputs: [x]\n    chekcs: []\n", `:4: cases[0].chekcs: unknown key`, "typo of checks"},
		{"unknown spec type", ".yaml", "cases:\n  - id: a\n    outputs: [x]\n    checks:\n      - {type: nope}\n", `:5: cases[0] (id "a").checks[0]: proctor: spec #0 (type nope): option "type": unknown type "nope"`, "fail closed on types"},
		{"unknown spec option", ".yaml", "cases:\n  - id: a\n    outputs: [x]\n    checks:\n      - type: contains\n        value: x\n        mdoe: any\n", `:7: cases[0] (id "a").checks[0]`, "the line of the option at fault"},
		{"missing cases", ".yaml", "name: x\n", ":1: cases: missing", "a suite needs cases"},
		{"missing id", ".yaml", "cases:\n  - outputs: [x]\n", ":2: cases[0].id: missing", "ids order shards"},
		{"duplicate id", ".yaml", "cases:\n  - {id: a, outputs: [x]}\n  - {id: a, outputs: [y]}\n", `:3: cases[1].id: case id "a" is also used on line 2`, "ids must be unique"},
		{"no outputs no subject", ".yaml", "cases:\n  - id: a\n", `:2: cases[0] (id "a"): has no recorded outputs`, "nothing to grade is not a pass"},
		{"id not a string", ".yaml", "cases:\n  - {id: 7, outputs: [x]}\n", ":2: cases[0].id: want a string, got a number", "ill-typed"},
		{"bad severity", ".yaml", "cases:\n  - {id: a, outputs: [x], severity: huge}\n", "severity: want low, medium, high or critical", "enum"},
		{"bad attempts", ".yaml", "attempts: 0\ncases: []\n", ":1: attempts: want an integer from 1 to 1000", "range"},
		{"output not string", ".yaml", "cases:\n  - {id: a, outputs: [3]}\n", "outputs[0]: want a string or a sample object, got a number", "ill-typed output"},
		{"sample unknown key", ".yaml", "cases:\n  - id: a\n    outputs:\n      - {output: x, latency: 3}\n", "outputs[0].latency: unknown key", "metrics go under metrics"},
		{"metric unknown", ".yaml", "cases:\n  - id: a\n    outputs:\n      - {output: x, metrics: {latency: 3}}\n", "metrics.latency: unknown key", "fail closed on metrics"},
		{"yaml syntax", ".yaml", "name: x\ncases:\n  - id: a\n    outputs: [x, \"y]\n", ".yaml:4: yaml: line 4", "syntax errors have lines"},
		{"duplicate yaml key", ".yaml", "name: a\nname: b\ncases: []\n", `:2: key "name" appears twice`, "no silent override"},
		{"two documents", ".yaml", "cases: []\n---\ncases: []\n", "more than one YAML document", "one suite per file"},
		{"json unknown key", ".json", "{\n \"cases\": [\n  {\"id\": \"a\",\n   \"outputz\": []}]}", `:4: cases[0].outputz: unknown key`, "JSON errors have lines too"},
		{"json syntax", ".json", "{\n \"cases\": [\n  {\"id\": \"a\",,}]}", ".json:3: JSON syntax", "byte offset to line"},
		{"json duplicate key", ".json", "{\"cases\": [],\n \"cases\": []}", `:2: key "cases" appears twice`, "no silent override"},
		{"json trailing", ".json", "{\"cases\": []}\n{}", "trailing data", "one value per file"},
		{"command escapes", ".yaml", "subject: {command: [\"../bot\"]}\ncases: []\n", "leaves the suite's folder", "paths are confined"},
		{"subject both", ".yaml", "subject: {command: [bot], openai: {base_url: \"http://127.0.0.1:1\", model: m}}\ncases: []\n", "give command or openai, not both", "one subject"},
		{"openai missing model", ".yaml", "subject: {openai: {base_url: \"http://127.0.0.1:1\"}}\ncases: []\n", "subject.openai.model: missing", "model required"},
		{"openai key env unset", ".yaml", "subject: {openai: {base_url: \"http://127.0.0.1:1\", model: m, api_key_env: PROCTOR_TEST_UNSET_KEY}}\ncases: []\n", "PROCTOR_TEST_UNSET_KEY is not set", "fail before running"},
		{"prices half", ".yaml", "subject: {openai: {base_url: \"http://127.0.0.1:1\", model: m, prices: {input_per_mtok: 1}}}\ncases: []\n", "give both input_per_mtok and output_per_mtok", "a half price is a wrong cost"},
		{"infinite float", ".yaml", "cases:\n  - {id: a, outputs: [x], item: {n: .inf}}\n", "not a finite number", "JSON cannot carry it"},
		{"alias bomb", ".yaml", "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n", "", "an alias bomb is refused (by yaml.v3 or the node budget)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s"+tt.ext)
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := suite.Load(path, suite.Options{})
			if err == nil {
				s.Close()
				t.Fatalf("Load succeeded, want an error containing %q (%s)", tt.want, tt.why)
			}
			var se *suite.Error
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *suite.Error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant it to contain %q (%s)", err, tt.want, tt.why)
			}
		})
	}
}

func TestSpecErrorUnwraps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte("cases:\n  - {id: a, outputs: [x], checks: [{type: nope}]}\n"), 0o644)
	_, err := suite.Load(path, suite.Options{})
	var spe *proctor.SpecError
	if !errors.As(err, &spe) {
		t.Errorf("error %v does not unwrap to *proctor.SpecError", err)
	}
}

func TestCustomTypes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte("cases:\n  - {id: a, outputs: [abc], checks: [{type: short, max: 2}]}\n"), 0o644)
	short := func(o *proctor.SpecOptions) (proctor.Grader, error) {
		n := o.Int("max", 0)
		return proctor.Func("short", func(_ context.Context, s *proctor.Sample) proctor.Grade {
			if len(s.Output) > n {
				return proctor.Failf("%d bytes > %d", len(s.Output), n)
			}
			return proctor.Pass("")
		}), o.Err()
	}
	s := load(t, path, suite.Options{Types: map[string]proctor.Builder{"short": short}})
	rep, _ := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	if rep.Totals.Failed != 1 {
		t.Errorf("totals = %+v, want 1 failed by the custom type", rep.Totals)
	}
}

func TestShards(t *testing.T) {
	var b strings.Builder
	b.WriteString("cases:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  - {id: case-%03d, outputs: [x]}\n", i)
	}
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte(b.String()), 0o644)
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		s := load(t, path, suite.Options{Shard: suite.Shard{I: i, N: 3}})
		cs := collect(t, s)
		if s.Count != len(cs) || s.Total != 200 {
			t.Errorf("shard %d: Count %d, %d cases, Total %d", i, s.Count, len(cs), s.Total)
		}
		if len(cs) < 40 {
			t.Errorf("shard %d holds %d of 200 cases: badly unbalanced", i, len(cs))
		}
		for _, c := range cs {
			seen[c.ID]++
		}
	}
	if len(seen) != 200 {
		t.Errorf("shards cover %d of 200 cases", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("case %s is in %d shards", id, n)
		}
	}
	// FNV-1a 64 of "case-000" mod 3, computed independently:
	// python3 -c 'h=0xcbf29ce484222325
	// for c in b"case-000": h=((h^c)*0x100000001b3)%2**64
	// print(h%3+1)'
	if !(suite.Shard{I: fnvShard("case-000", 3), N: 3}).Holds("case-000") {
		t.Errorf("shard assignment is not FNV-1a mod N")
	}
}

// fnvShard is FNV-1a 64 written out, to check Shard against.
func fnvShard(id string, n int) int {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 0x100000001b3
	}
	return int(h%uint64(n)) + 1
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want suite.Shard
		ok   bool
	}{
		{"1/1", suite.Shard{1, 1}, true}, {"2/4", suite.Shard{2, 4}, true},
		{"0/4", suite.Shard{}, false}, {"5/4", suite.Shard{}, false}, {"2", suite.Shard{}, false}, {"a/b", suite.Shard{}, false},
	}
	for _, tt := range tests {
		got, err := suite.ParseShard(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestSplit(t *testing.T) {
	s := load(t, filepath.Join(suites, "full.yaml"), suite.Options{Split: "dev"})
	cs := collect(t, s)
	if len(cs) != 1 || cs[0].ID != "anchors" || s.Count != 1 || s.Total != 3 {
		t.Errorf("split dev: %d cases (count %d of %d), want only anchors", len(cs), s.Count, s.Total)
	}
}

func TestJSONL(t *testing.T) {
	s := load(t, filepath.Join(suites, "lines.jsonl"), suite.Options{GraderFile: filepath.Join(suites, "lines-graders.json")})
	if s.Name != "lines" || s.Count != 2 || len(s.Checks) != 1 {
		t.Fatalf("name %q, count %d, %d checks", s.Name, s.Count, len(s.Checks))
	}
	rep, _ := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	// l1: exact_match passes; l2: contains passes, exact_match (suite) fails.
	if rep.Totals != (proctor.Totals{Passed: 1, Failed: 1}) {
		t.Errorf("totals = %+v", rep.Totals)
	}
	dir := t.TempDir()
	for name, tt := range map[string]struct{ text, want string }{
		"bad line":  {"{\"id\": \"a\", \"outputs\": [\"x\"]}\n{\"id\": \"b\", \"outputs\": [\"x\"],}\n", "s.jsonl:2: JSON syntax"},
		"dup id":    {"{\"id\": \"a\", \"outputs\": [\"x\"]}\n\n{\"id\": \"a\", \"outputs\": [\"x\"]}\n", `s.jsonl:3: id: case id "a" is also used on line 1`},
		"bad field": {"{\"id\": \"a\", \"outputz\": [\"x\"]}\n", "s.jsonl:1: case.outputz: unknown key"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "s.jsonl")
			os.WriteFile(path, []byte(tt.text), 0o644)
			_, err := suite.Load(path, suite.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestCommandSubject(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name    string
		script  string
		timeout time.Duration
		out     string
		errHas  string
	}{
		{"echo", `tr a-z A-Z`, 0, "PARIS?", ""},
		{"exit status", `echo partial; echo "boom: bad config" >&2; exit 3`, 0, "", "exit status 3; stderr: boom: bad config"},
		{"timeout", `sleep 10`, 200 * time.Millisecond, "", "timed out after 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			subj := suite.CommandSubject(suite.CommandOptions{Args: []string{"sh", "-c", tt.script}, Timeout: tt.timeout})
			start := time.Now()
			got, err := subj(context.Background(), proctor.Sample{Input: "paris?"}, 0)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Errorf("err = %v, want it to contain %q", err, tt.errHas)
				}
				if time.Since(start) > 9*time.Second { // below the sleep, far above the timeout
					t.Errorf("took %v: the timeout was not enforced", time.Since(start))
				}
				return
			}
			if err != nil || got.Output != tt.out || got.Metrics.LatencyMS == nil {
				t.Errorf("got %q (latency %v), %v; want %q with a latency", got.Output, got.Metrics.LatencyMS, err, tt.out)
			}
		})
	}
}

func TestCommandSubjectInSuite(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bot.sh"), []byte("#!/bin/sh\nread q\nif [ \"$q\" = crash ]; then echo dying >&2; exit 2; fi\necho \"you said $q\"\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "s.yaml"), []byte(`subject: {command: ["./bot.sh"], timeout_ms: 5000}
cases:
  - {id: hi, input: hello, checks: [{type: contains, value: "you said hello"}]}
  - {id: crash, input: crash, checks: [{type: contains, value: x}]}
`), 0o644)
	s := load(t, filepath.Join(dir, "s.yaml"), suite.Options{})
	rep, _ := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	if rep.Totals != (proctor.Totals{Passed: 1, NotGraded: 1}) {
		t.Fatalf("totals = %+v, want 1 passed, 1 not graded (exit status)", rep.Totals)
	}
	if e := rep.Cases[1].Attempts[0].Error; !strings.Contains(e, "exit status 2") || !strings.Contains(e, "dying") {
		t.Errorf("not graded reason = %q, want the exit status and stderr", e)
	}
}

func TestOpenAISubject(t *testing.T) {
	var gotBody map[string]any
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		gotAuth = r.Header.Get("Authorization")
		json.NewDecoder(r.Body).Decode(&gotBody)
		msgs := gotBody["messages"].([]any)
		q := msgs[len(msgs)-1].(map[string]any)["content"].(string)
		if q == "fail" {
			http.Error(w, `{"error": "overloaded"}`, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, `{"model": "m", "choices": [{"message": {"role": "assistant", "content": "echo: %s",
			"tool_calls": [{"type": "function", "function": {"name": "lookup", "arguments": "{\"id\": 7}"}}]}}],
			"usage": {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}}`, q)
	}))
	defer srv.Close()
	t.Setenv("PROCTOR_TEST_KEY", "sekret")
	subj := suite.OpenAISubject(suite.OpenAIOptions{BaseURL: srv.URL + "/v1/", Model: "m", Family: "acme", APIKeyEnv: "PROCTOR_TEST_KEY",
		System: "be brief", Prices: &suite.Prices{InputPerMTok: 2, OutputPerMTok: 8}})
	got, err := subj(context.Background(), proctor.Sample{Input: "hi"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Output != "echo: hi" || gotAuth != "Bearer sekret" || got.HTTPStatus != 200 || got.Model != (proctor.Model{Name: "m", Family: "acme"}) {
		t.Errorf("output %q, auth %q, status %d, model %+v", got.Output, gotAuth, got.HTTPStatus, got.Model)
	}
	m := got.Metrics
	// cost = 1000 * 2 / 1e6 + 500 * 8 / 1e6 = 0.006
	if m.InputTokens == nil || *m.InputTokens != 1000 || *m.OutputTokens != 500 || *m.TotalTokens != 1500 || m.CostUSD == nil || *m.CostUSD != 0.006 || m.LatencyMS == nil {
		t.Errorf("metrics = %+v", m)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "lookup" || string(got.ToolCalls[0].Arguments) != `{"id": 7}` {
		t.Errorf("tool calls = %+v", got.ToolCalls)
	}
	if msgs := gotBody["messages"].([]any); len(msgs) != 2 || gotBody["model"] != "m" {
		t.Errorf("request = %v, want system and user messages for model m", gotBody)
	}
	for _, k := range []string{"seed", "temperature", "max_tokens"} {
		if _, ok := gotBody[k]; ok {
			t.Errorf("request = %v, want no %s: the subject leaves what the suite does not set to the server", gotBody, k)
		}
	}
	if _, err := subj(context.Background(), proctor.Sample{Input: "fail"}, 0); err == nil || !strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("err = %v, want HTTP 503", err)
	}
	bad := suite.OpenAISubject(suite.OpenAIOptions{BaseURL: "ftp://127.0.0.1", Model: "m"})
	if _, err := bad(context.Background(), proctor.Sample{Input: "hi"}, 0); err == nil || !strings.Contains(err.Error(), "base URL") {
		t.Errorf("err = %v, want the refused base URL: options the client refuses make each attempt not graded", err)
	}
}

// slowSubject answers with the input after a delay that makes later cases
// finish before earlier ones.
func slowSubject(_ context.Context, in proctor.Sample, _ int) (proctor.Sample, error) {
	var n int
	fmt.Sscan(in.Input, &n)
	time.Sleep(time.Duration(7-n%7) * time.Millisecond)
	in.Output = in.Input
	return in, nil
}

func seqCases(n int) func(func(proctor.Case, error) bool) {
	return func(yield func(proctor.Case, error) bool) {
		for i := range n {
			if !yield(proctor.Case{ID: fmt.Sprint(i), Sample: proctor.Sample{Input: fmt.Sprint(i), Expected: proctor.Ptr(fmt.Sprint(i))},
				Checks: []proctor.Check{{Grader: proctor.NewExactMatch(proctor.ExactMatchOptions{})}}}, nil) {
				return
			}
		}
	}
}

func TestRunInOrder(t *testing.T) {
	r := proctor.NewRunner(proctor.WithSubject(slowSubject))
	var ids []string
	n, err := suite.Run(context.Background(), r, seqCases(60), 8, func(c proctor.CaseResult) error {
		if c.Verdict != proctor.StatusPassed {
			t.Errorf("case %s: %v", c.ID, c.Verdict)
		}
		ids = append(ids, c.ID)
		return nil
	})
	if err != nil || n != 60 {
		t.Fatalf("Run = %d, %v", n, err)
	}
	want := make([]string, 60)
	for i := range want {
		want[i] = fmt.Sprint(i)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("results out of order: %v", ids)
	}
}

func TestRunStops(t *testing.T) {
	before := runtime.NumGoroutine()
	r := proctor.NewRunner(proctor.WithSubject(slowSubject))
	ctx, cancel := context.WithCancel(context.Background())
	got := 0
	n, err := suite.Run(ctx, r, seqCases(1000), 4, func(proctor.CaseResult) error {
		got++
		if got == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n < 10 || n > 20 {
		t.Errorf("cancelled Run = %d, %v; want about 10 results and context.Canceled", n, err)
	}
	boom := errors.New("disk full")
	n, err = suite.Run(context.Background(), r, seqCases(1000), 4, func(proctor.CaseResult) error { return boom })
	if !errors.Is(err, boom) || n != 0 {
		t.Errorf("Run with a failing emit = %d, %v; want 0, disk full", n, err)
	}
	srcErr := errors.New("bad line")
	n, err = suite.Run(context.Background(), r, func(yield func(proctor.Case, error) bool) {
		for c := range seqCases(3) {
			if !yield(c, nil) {
				return
			}
		}
		yield(proctor.Case{}, srcErr)
	}, 4, func(proctor.CaseResult) error { return nil })
	if !errors.Is(err, srcErr) || n != 3 {
		t.Errorf("Run with a failing source = %d, %v; want 3, bad line", n, err)
	}
	// No goroutine is left behind.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines after Run, %d before", g, before)
	}
}

func TestLoadJSONWithBOM(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(path, []byte("\xef\xbb\xbf{\"name\": \"bom\", \"cases\": [{\"id\": \"a\", \"outputs\": [\"x\"]}]}"), 0o644)
	s := load(t, path, suite.Options{})
	if s.Name != "bom" || s.Count != 1 {
		t.Errorf("got %q with %d cases, want bom with 1: a byte order mark is not an error", s.Name, s.Count)
	}
}
