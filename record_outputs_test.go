package proctor_test

import (
	"context"
	"testing"

	"github.com/proctorhq/proctor"
)

// TestRecordOutputs: case results keep input, expected and each attempt's
// output only when the runner is asked to, and a redactor still runs
// after, so a held-out case can drop them.
func TestRecordOutputs(t *testing.T) {
	exp := "42"
	cases := []proctor.Case{
		{ID: "a", Sample: proctor.Sample{Input: "6*7?", Expected: &exp},
			Outputs: []proctor.Sample{{Output: "42"}, {Output: "41"}}},
		{ID: "held", Split: "holdout", Sample: proctor.Sample{Input: "secret question"},
			Outputs: []proctor.Sample{{Output: "secret answer"}}},
	}
	check := proctor.WithChecks(proctor.Check{Grader: proctor.MustRegex(`\d+`, proctor.RegexOptions{})})
	hide := proctor.WithResultRedactor(func(c proctor.CaseResult) proctor.CaseResult {
		if c.Split == "holdout" {
			c.Input, c.Expected = "", nil
			for i := range c.Attempts {
				c.Attempts[i].Output = nil
			}
		}
		return c
	})

	rep, err := proctor.NewRunner(check).Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Cases[0]; c.Input != "" || c.Expected != nil || c.Attempts[0].Output != nil {
		t.Errorf("without WithRecordOutputs the result keeps %q, %v, %v", c.Input, c.Expected, c.Attempts[0].Output)
	}

	rep, err = proctor.NewRunner(check, proctor.WithRecordOutputs(), hide).Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cases[0]
	if c.Input != "6*7?" || c.Expected == nil || *c.Expected != "42" {
		t.Errorf("input %q, expected %v; want the case's", c.Input, c.Expected)
	}
	if len(c.Attempts) != 2 || c.Attempts[0].Output == nil || *c.Attempts[0].Output != "42" || c.Attempts[1].Output == nil || *c.Attempts[1].Output != "41" {
		t.Errorf("attempt outputs not recorded: %+v", c.Attempts)
	}
	if h := rep.Cases[1]; h.Input != "" || h.Attempts[0].Output != nil {
		t.Errorf("the redactor did not run after recording: %q, %v", h.Input, h.Attempts[0].Output)
	}
}
