package proctor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A failed judge call leaves its error in Grade.Err, for errors.Is and
// errors.As, whether the error was transient (retried, then given up) or
// plain.
func TestGradeErrKeepsJudgeError(t *testing.T) {
	errDown := errors.New("endpoint down")
	tests := []struct {
		name string
		err  error
	}{
		{"transient", &TransientError{Err: errDown, StatusCode: 502}},
		{"plain", fmt.Errorf("dial: %w", errDown)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fail := &fakeJudge{name: "j1", family: "fam-a", reply: func(context.Context, string) (string, error) { return "", tt.err }}
			g := must(NewLLMJudge("r", JudgeOptions{}, judgePoolOf(fail), fastRetry)).Grade(context.Background(), judgeSample())
			if g.Status != StatusNotGraded {
				t.Fatalf("got %v (%s), want not graded", g.Status, g.Reason)
			}
			if !errors.Is(g.Err, errDown) {
				t.Errorf("Err = %v, want one that errors.Is finds %v in", g.Err, errDown)
			}
			var te *TransientError
			if got := errors.As(g.Err, &te); got != (tt.name == "transient") {
				t.Errorf("errors.As(TransientError) = %v for %s error %v", got, tt.name, g.Err)
			}
		})
	}
	// With a panel: every judge's call failed; all the errors are kept.
	other := errors.New("other judge down")
	j1 := &fakeJudge{name: "j1", family: "fam-a", reply: func(context.Context, string) (string, error) { return "", errDown }}
	j2 := &fakeJudge{name: "j2", family: "fam-b", reply: func(context.Context, string) (string, error) { return "", other }}
	j3 := says("j3", "fam-c", "pass", "high")
	g := must(NewLLMJudge("r", JudgeOptions{}, judgePoolOf(j1, j2, j3), fastRetry)).Grade(context.Background(), judgeSample())
	if g.Status != StatusNotGraded || !errors.Is(g.Err, errDown) || !errors.Is(g.Err, other) {
		t.Errorf("panel: got %v (%s) with Err %v, want not graded keeping both call errors", g.Status, g.Reason, g.Err)
	}
}

