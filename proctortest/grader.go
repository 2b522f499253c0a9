package proctortest

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

// Limits of the contract checks: a grader that takes longer than
// gradeTimeout on one sample is taken to hang, and one that takes longer
// than cancelTimeout with a cancelled context does not respect it.
const (
	gradeTimeout  = 10 * time.Second
	cancelTimeout = time.Second
)

// rule is one clause of the grader contract.
type rule struct {
	name  string
	check func(g proctor.Grader) error
}

var rules = []rule{
	{"EmptyOutput", func(g proctor.Grader) error { return safeGrade(g, sample(""), "empty output") }},
	{"HugeOutput", func(g proctor.Grader) error {
		return safeGrade(g, sample(strings.Repeat("All work and no play. ", 1<<20/22+1)[:1<<20]), "1 MiB output")
	}},
	{"InvalidUTF8", func(g proctor.Grader) error {
		return safeGrade(g, sample("caf\xc3 \xff\xfe ok \xed\xa0\x80"), "invalid UTF-8 output")
	}},
	{"ZeroSample", func(g proctor.Grader) error {
		return safeGradeCtx(context.Background(), g, &proctor.Sample{}, "zero Sample", gradeTimeout)
	}},
	{"CancelledContext", func(g proctor.Grader) error {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return safeGradeCtx(ctx, g, sample("Paris is the capital of France."), "cancelled context", cancelTimeout)
	}},
	{"Deterministic", func(g proctor.Grader) error {
		s := sample("Paris is the capital of France.")
		a, err := grade(context.Background(), g, s, gradeTimeout)
		if err != nil {
			return err
		}
		b, err := grade(context.Background(), g, s, gradeTimeout)
		if err != nil {
			return err
		}
		if !same(a, b) {
			return fmt.Errorf("same sample, different grades: %s then %s", show(a), show(b))
		}
		return nil
	}},
	{"Concurrent", func(g proctor.Grader) error {
		s := sample("Paris is the capital of France.")
		want, err := grade(context.Background(), g, s, gradeTimeout)
		if err != nil {
			return err
		}
		const workers, calls = 8, 8
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for range calls {
					got, err := grade(context.Background(), g, s, gradeTimeout)
					if err == nil && !same(want, got) {
						err = fmt.Errorf("concurrent calls disagree: %s, then %s", show(want), show(got))
					}
					if err != nil {
						errs[w] = err
						return
					}
				}
			})
		}
		wg.Wait()
		return errors.Join(errs...)
	}},
}

// TestGrader checks that g keeps the grader contract and returns every
// violation, joined; nil when there is none. The rules: Grade does not
// panic on an empty, a 1 MiB, an invalid UTF-8 output or a zero Sample; it
// returns within a second when its context is already cancelled; it gives
// the same grade (status, score, reason) to the same sample twice and from
// many goroutines at once; every grade it returns has the status passed,
// failed or not graded. Run it under the race detector to catch data races.
//
// Like fstest.TestFS it works outside go test. A grader that hangs leaves
// its goroutine behind.
func TestGrader(g proctor.Grader) error {
	if g == nil {
		return errors.New("proctortest: nil grader")
	}
	var errs []error
	for _, r := range rules {
		if err := r.check(g); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", g.Name(), r.name, err))
		}
	}
	return errors.Join(errs...)
}

// RunGrader runs the rules of [TestGrader] on g as subtests of t, one per
// rule.
func RunGrader(t *testing.T, g proctor.Grader) {
	t.Helper()
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			if err := r.check(g); err != nil {
				t.Error(err)
			}
		})
	}
}

// sample returns a sample with every field a grader may read set, and the
// given output.
func sample(out string) *proctor.Sample {
	return &proctor.Sample{
		ID:         "proctortest",
		Input:      "What is the capital of France?",
		Output:     out,
		Expected:   proctor.Ptr("Paris"),
		References: []string{"Paris", "The capital of France is Paris."},
		Context:    []string{"Paris is the capital and largest city of France."},
		Item:       map[string]any{"country": "France"},
		Metrics: proctor.Metrics{LatencyMS: proctor.Ptr(120.0), InputTokens: proctor.Ptr(10.0),
			OutputTokens: proctor.Ptr(7.0), TotalTokens: proctor.Ptr(17.0), CostUSD: proctor.Ptr(0.0001)},
		ToolCalls:  []proctor.ToolCall{{Name: "search", Arguments: []byte(`{"q":"capital of France"}`)}},
		HTTPStatus: 200,
		Model:      proctor.Model{Name: "subject-model", Family: "subject-family"},
	}
}

func safeGrade(g proctor.Grader, s *proctor.Sample, what string) error {
	return safeGradeCtx(context.Background(), g, s, what, gradeTimeout)
}

func safeGradeCtx(ctx context.Context, g proctor.Grader, s *proctor.Sample, what string, limit time.Duration) error {
	if _, err := grade(ctx, g, s, limit); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// grade calls g once, turning a panic, a hang past limit and a status that
// is not a grade into errors.
func grade(ctx context.Context, g proctor.Grader, s *proctor.Sample, limit time.Duration) (proctor.Grade, error) {
	type result struct {
		g   proctor.Grade
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("panicked: %v\n%s", v, debug.Stack())}
			}
		}()
		done <- result{g: g.Grade(ctx, s)}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return r.g, r.err
		}
		switch r.g.Status {
		case proctor.StatusPassed, proctor.StatusFailed, proctor.StatusNotGraded:
			return r.g, nil
		}
		return r.g, fmt.Errorf("status %v is not passed, failed or not_graded", r.g.Status)
	case <-timer.C:
		return proctor.Grade{}, fmt.Errorf("did not return within %v", limit)
	}
}

func same(a, b proctor.Grade) bool {
	return a.Status == b.Status && a.HasScore == b.HasScore && a.Score == b.Score && a.Reason == b.Reason
}

func show(g proctor.Grade) string {
	s := g.Status.String()
	if g.HasScore {
		s += fmt.Sprintf(" (score %v)", g.Score)
	}
	if g.Reason != "" {
		s += ": " + g.Reason
	}
	return s
}
