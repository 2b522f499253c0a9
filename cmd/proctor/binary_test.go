package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// asCLI, set in the environment, makes the test binary run as proctor
// itself, so tests can check the command as users run it: its exit
// status, what goes to standard output and what to standard error.
const asCLI = "PROCTOR_TEST_RUN_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// bin runs the proctor binary (this test binary acting as it) with args,
// stdin and extra environment variables, and returns its exit status and
// outputs.
func bin(t *testing.T, stdin string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), asCLI+"=1"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestBinaryNothingGraded: a run that graded nothing must not pass a CI
// gate. It exits 3, and 1 with --strict.
func TestBinaryNothingGraded(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL + "/v1"
	down.Close() // nothing listens there any more
	judgeConfig := func(url string) string {
		return writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"j","family":"f","model":"m","base_url":%q,"api_key_env":"PROCTOR_TEST_BAD_KEY"}],"judge_timeout_ms":2000}`, url))
	}
	env := []string{"PROCTOR_TEST_BAD_KEY=wrong"}
	judge := `{"type":"llm_judge","rubric":"is polite"}`
	sample := `{"id":"a","input":"q","output":"hello"}` + "\n"
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"every line malformed", "{not json\n{\"id\":\"b\",\"output\":5}\n", []string{"grade", "--grader", `{"type":"contains","value":"x"}`}},
		{"no grader", sample, []string{"grade"}},
		{"typo in a per-line spec", `{"id":"a","output":"x","grader":{"type":"contians","value":"x"}}` + "\n", []string{"grade"}},
		{"llm_judge without config", sample, []string{"grade", "--grader", judge}},
		{"judge endpoint down", sample, []string{"grade", "--config", judgeConfig(downURL), "--grader", judge}},
		{"empty input", "", []string{"grade", "--grader", `{"type":"contains","value":"x"}`}},
		{"run: llm_judge without config", "", []string{"run", writeSuite(t, "s.yaml", "name: s\ncases:\n  - {id: a, outputs: [hi], checks: [{type: llm_judge, rubric: polite}]}\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := bin(t, tt.stdin, env, tt.args...)
			if code != exitNoneGraded {
				t.Errorf("exit %d, want 3 (nothing graded)\nstdout %s\nstderr %s", code, out, stderr)
			}
			if !strings.Contains(stderr, "nothing was graded") {
				t.Errorf("standard error does not say nothing was graded: %s", stderr)
			}
			strict := append([]string{tt.args[0], "--strict"}, tt.args[1:]...)
			if tt.stdin == "" && tt.args[0] == "grade" {
				// No sample at all: --strict has nothing to fail.
				return
			}
			if code, _, stderr := bin(t, tt.stdin, env, strict...); code != exitFailed || !strings.Contains(stderr, "--strict") {
				t.Errorf("--strict: exit %d, want 1 (%s)", code, stderr)
			}
		})
	}
}

// TestBinaryStrict: --strict fails a run where something was graded and
// something else was not; without it the run passes.
func TestBinaryStrict(t *testing.T) {
	in := `{"id":"a","output":"x"}` + "\n" + `{"id":"b"}` + "\n"
	args := []string{"grade", "--grader", `{"type":"contains","value":"x"}`}
	if code, _, stderr := bin(t, in, nil, args...); code != exitOK {
		t.Errorf("exit %d, want 0: one passed, one not graded (%s)", code, stderr)
	}
	if code, _, stderr := bin(t, in, nil, append(args, "--strict")...); code != exitFailed || !strings.Contains(stderr, "1 sample not graded") {
		t.Errorf("--strict: exit %d (%s), want 1 and the count", code, stderr)
	}
	suite := writeSuite(t, "s.yaml", "name: s\ncases:\n  - {id: a, outputs: [x], checks: [{type: contains, value: x}]}\n  - {id: b, outputs: [x], checks: [{type: llm_judge, rubric: polite}]}\n")
	if code, _, stderr := bin(t, "", nil, "run", suite); code != exitOK {
		t.Errorf("run: exit %d, want 0 (%s)", code, stderr)
	}
	if code, _, stderr := bin(t, "", nil, "run", suite, "--strict"); code != exitFailed || !strings.Contains(stderr, "1 case not graded") {
		t.Errorf("run --strict: exit %d (%s), want 1", code, stderr)
	}
}

var subcommands = [][]string{{"grade"}, {"run"}, {"compare"}, {"plan"}, {"calibrate"}, {"serve"}, {"report"}, {"report", "merge"}, {"report", "show"}}

// TestBinaryHelp: --help, -h and help print the usage to standard output
// and exit 0, for every subcommand.
func TestBinaryHelp(t *testing.T) {
	for _, sub := range subcommands {
		for _, h := range []string{"--help", "-h"} {
			name := strings.Join(append(sub, h), " ")
			t.Run(name, func(t *testing.T) {
				code, out, stderr := bin(t, "", nil, append(sub, h)...)
				if code != exitOK || stderr != "" || !strings.HasPrefix(out, "usage: proctor "+sub[0]) {
					t.Errorf("exit %d, stdout %q, stderr %q; want the usage on stdout, exit 0", code, out, stderr)
				}
			})
		}
	}
	code, out, _ := bin(t, "", nil, "--help")
	if code != exitOK {
		t.Errorf("proctor --help: exit %d", code)
	}
	for _, w := range []string{"grade", "run", "report merge", "report show", "compare", "plan", "calibrate", "serve", "version", "proctor COMMAND --help", "3  nothing was graded"} {
		if !strings.Contains(out, w) {
			t.Errorf("top-level usage lacks %q:\n%s", w, out)
		}
	}
	// A bad flag is still a usage error, on standard error.
	if code, out, stderr := bin(t, "", nil, "grade", "--nope"); code != exitUsage || out != "" || !strings.Contains(stderr, "usage: proctor grade") {
		t.Errorf("bad flag: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestBinaryVersion(t *testing.T) {
	code, out, _ := bin(t, "", nil, "version")
	// A test binary's main module has no tagged version: "(devel)".
	if code != exitOK || out != "proctor "+version()+"\n" || version() == "" {
		t.Errorf("exit %d, %q", code, out)
	}
}

// TestBinaryFlagsAfterArguments: flags may follow the positional
// arguments of every subcommand.
func TestBinaryFlagsAfterArguments(t *testing.T) {
	in := writeFile(t, "in.jsonl", `{"id":"a","output":"x"}`+"\n")
	code, out, stderr := bin(t, "", nil, "grade", in, "--grader", `{"type":"contains","value":"x"}`)
	if code != exitOK || !strings.Contains(out, `"status":"passed"`) {
		t.Errorf("grade FILE --grader: exit %d, %s %s", code, out, stderr)
	}
	dir := t.TempDir()
	rep := filepath.Join(dir, "r.json")
	suite := writeSuite(t, "s.yaml", "name: s\ncases:\n  - {id: a, outputs: [x], checks: [{type: contains, value: x}]}\n")
	if code, _, stderr := bin(t, "", nil, "run", suite, "--out", rep); code != exitOK {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	if code, out, stderr := bin(t, "", nil, "compare", rep, rep, "--json"); code != exitOK || !strings.HasPrefix(out, "{") {
		t.Errorf("compare A B --json: exit %d, %s %s", code, out, stderr)
	}
	if code, out, stderr := bin(t, "", nil, "report", "show", rep, "--format", "markdown"); code != exitOK || !strings.Contains(out, "|") {
		t.Errorf("report show R --format: exit %d, %s %s", code, out, stderr)
	}
	// calibrate: the flags after the file are read (here, a missing
	// config is reported, not "want one SAMPLES.jsonl").
	_, _, stderr = bin(t, "", nil, "calibrate", in, "--grader", `{"type":"llm_judge","rubric":"r"}`)
	if !strings.Contains(stderr, "no judges") {
		t.Errorf("calibrate FILE --grader: %s", stderr)
	}
}

// TestBinaryGraderFileList: grade --grader-file takes a list of specs, as
// run --grader-file does; the sample passes when every spec passes.
func TestBinaryGraderFileList(t *testing.T) {
	for _, tt := range []struct{ name, body string }{
		{"g.json", `[{"type":"contains","value":"a"},{"type":"contains","value":"b"}]`},
		{"g.yaml", "- {type: contains, value: a}\n- {type: contains, value: b}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gf := writeFile(t, tt.name, tt.body)
			in := `{"id":"both","output":"ab"}` + "\n" + `{"id":"one","output":"a"}` + "\n"
			code, out, stderr := bin(t, in, nil, "grade", "--grader-file", gf)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != exitFailed || len(lines) != 2 || !strings.Contains(lines[0], `"passed"`) || !strings.Contains(lines[1], `"failed"`) {
				t.Errorf("exit %d, %s %s; want both passed, one failed", code, out, stderr)
			}
		})
	}
}

// TestBinaryReportsRefused: compare and report show refuse JSON that is
// not a proctor report, naming the file; a case missing from head is a
// regression unless --allow-missing.
func TestBinaryReportsRefused(t *testing.T) {
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	two := writeSuite(t, "s.yaml", "name: s\ncases:\n  - {id: a, outputs: [x], checks: [{type: contains, value: x}]}\n  - {id: b, outputs: [x], checks: [{type: contains, value: x}]}\n")
	one := writeSuite(t, "s.yaml", "name: s\ncases:\n  - {id: a, outputs: [x], checks: [{type: contains, value: x}]}\n")
	bin(t, "", nil, "run", two, "--out", base)
	bin(t, "", nil, "run", one, "--out", head)
	for _, bad := range []struct{ name, body, why string }{
		{"empty.json", `{}`, `it has no "suite", "totals", "cases"`},
		{"config.json", `{"judges":[{"name":"j","family":"f"}]}`, `it has no "suite"`},
		{"list.json", `[1]`, "want an object, got a list"},
		{"typed.json", `{"suite":"s","totals":{},"cases":[{"id":5}]}`, `field "cases.id": want a string, got a number`},
	} {
		p := writeFile(t, bad.name, bad.body)
		for _, args := range [][]string{{"compare", base, p}, {"compare", p, base}, {"report", "show", p}, {"report", "merge", base, p}} {
			code, _, stderr := bin(t, "", nil, args...)
			if code != exitUsage || !strings.Contains(stderr, p+" is not a proctor JSON report") || !strings.Contains(stderr, bad.why) || strings.Contains(stderr, "Go struct") || strings.Contains(stderr, "proctor.") {
				t.Errorf("%v: exit %d, %s; want 2 naming the file and %q", args, code, stderr, bad.why)
			}
		}
	}
	code, out, _ := bin(t, "", nil, "compare", base, head)
	if code != exitFailed || !strings.Contains(out, "missing from head, counted as regressions (1") {
		t.Errorf("head lost case b: exit %d, want 1:\n%s", code, out)
	}
	if code, out, _ := bin(t, "", nil, "compare", base, head, "--allow-missing"); code != exitOK || !strings.Contains(out, "only in base (1): b") {
		t.Errorf("--allow-missing: exit %d, want 0:\n%s", code, out)
	}
}

// TestServeWrongMethod: a known endpoint asked with another method
// answers 405 with an Allow header; an unknown path 404.
func TestServeWrongMethod(t *testing.T) {
	_, ts := newTestServer(t, testServeConfig(), nil)
	for _, tt := range []struct {
		method, path string
		code         int
		allow        string
	}{
		{"GET", "/v1/grade", http.StatusMethodNotAllowed, "POST"},
		{"GET", "/v1/promptfoo/x", http.StatusMethodNotAllowed, "POST"},
		{"PUT", "/v1/promptfoo", http.StatusMethodNotAllowed, "POST"},
		{"POST", "/healthz", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"GET", "/v1/nope", http.StatusNotFound, ""},
		{"GET", "/healthz", http.StatusOK, ""},
	} {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.code || resp.Header.Get("Allow") != tt.allow {
			t.Errorf("%s %s: %d, Allow %q; want %d, %q", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Allow"), tt.code, tt.allow)
		}
	}
}

// TestBinaryMessagesInUserWords: JSON errors name the field, the expected
// kind of value and the line, never a Go type.
func TestBinaryMessagesInUserWords(t *testing.T) {
	in := `{"id":"a","output":5}` + "\n" + `{"id":"b","output":"x","metadata":[}` + "\n"
	_, out, _ := bin(t, in, nil, "grade", "--grader", `{"type":"contains","value":"x"}`)
	for _, w := range []string{`malformed input line: field \"output\": want a string, got a number`, `malformed input line: not valid JSON`} {
		if !strings.Contains(out, w) {
			t.Errorf("results lack %s:\n%s", w, out)
		}
	}
	cfg := writeFile(t, "c.json", "{\n\"judges\": [{\"name\": 5}]}")
	_, _, stderr := bin(t, "", nil, "grade", "--config", cfg)
	if want := `line 2: field "judges.name": want a string, got a number`; !strings.Contains(stderr, want) {
		t.Errorf("config error %q lacks %q", stderr, want)
	}
	cfg = writeFile(t, "c.json", `{"judgez": []}`)
	_, _, stderr = bin(t, "", nil, "grade", "--config", cfg)
	if want := `unknown field "judgez"`; !strings.Contains(stderr, want) {
		t.Errorf("config error %q lacks %q", stderr, want)
	}
	_, _, stderr = bin(t, "", nil, "grade", "--grader", `{"type":"contains","vaule":"x"}`)
	if want := `option "vaule": unknown option; did you mean "value"?`; !strings.Contains(stderr, want) {
		t.Errorf("spec error %q lacks %q", stderr, want)
	}
	for _, s := range []string{out, stderr} {
		if strings.Contains(s, "Go struct") || strings.Contains(s, "sampleWire") || strings.Contains(s, "fileConfig") {
			t.Errorf("a Go type name reached the user: %s", s)
		}
	}
}

// TestREADMEQuickstartOutput: the report README.md shows is, byte for
// byte, what the binary prints for the quickstart suite.
func TestREADMEQuickstartOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "```\nsuite quickstart-support")
	if i < 0 {
		t.Fatal("README.md shows no quickstart report")
	}
	shown := s[i+4:]
	shown = shown[:strings.Index(shown, "```")]
	code, out, _ := bin(t, "", nil, "run", quickstart)
	if code != exitFailed || out != shown {
		t.Errorf("exit %d; README's report differs from the binary's:\n%s", code, cmp.Diff(shown, out))
	}
}