// A Runner given judges is enough: checks built without judges, by a
// constructor or by the Compiler, ask them, and the report counts the
// calls.
func TestRunnerJudgesWireChecksBuiltWithout(t *testing.T) {
	j := says("j", "fam-a", "pass", "high")
	spec, err := NewCompiler().Compile([]byte(`{"type": "llm_judge", "rubric": "names the capital"}`))
	if err != nil {
		t.Fatal(err)
	}
	built := Check{Grader: must(NewLLMJudge("states a city", JudgeOptions{Name: "built"}))}
	r := NewRunner(judgePoolOf(j), WithChecks(spec, built))
	rep, err := r.Run(context.Background(), []Case{{ID: "a", Sample: *judgeSample()}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Passed != 1 {
		t.Fatalf("got %+v (grades %+v), want the case passed by the Runner's judge", rep.Totals, rep.Cases[0].Attempts[0].Grades)
	}
	if len(rep.Judges) != 1 || rep.Judges[0].Calls != 2 || j.calls() != 2 {
		t.Errorf("report judges %+v after %d calls, want the Runner's judge counted with 2 calls", rep.Judges, j.calls())
	}
}

// A check built with its own judges keeps them even when the Runner has
// others (the grader's judges win), and the report counts both pools.
func TestGraderJudgesWinAndAreCounted(t *testing.T) {
	own := says("own", "fam-a", "fail", "high")
	runner := says("runner", "fam-b", "pass", "high")
	ch := Check{Grader: must(NewLLMJudge("r", JudgeOptions{}, judgePoolOf(own)))}
	free := Check{Grader: must(NewLLMJudge("other rubric", JudgeOptions{Name: "free"}))}
	r := NewRunner(judgePoolOf(runner), WithChecks(ch, free))
	rep, err := r.Run(context.Background(), []Case{{ID: "a", Sample: *judgeSample()}})
	if err != nil {
		t.Fatal(err)
	}
	gs := rep.Cases[0].Attempts[0].Grades
	if len(gs) != 2 || gs[0].Status != StatusFailed || gs[1].Status != StatusPassed {
		t.Fatalf("grades %+v: want the own-judge check failed and the free check passed by the Runner's judge", gs)
	}
	calls := map[string]int{}
	for _, s := range rep.Judges {
		calls[s.Name] += s.Calls
	}
	if calls["own"] != 1 || calls["runner"] != 1 || len(rep.Judges) != 2 {
		t.Errorf("report judges %+v, want own and runner each counted once with 1 call", rep.Judges)
	}
	// A second run's report counts only its own calls (served from cache).
	rep2, _ := r.Run(context.Background(), []Case{{ID: "a", Sample: *judgeSample()}})
	for _, s := range rep2.Judges {
		if s.Calls != 0 || s.CacheHits != 1 {
			t.Errorf("rerun: %+v, want 0 calls and 1 cache hit", s)
		}
	}
}

// The report gives each judge's agreement with the final verdicts and the
// panels' alpha.
func TestJudgeAgreementReported(t *testing.T) {
	// The first judge is unsure (panel every time) and says pass; the
	// second says fail, the third fail: the panel fails 2-1.
	j1 := says("j1", "fam-a", "pass", "low")
	j2 := says("j2", "fam-b", "fail", "high")
	j3 := says("j3", "fam-c", "fail", "high")
	r := NewRunner(judgePoolOf(j1, j2, j3), WithChecks(Check{Grader: must(NewLLMJudge("r", JudgeOptions{}))}))
	cases := []Case{{ID: "a", Sample: *judgeSample()}, {ID: "b", Sample: Sample{Input: "x", Output: "y"}}}
	rep, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Failed != 2 {
		t.Fatalf("totals %+v, want 2 failed", rep.Totals)
	}
	byName := map[string]JudgeStats{}
	for _, s := range rep.Judges {
		byName[s.Name] = s
	}
	if s := byName["j1"]; s.Agreed != 0 || s.Disagreed != 2 {
		t.Errorf("j1 %+v, want 2 disagreements", s)
	}
	if s := byName["j2"]; s.Agreed != 2 || s.Disagreed != 0 {
		t.Errorf("j2 %+v, want 2 agreements", s)
	}
	if a, ok := byName["j3"].Agreement(); !ok || a != 1 {
		t.Errorf("j3 agreement %v %v, want 1", a, ok)
	}
	ps := rep.Panels
	if ps == nil || ps.Convened != 2 || ps.Paired != 2 || ps.Alpha == nil {
		t.Fatalf("panels %+v, want 2 convened and paired with an alpha", ps)
	}
	// Two units of (pass, fail, fail): o_pf = o_fp = 2, o_ff = 2; n = 6,
	// n_p = 2, n_f = 4; alpha = 1 - 5*4/16 = -0.25.
	if math.Abs(*ps.Alpha+0.25) > 1e-9 {
		t.Errorf("alpha %v, want -0.25", *ps.Alpha)
	}
}

// Replay mode serves recorded replies and never calls a judge: a miss is
// not graded with ErrJudgeCacheMiss. Record mode calls and writes even when
// a reply is recorded.
func TestJudgeCacheReplayAndRecord(t *testing.T) {
	dir := t.TempDir()
	j := says("j", "fam-a", "pass", "high")
	check := func(opts ...CompilerOption) Grade {
		return must(NewLLMJudge("r", JudgeOptions{}, append([]CompilerOption{judgePoolOf(j), WithJudgePolicy(JudgePolicy{CacheDir: dir})}, opts...)...)).Grade(context.Background(), judgeSample())
	}
	if g := check(WithJudgePolicy(JudgePolicy{CacheMode: JudgeCacheReplay})); g.Status != StatusNotGraded || !errors.Is(g.Err, ErrJudgeCacheMiss) || j.calls() != 0 {
		t.Fatalf("replay on an empty cache: %v (%s), Err %v, %d calls; want not graded with ErrJudgeCacheMiss and no call", g.Status, g.Reason, g.Err, j.calls())
	}
	if g := check(WithJudgePolicy(JudgePolicy{CacheMode: JudgeCacheRecord})); g.Status != StatusPassed || j.calls() != 1 {
		t.Fatalf("record: %v, %d calls; want passed after 1 call", g.Status, j.calls())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("record wrote %d files, want 1", len(files))
	}
	if g := check(WithJudgePolicy(JudgePolicy{CacheMode: JudgeCacheRecord})); g.Status != StatusPassed || j.calls() != 2 {
		t.Errorf("record again: %d calls, want 2 (record mode does not read the disk)", j.calls())
	}
	if g := check(WithJudgePolicy(JudgePolicy{CacheMode: JudgeCacheReplay})); g.Status != StatusPassed || j.calls() != 2 {
		t.Errorf("replay of a recorded prompt: %v (%s), %d calls; want passed with no new call", g.Status, g.Reason, j.calls())
	}
	// A different prompt is a miss in replay, and is reported as such in
	// a Runner's report without a panel being convened.
	j2, j3 := says("j2", "fam-b", "pass", "high"), says("j3", "fam-c", "pass", "high")
	r := NewRunner(judgePoolOf(j, j2, j3), WithJudgePolicy(JudgePolicy{CacheDir: dir, CacheMode: JudgeCacheReplay}),
		WithChecks(Check{Grader: must(NewLLMJudge("another rubric", JudgeOptions{}))}))
	rep, _ := r.Run(context.Background(), []Case{{ID: "a", Sample: *judgeSample()}})
	g := rep.Cases[0].Attempts[0].Grades[0]
	if g.Status != StatusNotGraded || j.calls()+j2.calls()+j3.calls() != 2 {
		t.Errorf("replay miss in a run: %v (%s), want not graded and no call", g.Status, g.Reason)
	}
	if ev := judgeEvidence(g); ev == nil || ev.Panel {
		t.Errorf("replay miss convened a panel: %+v", ev)
	}
	var m JudgeCacheMode
	if err := m.UnmarshalText([]byte("sometimes")); err == nil {
		t.Error("JudgeCacheMode.UnmarshalText accepted an unknown mode")
	}
}

// inflight is a judge that counts the calls in flight and remembers the
// most seen.
type inflight struct {
	now, most atomic.Int64
}

func (f *inflight) enter() {
	n := f.now.Add(1)
	for {
		m := f.most.Load()
		if n <= m || f.most.CompareAndSwap(m, n) {
			return
		}
	}
}

// A judge's concurrency follows the run's: at WithConcurrency(12), twelve
// calls are in flight at once, not 4. JudgeModel.Concurrency caps it.
func TestJudgeConcurrencyFollowsRun(t *testing.T) {
	const conc = 12
	for _, capAt := range []int{0, 3} {
		t.Run("cap="+strconv.Itoa(capAt), func(t *testing.T) {
			var f inflight
			want := int64(conc)
			if capAt > 0 {
				want = int64(capAt)
			}
			var once sync.Once
			full := make(chan struct{})
			m := JudgeModel{Name: "j", Family: "fam-a", Concurrency: capAt, Call: func(ctx context.Context, p string) (string, error) {
				f.enter()
				defer f.now.Add(-1)
				if f.now.Load() >= want {
					once.Do(func() { close(full) })
				}
				select { // wait until the limit is reached (or give up)
				case <-full:
				case <-time.After(2 * time.Second):
				}
				return verdictJSON("pass", "high"), nil
			}}
			r := NewRunner(NewJudgePool(m), WithConcurrency(conc), WithChecks(Check{Grader: must(NewLLMJudge("r", JudgeOptions{}))}))
			cases := make([]Case, 3*conc)
			for i := range cases {
				cases[i] = Case{ID: strconv.Itoa(i), Sample: Sample{Input: "q", Output: "answer " + strconv.Itoa(i)}}
			}
			rep, err := r.Run(context.Background(), cases)
			if err != nil || rep.Totals.Passed != len(cases) {
				t.Fatalf("%+v, %v", rep.Totals, err)
			}
			if got := f.most.Load(); got != want {
				t.Errorf("at most %d calls in flight, want %d", got, want)
			}
		})
	}
}

// An endpoint that answers 429 above 3 calls in flight is not hammered:
// the pool's limit falls to what it takes, and every case is graded.
func TestJudgeBacksOffOverloadedEndpoint(t *testing.T) {
	var f inflight
	var rejected atomic.Int64
	m := JudgeModel{Name: "j", Family: "fam-a", Call: func(ctx context.Context, p string) (string, error) {
		f.enter()
		defer f.now.Add(-1)
		if f.now.Load() > 3 {
			rejected.Add(1)
			return "", &TransientError{Err: errors.New("429 too many requests"), StatusCode: 429}
		}
		time.Sleep(2 * time.Millisecond)
		return verdictJSON("pass", "high"), nil
	}}
	p := NewJudgePool(m)
	r := NewRunner(p, WithConcurrency(16), WithJudgePolicy(JudgePolicy{Retry: JudgeRetry{Attempts: 20, Base: time.Millisecond, Max: 5 * time.Millisecond}}),
		WithChecks(Check{Grader: must(NewLLMJudge("r", JudgeOptions{}))}))
	cases := make([]Case, 200)
	for i := range cases {
		cases[i] = Case{ID: strconv.Itoa(i), Sample: Sample{Input: "q", Output: "answer " + strconv.Itoa(i)}}
	}
	rep, err := r.Run(context.Background(), cases)
	if err != nil || rep.Totals.Passed != len(cases) {
		t.Fatalf("%+v, %v", rep.Totals, err)
	}
	if lim := p.lims[0].Limit(); lim > 8 {
		t.Errorf("limit ended at %v, want it cut well below the run's 16", lim)
	}
	// Without backing off most calls would be rejected (16 in flight
	// against 3 accepted); with it the rejections are a small share.
	if n := rejected.Load(); n > int64(len(cases)) {
		t.Errorf("%d calls rejected for %d cases: the endpoint was hammered", n, len(cases))
	}
	t.Logf("%d rejected calls for %d cases; final limit %.2f", rejected.Load(), len(cases), p.lims[0].Limit())
}
