package proctor

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// kindGrader is a scripted grader of a given kind that records the order
// in which graders ran.
type kindGrader struct {
	name string
	kind Kind
	st   Status
	log  *[]string
	mu   *sync.Mutex
}

func (g kindGrader) Name() string     { return g.name }
func (g kindGrader) GraderKind() Kind { return g.kind }
func (g kindGrader) Grade(context.Context, *Sample) Grade {
	if g.log != nil {
		g.mu.Lock()
		*g.log = append(*g.log, g.name)
		g.mu.Unlock()
	}
	return Grade{Status: g.st}
}

func TestRunnerOrdersChecksByKind(t *testing.T) {
	var log []string
	var mu sync.Mutex
	mk := func(name string, k Kind) Check {
		return Check{Grader: kindGrader{name: name, kind: k, st: StatusPassed, log: &log, mu: &mu}}
	}
	r := NewRunner(WithChecks(mk("suite-judge", KindModel), mk("suite-det", KindDeterministic)))
	c := Case{ID: "c", Checks: []Check{mk("judge", KindModel), mk("hook", KindNetwork), mk("det", KindDeterministic)}}
	res := r.RunCase(context.Background(), &c)
	want := []string{"suite-det", "det", "hook", "suite-judge", "judge"}
	if !slices.Equal(log, want) {
		t.Errorf("ran %v, want %v (deterministic, then network, then model, stable within a kind)", log, want)
	}
	if res.Verdict != StatusPassed {
		t.Errorf("verdict %v, want passed", res.Verdict)
	}
}

func TestGradeAttemptShortCircuit(t *testing.T) {
	P := func(n string) Check { return Check{Grader: kindGrader{name: n, st: StatusPassed}} }
	F := func(n string) Check { return Check{Grader: kindGrader{name: n, st: StatusFailed}} }
	N := func(n string) Check { return Check{Grader: kindGrader{name: n, st: StatusNotGraded}} }
	req := func(c Check) Check { c.Required = true; return c }
	tests := []struct {
		name        string
		checks      []Check
		want        Status
		wantRan     int
		wantSkipped []string
	}{
		{"required fail stops", []Check{P("a"), req(F("b")), P("c"), N("d")}, StatusFailed, 2, []string{"c", "d"}},
		{"required not graded stops", []Check{req(N("a")), F("b")}, StatusNotGraded, 1, []string{"b"}},
		{"optional fail goes on", []Check{F("a"), P("b")}, StatusFailed, 2, nil},
		{"required pass goes on", []Check{req(P("a")), N("b")}, StatusNotGraded, 2, nil},
		{"earlier failure stays", []Check{F("a"), req(N("b")), P("c")}, StatusFailed, 2, []string{"c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ar := GradeAttempt(context.Background(), &Sample{}, tt.checks, "c", SeverityUnset)
			if ar.Verdict != tt.want || len(ar.Grades) != tt.wantRan || !slices.Equal(ar.Skipped, tt.wantSkipped) {
				t.Errorf("got %v, %d grades, skipped %v; want %v, %d, %v", ar.Verdict, len(ar.Grades), ar.Skipped, tt.want, tt.wantRan, tt.wantSkipped)
			}
		})
	}
}

func TestRunnerShortCircuitSkipsJudge(t *testing.T) {
	var judged atomic.Int32
	judge := Check{Grader: judgeLike{&judged}}
	det := Check{Grader: NewExactMatchTo("yes", ExactMatchOptions{}), Required: true}
	r := NewRunner()
	// The judge is listed first; the runner must still run the required
	// deterministic check first and stop there.
	res := r.RunCase(context.Background(), &Case{ID: "c", Sample: Sample{Output: "no"}, Checks: []Check{judge, det}})
	if judged.Load() != 0 {
		t.Errorf("judge called %d times, want 0: a required check failed first", judged.Load())
	}
	if res.Verdict != StatusFailed || !slices.Equal(res.Attempts[0].Skipped, []string{"judge"}) {
		t.Errorf("got %v skipped %v, want failed with the judge skipped", res.Verdict, res.Attempts[0].Skipped)
	}
}

type judgeLike struct{ n *atomic.Int32 }

