package gotest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/examples/gotest"
	"github.com/proctorhq/proctor/proctortest"
)

// TestBot grades the bot's answers: each case is a subtest that fails with
// the reasons when the answer is wrong and is skipped when it cannot be
// graded (here: no expected answer written yet).
func TestBot(t *testing.T) {
	contains := func(v string) proctor.Check {
		g, err := proctor.NewContains([]string{v}, proctor.ContainsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return proctor.Check{Grader: g}
	}
	runner := proctor.NewRunner(
		proctor.WithSubject(gotest.Subject),
		// Every answer must avoid the disclaimer.
		proctor.WithChecks(proctor.Check{Grader: must(proctor.NewNotContains([]string{"As an AI"}, proctor.ContainsOptions{}))}),
	)
	cases := []proctor.Case{
		{ID: "refund-window", Sample: proctor.Sample{Input: "How do I return a jacket?"}, Checks: []proctor.Check{contains("30 days")}},
		{ID: "store-hours", Sample: proctor.Sample{Input: "Open on Sunday?", Expected: proctor.Ptr("We are closed on Sundays.")},
			Checks: []proctor.Check{{Grader: proctor.NewExactMatch(proctor.ExactMatchOptions{})}}},
		{ID: "escalation", Sample: proctor.Sample{Input: "I want a human."}, Attempts: 3, Checks: []proctor.Check{contains("agent")}},
		// Not graded: the expected answer is not written yet, so this
		// subtest is skipped with the reason, never passed.
		{ID: "shipping", Sample: proctor.Sample{Input: "Do you ship to Norway?"},
			Checks: []proctor.Check{{Grader: proctor.NewExactMatch(proctor.ExactMatchOptions{})}}},
	}
	rep := proctortest.Run(t, runner, cases)
	if rep.Totals.Passed != 3 {
		t.Errorf("passed = %d, want 3", rep.Totals.Passed)
	}
}

// politeness is a custom grader; proctortest.TestGrader checks that it
// keeps the grader contract (no panic, deterministic, concurrency-safe).
var politeness = proctor.Func("politeness", func(_ context.Context, s *proctor.Sample) proctor.Grade {
	if strings.Contains(strings.ToLower(s.Output), "stupid") {
		return proctor.Fail("the answer is rude")
	}
	return proctor.Pass("")
})

func TestPolitenessGrader(t *testing.T) {
	if err := proctortest.TestGrader(politeness); err != nil {
		t.Error(err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
