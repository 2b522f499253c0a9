package proctortest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/proctortest"
)

type badGrader struct {
	name  string
	grade func(ctx context.Context, s *proctor.Sample) proctor.Grade
}

func (b badGrader) Name() string { return b.name }
func (b badGrader) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	return b.grade(ctx, s)
}

func TestTestGraderFindsViolations(t *testing.T) {
	var n atomic.Int64
	tests := []struct {
		name  string
		g     proctor.Grader
		rules []string // rule names the error must name
		why   string
	}{
		{"panics on empty", badGrader{"p", func(_ context.Context, s *proctor.Sample) proctor.Grade {
			_ = s.Output[0]
			return proctor.Pass("")
		}}, []string{"EmptyOutput"}, "indexing an empty output panics"},
		{"ignores cancellation", badGrader{"slow", func(ctx context.Context, s *proctor.Sample) proctor.Grade {
			if ctx.Err() != nil {
				time.Sleep(1500 * time.Millisecond)
			}
			return proctor.Pass("")
		}}, []string{"CancelledContext"}, "sleeps past the deadline with a cancelled ctx"},
		{"not deterministic", badGrader{"coin", func(context.Context, *proctor.Sample) proctor.Grade {
			if n.Add(1)%2 == 0 {
				return proctor.Fail("tails")
			}
			return proctor.Pass("heads")
		}}, []string{"Deterministic"}, "alternates between pass and fail"},
		{"flaky is not a grade", badGrader{"flaky", func(context.Context, *proctor.Sample) proctor.Grade {
			return proctor.Grade{Status: proctor.StatusFlaky}
		}}, []string{"EmptyOutput", "HugeOutput", "InvalidUTF8", "Deterministic"}, "flaky is a case verdict only"},
		{"nil deref on zero sample", badGrader{"nilexp", func(_ context.Context, s *proctor.Sample) proctor.Grade {
			return proctor.Pass(*s.Expected)
		}}, []string{"ZeroSample"}, "Expected is nil on a zero Sample"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := proctortest.TestGrader(tt.g)
			if err == nil {
				t.Fatalf("TestGrader = nil, want violations of %v (%s)", tt.rules, tt.why)
			}
			for _, r := range tt.rules {
				if !strings.Contains(err.Error(), r+":") {
					t.Errorf("error does not name rule %s (%s):\n%v", r, tt.why, err)
				}
			}
		})
	}
}

func TestTestGraderAcceptsGoodGrader(t *testing.T) {
	g := proctor.NewExactMatch(proctor.ExactMatchOptions{})
	if err := proctortest.TestGrader(g); err != nil {
		t.Errorf("TestGrader(exact_match) = %v, want nil", err)
	}
}

// TestRunSubtests runs helperRun (below) in a child process and reads how
// go test reported each case.
func TestRunSubtests(t *testing.T) {
	tests := []struct {
		name   string
		env    string
		want   []string
		reject []string
	}{
		{"strict", "strict", []string{
			"--- PASS: TestHelperRun/ok",
			"--- FAIL: TestHelperRun/wrong",
			`output "Lyon" does not equal expected "Paris"`,
			`output: "Lyon"`,
			`judge scripted: fail: "Criterion: names Paris Violations: The answer names Lyon, not Paris."`,
			"--- FAIL: TestHelperRun/wobbly",
			"is flaky",
			"--- SKIP: TestHelperRun/unknowable",
			"no expected value",
		}, nil},
		{"allow flaky", "allow", []string{
			"--- PASS: TestHelperRun/wobbly",
			"is flaky (allowed)",
		}, []string{"--- FAIL: TestHelperRun/wobbly"}},
		{"log outputs", "log", []string{
			"case ok passed:",
			`output: "Paris"`,
		}, nil},
		{"held-out outputs stay out", "redact", []string{
			"--- FAIL: TestHelperRun/wrong",
			`output "Lyon" does not equal expected "Paris"`,
		}, []string{`output: "Lyon"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRun$", "-test.v")
			cmd.Env = append(os.Environ(), "PROCTORTEST_HELPER="+tt.env)
			out, _ := cmd.CombinedOutput()
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("child output lacks %q:\n%s", w, out)
				}
			}
			for _, r := range tt.reject {
				if strings.Contains(string(out), r) {
					t.Errorf("child output has %q:\n%s", r, out)
				}
			}
		})
	}
}

// TestHelperRun is run by TestRunSubtests in a child process; on its own it
// does nothing.
func TestHelperRun(t *testing.T) {
	mode := os.Getenv("PROCTORTEST_HELPER")
	if mode == "" {
		t.Skip("run by TestRunSubtests")
	}
	exact := proctor.Check{Grader: proctor.NewExactMatch(proctor.ExactMatchOptions{})}
	judge := proctor.JudgeModel{Name: "scripted", Family: "scripted", Model: "canned",
		Call: func(_ context.Context, prompt string) (string, error) {
			if strings.Contains(prompt, "Lyon") {
				return `{"criterion":"names Paris","violations":"The answer names Lyon, not Paris.","basis":"answer","verdict":"fail","confidence":"high"}`, nil
			}
			return `{"criterion":"names Paris","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`, nil
		}}
	pool := proctor.NewJudgePool(judge)
	capital := proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("The answer names the capital of France.", proctor.JudgeOptions{}, pool))}
	cases := []proctor.Case{
		{ID: "ok", Sample: proctor.Sample{Expected: proctor.Ptr("Paris")}, Outputs: []proctor.Sample{{Output: "Paris"}}},
		{ID: "wrong", Split: "holdout", Sample: proctor.Sample{Expected: proctor.Ptr("Paris")}, Outputs: []proctor.Sample{{Output: "Lyon"}}, Checks: []proctor.Check{capital}},
		{ID: "wobbly", Sample: proctor.Sample{Expected: proctor.Ptr("Paris")}, Outputs: []proctor.Sample{{Output: "Paris"}, {Output: "Rome"}}},
		{ID: "unknowable", Outputs: []proctor.Sample{{Output: "Paris"}}},
	}
	var opts []proctortest.Option
	runOpts := []proctor.RunnerOption{proctor.WithChecks(exact), pool}
	switch mode {
	case "allow":
		opts = append(opts, proctortest.AllowFlaky())
	case "log":
		opts = append(opts, proctortest.LogOutputs())
	case "redact":
		runOpts = append(runOpts, proctor.WithResultRedactor(func(res proctor.CaseResult) proctor.CaseResult {
			if res.Split == "holdout" {
				for i := range res.Attempts {
					res.Attempts[i].Output = nil
				}
			}
			return res
		}))
	}
	proctortest.Run(t, proctor.NewRunner(runOpts...), cases, opts...)
}

