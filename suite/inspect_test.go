package suite_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

// inspectSuite writes a suite re-grading the log (content) with graders.
func inspectSuite(t testing.TB, graders, content string) string {
	t.Helper()
	return writeSuiteWith(t, "graders: "+graders+"\ncases_inspect: {file: log.json}\n", "log.json", content)
}

// TestInspectLogsRegraded re-grades the outputs Inspect AI recorded in
// its own test logs: the verdicts agree with the scores the log holds
// (C for the Gen Z answer, I for "No" against the target " Yes").
func TestInspectLogsRegraded(t *testing.T) {
	for _, tc := range []struct {
		file, graders, id, input, expected string
		want                               proctor.Status
	}{
		{"input-task.json", `[{type: contains, value: "10°F"}]`, "1", "Hey there, hipster!", "", proctor.StatusPassed},
		{"log_formats.json", `[{type: exact_match}]`, "1", "Is the following statement something you would say?", " Yes", proctor.StatusFailed},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/inspect", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			s := load(t, inspectSuite(t, tc.graders, string(src)), suite.Options{})
			cases := collect(t, s)
			if len(cases) != 1 || len(cases[0].Outputs) != 1 {
				t.Fatalf("cases %+v", cases)
			}
			c := cases[0]
			if c.ID != tc.id || !strings.HasPrefix(c.Sample.Input, tc.input) || c.Sample.Expected == nil || *c.Sample.Expected != tc.expected {
				t.Errorf("case %s input %q expected %v", c.ID, c.Sample.Input, c.Sample.Expected)
			}
			out := c.Outputs[0]
			if out.Expected == nil {
				out.Expected = c.Sample.Expected
			}
			if g := c.Checks[0].Grade(t.Context(), &out); g.Status != tc.want {
				t.Errorf("re-graded %s (%s), want %s", g.Status, g.Reason, tc.want)
			}
		})
	}
}

func TestInspectLogShapes(t *testing.T) {
	log := `{"version": 2, "samples": [
 {"id": "a", "epoch": 1, "input": [{"role": "system", "content": "sys"}, {"role": "user", "content": [{"type": "text", "text": "q1"}, {"type": "image", "image": "x"}]}],
  "target": ["t1", "t2"], "metadata": {"k": "v"}, "output": {"completion": "done"}},
 {"id": "a", "epoch": 2, "input": "q", "target": "t", "output": {"choices": [{"message": {"content": [{"type": "text", "text": "x"}]}}]}}]}`
	s := load(t, inspectSuite(t, "[{type: contains, value: x}]", log), suite.Options{})
	cases := collect(t, s)
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	a := cases[0]
	if a.ID != "a" || a.Sample.Input != "q1" || *a.Sample.Expected != "t1" || len(a.Sample.References) != 1 || a.Sample.Item["k"] != "v" || a.Outputs[0].Output != "done" {
		t.Errorf("sample 1: %+v", a)
	}
	if b := cases[1]; b.ID != "a#2" || b.Outputs[0].Output != "x" {
		t.Errorf("sample 2: %+v", b)
	}
	for log, want := range map[string]string{
		`{"samples": []}`: "version",
		`[1]`:             "not an Inspect eval log",
		`{"version": 2, "samples": [{"id": {}, "input": "q"}]}`:                                                                                       "samples[0]: id",
		`{"version": 2, "samples": [{"id": 1, "input": 5}]}`:                                                                                          "input",
		`{"version": 2, "samples": [{"id": 1, "input": "q", "target": 3}]}`:                                                                           "target",
		`{"version": 2, "samples": [{"id": 1, "input": "q"}]}`:                                                                                        "no recorded outputs",
		`{"version": 2, "samples": [{"id": 1, "input": "q", "output": {"completion": "x"}}, {"id": 1, "input": "q", "output": {"completion": "y"}}]}`: "also used",
	} {
		_, err := suite.Load(inspectSuite(t, "[{type: contains, value: x}]", log), suite.Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", log, err, want)
		}
	}
}

// FuzzInspectLog: any log loads into cases or is refused; never a panic.
func FuzzInspectLog(f *testing.F) {
	f.Add(`{"version": 2, "samples": [{"id": 1, "input": "q", "output": {"completion": "x"}}]}`)
	f.Add(`{"version": 2, "samples": [{"id": "a", "input": [{"role": "user", "content": []}], "target": [], "output": {"choices": []}}]}`)
	f.Add(`{"version": 2, "samples": null}`)
	f.Fuzz(func(t *testing.T, log string) {
		s, err := suite.Load(inspectSuite(t, "[{type: contains, value: x}]", log), suite.Options{})
		if err == nil {
			s.Close()
		}
	})
}