func (judgeLike) Name() string     { return "judge" }
func (judgeLike) GraderKind() Kind { return KindModel }
func (j judgeLike) Grade(ctx context.Context, s *Sample) Grade {
	j.n.Add(1)
	if CheckInfoFrom(ctx) == nil {
		return NotGraded("no check info")
	}
	return Pass("")
}

func TestRunnerAttempts(t *testing.T) {
	exp := Ptr("Paris")
	em := Check{Grader: NewExactMatch(ExactMatchOptions{})}
	outs := func(ss ...string) []Sample {
		var out []Sample
		for _, s := range ss {
			out = append(out, Sample{Output: s})
		}
		return out
	}
	tests := []struct {
		name         string
		c            Case
		subject      Subject
		want         Status
		wantAttempts int
	}{
		{"recorded all pass", Case{Sample: Sample{Expected: exp}, Outputs: outs("Paris", "paris")}, nil, StatusPassed, 2},
		{"recorded flaky", Case{Sample: Sample{Expected: exp}, Outputs: outs("Paris", "Rome", "Paris")}, nil, StatusFlaky, 3},
		{"recorded all fail", Case{Sample: Sample{Expected: exp}, Outputs: outs("Rome")}, nil, StatusFailed, 1},
		{"fewer outputs than attempts", Case{Attempts: 5, Sample: Sample{Expected: exp}, Outputs: outs("Paris", "Rome")}, nil, StatusFlaky, 2},
		{"attempts cap outputs", Case{Attempts: 1, Sample: Sample{Expected: exp}, Outputs: outs("Paris", "Rome")}, nil, StatusPassed, 1},
		{"no expected", Case{Outputs: outs("Paris")}, nil, StatusNotGraded, 1},
		{"subject three attempts", Case{Attempts: 3, Sample: Sample{Expected: exp}},
			func(_ context.Context, in Sample, a int) (Sample, error) {
				in.Output = []string{"Paris", "Rome", "Paris"}[a]
				return in, nil
			}, StatusFlaky, 3},
		{"subject error is not graded", Case{Attempts: 2, Sample: Sample{Expected: exp}},
			func(_ context.Context, in Sample, a int) (Sample, error) {
				if a == 0 {
					return in, errors.New("timeout")
				}
				in.Output = "Paris"
				return in, nil
			}, StatusPassed, 2},
		{"subject panic is not graded", Case{Sample: Sample{Expected: exp}},
			func(context.Context, Sample, int) (Sample, error) { panic("boom") }, StatusNotGraded, 1},
		{"sample is the attempt", Case{Sample: Sample{Output: "Paris", Expected: exp}}, nil, StatusPassed, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.Checks = []Check{em}
			r := NewRunner(WithSubject(tt.subject))
			res := r.RunCase(context.Background(), &tt.c)
			if res.Verdict != tt.want || len(res.Attempts) != tt.wantAttempts {
				t.Errorf("got %v over %d attempts, want %v over %d", res.Verdict, len(res.Attempts), tt.want, tt.wantAttempts)
			}
		})
	}
}