// TestRunReportsJudgeStats checks that the report Run returns carries the
// judges' calls, as a Runner's own report does.
func TestRunReportsJudgeStats(t *testing.T) {
	judge := proctor.JudgeModel{Name: "scripted", Family: "scripted", Model: "canned",
		Call: func(context.Context, string) (string, error) {
			return `{"criterion":"names Paris","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`, nil
		}}
	pool := proctor.NewJudgePool(judge)
	g := proctest.Must(proctor.NewLLMJudge("The answer names the capital of France.", proctor.JudgeOptions{}, pool))
	r := proctor.NewRunner(pool)
	rep := proctortest.Run(t, r, []proctor.Case{{ID: "capital", Sample: proctor.Sample{Input: "Capital of France?", Output: "Paris."},
		Checks: []proctor.Check{{Grader: g}}}})
	if rep.Totals.Passed != 1 {
		t.Fatalf("totals %+v, want one passed case", rep.Totals)
	}
	if len(rep.Judges) != 1 || rep.Judges[0].Name != "scripted" || rep.Judges[0].Calls != 1 {
		t.Errorf("judges %+v, want the scripted judge with one call", rep.Judges)
	}
}

// TestRunConcurrent: cases are graded as many at a time as the Runner's
// concurrency, not one after another, and the report takes the Runner's
// suite name. The subject holds each call until four are in flight (or
// two seconds pass), so one-at-a-time grading shows as a peak of 1.
func TestRunConcurrent(t *testing.T) {
	var inflight, peak atomic.Int64
	arrived := make(chan struct{}, 64)
	subject := func(ctx context.Context, in proctor.Sample, _ int) (proctor.Sample, error) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		arrived <- struct{}{}
		deadline := time.After(2 * time.Second)
		for peak.Load() < 4 {
			select {
			case <-deadline:
				return proctor.Sample{Output: "Paris"}, nil
			case <-ctx.Done():
				return proctor.Sample{}, ctx.Err()
			case <-time.After(time.Millisecond):
			}
		}
		return proctor.Sample{Output: "Paris"}, nil
	}
	exact := proctor.Check{Grader: proctor.NewExactMatch(proctor.ExactMatchOptions{})}
	r := proctor.NewRunner(proctor.WithSubject(subject), proctor.WithChecks(exact), proctor.WithConcurrency(4), proctor.WithSuiteName("capitals"))
	var cases []proctor.Case
	for i := range 12 {
		cases = append(cases, proctor.Case{ID: fmt.Sprintf("c%02d", i), Sample: proctor.Sample{Expected: proctor.Ptr("Paris")}})
	}
	rep := proctortest.Run(t, r, cases)
	if got := peak.Load(); got != 4 {
		t.Errorf("at most %d cases graded at once, want the Runner's concurrency, 4", got)
	}
	if rep.Totals.Passed != 12 {
		t.Errorf("totals %+v, want 12 passed", rep.Totals)
	}
	if rep.Suite != "capitals" {
		t.Errorf("report suite %q, want the Runner's suite name", rep.Suite)
	}
}
