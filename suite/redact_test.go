package suite_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/config"
	"github.com/proctorhq/proctor/suite"
)

func TestRedact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte("redact_splits: [holdout, secret]\ncases:\n  - {id: a, outputs: [x]}\n"), 0o644)
	s := load(t, path, suite.Options{})
	out := "the holdout answer"
	res := func(split string) proctor.CaseResult {
		return proctor.CaseResult{ID: "c", Verdict: proctor.StatusFailed, Split: split, Attempts: []proctor.AttemptResult{{
			Verdict: proctor.StatusFailed, Output: &out, Error: "subject said " + out, Skipped: []string{"later"},
			Grades: []proctor.Grade{
				{Grader: "exact_match", Status: proctor.StatusFailed, Reason: "output " + out, Evidence: map[string]any{"quote": out}, Caveats: []string{"a caveat"}, Err: errors.New(out)},
				{Grader: "length", Status: proctor.StatusPassed, Score: 0.5, HasScore: true},
			}}}}
	}
	tests := []struct {
		name, split string
		want        func(proctor.CaseResult) proctor.CaseResult
		why         string
	}{
		{"dev kept", "dev", func(c proctor.CaseResult) proctor.CaseResult { return c }, "a split not named is shown as it is"},
		{"unsplit kept", "", func(c proctor.CaseResult) proctor.CaseResult { return c }, "a case with no split is shown as it is"},
		{"holdout hidden", "holdout", func(c proctor.CaseResult) proctor.CaseResult {
			a := &c.Attempts[0]
			a.Output, a.Error = nil, "hidden: holdout case"
			a.Grades = []proctor.Grade{
				{Grader: "exact_match", Status: proctor.StatusFailed, Reason: "hidden: holdout case", Caveats: []string{"a caveat"}},
				{Grader: "length", Status: proctor.StatusPassed, Score: 0.5, HasScore: true},
			}
			return c
		}, "reasons, evidence, errors and outputs go; status, grader, score, skipped and caveats stay"},
		{"second named split", "secret", func(c proctor.CaseResult) proctor.CaseResult {
			a := &c.Attempts[0]
			a.Output, a.Error = nil, "hidden: secret case"
			a.Grades = []proctor.Grade{
				{Grader: "exact_match", Status: proctor.StatusFailed, Reason: "hidden: secret case", Caveats: []string{"a caveat"}},
				{Grader: "length", Status: proctor.StatusPassed, Score: 0.5, HasScore: true},
			}
			return c
		}, "every split the list names"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := res(tt.split)
			got := s.Redact(in)
			want := tt.want(res(tt.split))
			if d := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); d != "" {
				t.Errorf("Redact (-want +got) (%s):\n%s", tt.why, d)
			}
			if in.Attempts[0].Grades[0].Reason != "output "+out || in.Attempts[0].Output == nil {
				t.Errorf("Redact modified its argument")
			}
		})
	}
	if !s.Hides("holdout") || s.Hides("dev") || s.Hides("") {
		t.Errorf("Hides: holdout %v, dev %v, none %v; want true, false, false", s.Hides("holdout"), s.Hides("dev"), s.Hides(""))
	}
}

func TestRedactSplitsErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tt := range map[string]struct{ text, want string }{
		"not a list":        {"redact_splits: holdout\n", "redact_splits: want a list of split names"},
		"not a string":      {"redact_splits: [1]\n", "redact_splits[0]: want a string"},
		"config escapes":    {"config: ../judges.yaml\n", `config: "../judges.yaml": want a file inside the suite's folder`},
		"config absolute":   {"config: /etc/judges.yaml\n", `want a file inside the suite's folder`},
		"config not string": {"config: [a]\n", `config: want a string`},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "s.yaml")
			os.WriteFile(path, []byte(tt.text+"cases:\n  - {id: a, outputs: [x]}\n"), 0o644)
			_, err := suite.Load(path, suite.Options{LoadConfig: func(string, []byte) (*config.Config, error) { return nil, nil }})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSuiteConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	os.WriteFile(path, []byte("config: judges.yaml\ncases:\n  - {id: a, outputs: [x], checks: [{type: llm_judge, rubric: r}]}\n"), 0o644)
	const judges = "judges: [{name: j, type: scripted, family: f, replies: [{reply: '{\"verdict\": \"pass\", \"confidence\": \"high\"}'}]}]\n"
	os.WriteFile(filepath.Join(dir, "judges.yaml"), []byte(judges), 0o644)
	var gotName, gotData string
	s := load(t, path, suite.Options{LoadConfig: func(name string, data []byte) (*config.Config, error) {
		gotName, gotData = name, string(data)
		return config.ForSuite(name, data)
	}})
	if gotName != "judges.yaml" || gotData != judges || s.Config != "judges.yaml" {
		t.Fatalf("LoadConfig got %q %q, Config %q; want the file the suite names, read from its folder", gotName, gotData, s.Config)
	}
	rep, _ := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	if rep.Totals.Passed != 1 || len(rep.Judges) != 1 || rep.Judges[0].Name != "j" || rep.Judges[0].Calls != 1 {
		t.Errorf("totals %+v, judges %+v; want the config's judge used by the specs and counted by the runner", rep.Totals, rep.Judges)
	}

	// With IgnoreConfig the key is checked, not read.
	s2 := load(t, path, suite.Options{IgnoreConfig: true})
	if s2.Config != "judges.yaml" {
		t.Errorf("Config %q, want judges.yaml", s2.Config)
	}
	// A missing file and a refused config are errors naming the key.
	os.Remove(filepath.Join(dir, "judges.yaml"))
	if _, err := suite.Load(path, suite.Options{LoadConfig: func(string, []byte) (*config.Config, error) { return nil, nil }}); err == nil || !strings.Contains(err.Error(), "config: cannot read the config file") {
		t.Errorf("missing config: got %v", err)
	}
	os.WriteFile(filepath.Join(dir, "judges.yaml"), []byte("x"), 0o644)
	if _, err := suite.Load(path, suite.Options{LoadConfig: func(string, []byte) (*config.Config, error) { return nil, errors.New("bad judge") }}); err == nil || !strings.Contains(err.Error(), "config: judges.yaml: bad judge") {
		t.Errorf("refused config: got %v", err)
	}
}
