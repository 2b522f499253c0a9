package proctor

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestScriptedRunFigures runs 1,000 cases through a Runner with scripted
// judges, once asking panel judges one at a time (the default) and once all
// at once (JudgePolicy.PanelParallel), and checks the call counts against the
// escalation rule: every case costs one call; asked one at a time, an
// escalated case costs one more call when the first panel judge agrees with
// the first judge (two agreeing votes settle it) and two more otherwise;
// asked at once, every escalated case costs two more. Both modes must reach
// the same verdicts. Run with -v to print the figures quoted in the README.
func TestScriptedRunFigures(t *testing.T) {
	t.Parallel()
	const n = 1000
	idx := func(prompt string) int {
		i := strings.Index(prompt, "answer #")
		k, _ := strconv.Atoi(strings.Fields(prompt[i+len("answer #"):])[0])
		return k
	}
	// The first judge is unsure of 8% of answers, abstains on 2%, and fails
	// every seventh; the panel judges are confident: the second passes
	// everything, the third fails everything.
	firstSays := func(i int) (string, string) {
		switch {
		case i%100 < 8:
			return "pass", "low"
		case i%100 < 10:
			return "abstain", "low"
		case i%7 == 0:
			return "fail", "high"
		}
		return "pass", "high"
	}
	wantEsc, wantEscAgreed := 0, 0
	for i := range n {
		lowOrAbstain := i%100 < 10
		judgePass := !lowOrAbstain && i%7 != 0
		disputed := judgePass && i%97 == 0 || (!judgePass && !lowOrAbstain && i%97 != 0)
		if lowOrAbstain || i%50 == 0 || disputed {
			wantEsc++
			if v, _ := firstSays(i); v == "pass" { // the second judge passes too
				wantEscAgreed++
			}
		}
	}
	type figures struct {
		esc, calls int
		totals     Totals
		panels     *PanelStats
	}
	run := func(parallel bool) figures {
		first := &fakeJudge{name: "first", family: "fam-a", reply: func(_ context.Context, p string) (string, error) {
			return verdictJSON(firstSays(idx(p))), nil
		}}
		second := says("second", "fam-b", "pass", "high")
		third := says("third", "fam-c", "fail", "high")
		p := judgePoolOf(first, second, third)
		// A deterministic check on the same criterion fails every 97th answer.
		det := Check{Criterion: "format", Grader: Func("format", func(_ context.Context, s *Sample) Grade {
			if idx(s.Output)%97 == 0 {
				return Fail("bad format")
			}
			return Pass("")
		})}
		// The grader is built without judges: it asks the Runner's, under
		// the Runner's policy.
		judged := Check{Criterion: "format", Grader: must(NewLLMJudge("The answer is well formed.", JudgeOptions{}))}
		cases := make([]Case, n)
		for i := range cases {
			cases[i] = Case{ID: strconv.Itoa(i), Sample: Sample{Input: "q", Output: fmt.Sprintf("answer #%d end", i), Model: Model{Family: "fam-z"}}}
			if i%50 == 0 {
				cases[i].Severity = SeverityCritical
			}
		}
		opts := []RunnerOption{p, WithChecks(det, judged), WithConcurrency(8)}
		if parallel {
			opts = append(opts, WithJudgePolicy(JudgePolicy{PanelParallel: true}))
		}
		r := NewRunner(opts...)
		rep, err := r.Run(context.Background(), cases)
		if err != nil {
			t.Fatal(err)
		}
		var f figures
		for _, c := range rep.Cases {
			for _, g := range c.Attempts[0].Grades {
				if ev, ok := g.Evidence.(*JudgeEvidence); ok && ev.Panel {
					f.esc++
				}
			}
		}
		for _, s := range rep.Judges {
			f.calls += s.Calls
		}
		f.totals, f.panels = rep.Totals, rep.Panels
		// A rerun of the unchanged suite is served from the cache.
		rep2, _ := r.Run(context.Background(), cases)
		calls2 := 0
		for _, s := range rep2.Judges {
			calls2 += s.Calls
		}
		if calls2 != 0 {
			t.Errorf("parallel=%v: rerun made %d calls, want 0", parallel, calls2)
		}
		return f
	}
	seq, par := run(false), run(true)
	wantSeq := n + wantEsc + (wantEsc - wantEscAgreed) // 1 call, +1 per escalation, +1 more unless the first panel judge agreed
	wantPar := n + 2*wantEsc
	if seq.esc != wantEsc || seq.calls != wantSeq {
		t.Errorf("one at a time: got %d escalations and %d calls, want %d escalations and %d calls", seq.esc, seq.calls, wantEsc, wantSeq)
	}
	if par.esc != wantEsc || par.calls != wantPar {
		t.Errorf("parallel: got %d escalations and %d calls, want %d escalations and %d calls", par.esc, par.calls, wantEsc, wantPar)
	}
	if seq.totals != par.totals {
		t.Errorf("verdicts differ: one at a time %+v, parallel %+v", seq.totals, par.totals)
	}
	if seq.panels == nil || par.panels == nil || seq.panels.Convened != wantEsc || par.panels.Convened != wantEsc {
		t.Errorf("panel stats %+v / %+v, want %d panels convened", seq.panels, par.panels, wantEsc)
	}
	t.Logf("%d cases: %d escalated to a panel (%.1f%%), %d settled by the first panel judge", n, wantEsc, 100*float64(wantEsc)/n, wantEscAgreed)
	t.Logf("panel one at a time: %d judge calls (%.3f per case)", seq.calls, float64(seq.calls)/n)
	t.Logf("panel in parallel:   %d judge calls (%.3f per case; %d with a panel on every case)", par.calls, float64(par.calls)/n, 3*n)
	t.Logf("totals %+v", seq.totals)
	if a := par.panels.Alpha; a != nil {
		t.Logf("panel alpha: %.3f one at a time, %.3f in parallel", *seq.panels.Alpha, *a)
	}
}