func TestRunnerPanicIsNotGraded(t *testing.T) {
	boom := Func("boom", func(context.Context, *Sample) Grade { panic("kaboom") })
	ok := Func("ok", func(context.Context, *Sample) Grade { return Pass("") })
	rep, err := NewRunner().Run(context.Background(), []Case{
		{ID: "a", Checks: []Check{{Grader: boom}, {Grader: ok}}},
		{ID: "b", Checks: []Check{{Grader: ok}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Cases[0].Attempts[0]
	if a.Grades[0].Status != StatusNotGraded || !strings.Contains(a.Grades[0].Reason, "kaboom") || a.Grades[0].Grader != "boom" {
		t.Errorf("panicking grader: got %+v, want not graded naming the panic", a.Grades[0])
	}
	if len(a.Grades) != 2 || a.Grades[1].Status != StatusPassed {
		t.Errorf("the attempt must go on after a panic: got %d grades", len(a.Grades))
	}
	if rep.Cases[1].Verdict != StatusPassed || rep.Totals != (Totals{Passed: 1, NotGraded: 1}) {
		t.Errorf("the run must go on: got %+v", rep.Totals)
	}
}

func TestRunnerOrderAndConcurrencyBound(t *testing.T) {
	const limit, n = 3, 40
	var cur, peak atomic.Int32
	slow := Func("slow", func(ctx context.Context, s *Sample) Grade {
		c := cur.Add(1)
		for {
			p := peak.Load()
			if c <= p || peak.CompareAndSwap(p, c) {
				break
			}
		}
		// Later cases finish first, so order cannot come from timing.
		time.Sleep(time.Duration(n-len(s.ID)%n) * 50 * time.Microsecond)
		cur.Add(-1)
		return Pass("")
	})
	var cases []Case
	for i := range n {
		cases = append(cases, Case{ID: fmt.Sprintf("case-%02d", i), Checks: []Check{{Grader: slow}}})
	}
	rep, err := NewRunner(WithConcurrency(limit)).Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p > limit || p < 1 {
		t.Errorf("peak concurrency %d, want between 1 and %d", p, limit)
	}
	for i, c := range rep.Cases {
		if c.ID != cases[i].ID {
			t.Fatalf("case %d is %s, want %s: results must keep input order", i, c.ID, cases[i].ID)
		}
	}
}

// waitGoroutines waits for the goroutine count to fall back to at most
// base, failing the test if it does not.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, want at most %d:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRunnerCancel(t *testing.T) {
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int32
	block := Func("block", func(ctx context.Context, s *Sample) Grade {
		if started.Add(1) == 3 {
			cancel()
		}
		if s.ID >= "c05" {
			<-ctx.Done() // honours ctx
			return ErrorGrade("judge", ctx.Err())
		}
		return Pass("")
	})
	var cases []Case
	for i := range 20 {
		cases = append(cases, Case{ID: fmt.Sprintf("c%02d", i), Checks: []Check{{Grader: block}}})
	}
	rep, err := NewRunner(WithConcurrency(2)).Run(ctx, cases)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if rep == nil {
		t.Fatal("no partial report")
	}
	if got := rep.Totals.Cases(); got == 0 || got >= len(cases) {
		t.Errorf("partial report has %d cases, want some but not all %d", got, len(cases))
	}
	for _, c := range rep.Cases {
		if c.Verdict != StatusPassed {
			t.Errorf("case %s in the partial report is %v: only cases graded in full belong there", c.ID, c.Verdict)
		}
	}
	if !slices.ContainsFunc(rep.Caveats, func(c string) bool { return strings.Contains(c, "cancelled") }) {
		t.Errorf("caveats %q do not say the run was cancelled", rep.Caveats)
	}
	waitGoroutines(t, base)
}

func TestRunnerCheckInfo(t *testing.T) {
	var got *CheckInfo
	spy := kindFunc{KindModel, func(ctx context.Context, s *Sample) Grade {
		got = CheckInfoFrom(ctx)
		return Pass("")
	}}
	det := Check{Grader: must(NewContains([]string{"a"}, ContainsOptions{})), Criterion: "has-a"}
	NewRunner().RunCase(context.Background(), &Case{ID: "k", Severity: SeverityHigh, Sample: Sample{Output: "a"},
		Checks: []Check{{Grader: spy, Criterion: "has-a"}, det}})
	if got == nil || got.CaseID != "k" || got.Severity != SeverityHigh || got.Criterion != "has-a" ||
		len(got.Prior) != 1 || got.Prior[0].Criterion != "has-a" || got.Prior[0].Grade.Status != StatusPassed {
		t.Errorf("CheckInfo = %+v, want case k, high, criterion has-a and the deterministic grade before it", got)
	}
}

type kindFunc struct {
	k Kind
	f func(context.Context, *Sample) Grade
}

func (k kindFunc) Name() string                               { return "spy" }
func (k kindFunc) GraderKind() Kind                           { return k.k }
func (k kindFunc) Grade(ctx context.Context, s *Sample) Grade { return k.f(ctx, s) }

// BenchmarkRunCase puts the runner's cost for one case with one contains
// check beside calling the grader directly.
func BenchmarkRunCase(b *testing.B) {
	ctx := context.Background()
	g := must(NewContains([]string{"Paris"}, ContainsOptions{}))
	b.Run("runner", func(b *testing.B) {
		r := NewRunner()
		c := Case{ID: "c", Sample: Sample{Output: kbOutput}, Checks: []Check{{Grader: g}}}
		for b.Loop() {
			r.RunCase(ctx, &c)
		}
	})
	b.Run("grader", func(b *testing.B) {
		s := &Sample{ID: "c", Output: kbOutput}
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
}
