package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

// TestRunnerOptionsFromGo: a suite run from Go code with its
// RunnerOptions names its reports after the suite and applies its
// redact_splits, as proctor run does.
func TestRunnerOptionsFromGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte(`name: go-suite
redact_splits: [holdout]
cases:
  - {id: dev, split: dev, expected: a, outputs: [the dev answer], checks: [{type: exact_match}]}
  - {id: held, split: holdout, expected: a, outputs: [the holdout answer], checks: [{type: exact_match}]}
`), 0o644)
	s := load(t, path, suite.Options{})
	cases := collect(t, s)
	r := proctor.NewRunner(append(s.RunnerOptions(), proctor.WithConcurrency(2))...)
	rep, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Suite != "go-suite" {
		t.Errorf("report of suite %q, want go-suite", rep.Suite)
	}
	if rep.Totals.Failed != 2 || len(rep.Cases) != 2 {
		t.Fatalf("totals %+v", rep.Totals)
	}
	if !strings.Contains(rep.Cases[0].Attempts[0].Grades[0].Reason, "dev answer") {
		t.Errorf("the dev case lost its reason: %+v", rep.Cases[0])
	}
	if got := rep.Cases[1].Attempts[0].Grades[0].Reason; got != "hidden: holdout case" {
		t.Errorf("the holdout case's reason %q leaks through a Go run", got)
	}
	one := r.RunCase(context.Background(), &cases[1])
	if got := one.Attempts[0].Grades[0].Reason; got != "hidden: holdout case" {
		t.Errorf("RunCase: holdout reason %q", got)
	}
}

// TestLoadReadsSuiteConfig: suite.Load reads the config file the suite
// names (here a scripted judge) with no help from the caller, so a suite
// run from Go grades its model-graded checks as proctor run does; with
// IgnoreConfig the key is recorded and not read.
func TestLoadReadsSuiteConfig(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "judges.yaml"), []byte("judges:\n  - {name: sj, type: scripted, family: scripted, replies: [{case: a, reply: {verdict: pass, confidence: high}}]}\n"), 0o644)
	path := filepath.Join(dir, "s.yaml")
	os.WriteFile(path, []byte("config: judges.yaml\ncases:\n  - {id: a, outputs: [x], checks: [{type: llm_judge, rubric: r}]}\n"), 0o644)
	for _, tt := range []struct {
		opts suite.Options
		want proctor.Status
	}{
		{suite.Options{}, proctor.StatusPassed},
		{suite.Options{IgnoreConfig: true}, proctor.StatusNotGraded},
	} {
		s := load(t, path, tt.opts)
		rep, err := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
		if err != nil || rep.Cases[0].Verdict != tt.want {
			t.Errorf("IgnoreConfig %v: %v %v, want %v", tt.opts.IgnoreConfig, err, rep.Cases[0].Verdict, tt.want)
		}
	}
	os.WriteFile(filepath.Join(dir, "judges.yaml"), []byte("judges: [{name: sj}]\n"), 0o644)
	if _, err := suite.Load(path, suite.Options{}); err == nil || !strings.Contains(err.Error(), "family is required") {
		t.Errorf("a broken config the suite names: %v", err)
	}
}
