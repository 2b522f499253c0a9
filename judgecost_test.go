package proctor

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestScriptedRunFigures runs 1,000 cases through a Runner with scripted
// judges and checks the call count against the escalation rule: every case
// costs one call, and each escalated case two more. Run with -v to print
// the figures quoted in the README.
func TestScriptedRunFigures(t *testing.T) {
	const n = 1000
	idx := func(prompt string) int {
		i := strings.Index(prompt, "answer #")
		k, _ := strconv.Atoi(strings.Fields(prompt[i+len("answer #"):])[0])
		return k
	}
	// The first judge is unsure of 8% of answers, abstains on 2%, and fails
	// every seventh; the panel judges are confident.
	first := &fakeJudge{name: "first", family: "fam-a", reply: func(_ context.Context, p string) (string, error) {
		i := idx(p)
		switch {
		case i%100 < 8:
			return verdictJSON("pass", "low"), nil
		case i%100 < 10:
			return verdictJSON("abstain", "low"), nil
		case i%7 == 0:
			return verdictJSON("fail", "high"), nil
		}
		return verdictJSON("pass", "high"), nil
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
	judged := Check{Criterion: "format", Grader: NewLLMJudge("The answer is well formed.", JudgeOptions{}, p)}
	cases := make([]Case, n)
	wantEsc := 0
	for i := range cases {
		cases[i] = Case{ID: strconv.Itoa(i), Sample: Sample{Input: "q", Output: fmt.Sprintf("answer #%d end", i), Model: Model{Family: "fam-z"}}}
		if i%50 == 0 {
			cases[i].Severity = SeverityCritical
		}
		lowOrAbstain := i%100 < 10
		judgePass := !lowOrAbstain && i%7 != 0
		disputed := judgePass && i%97 == 0 || (!judgePass && !lowOrAbstain && i%97 != 0)
		if lowOrAbstain || i%50 == 0 || disputed {
			wantEsc++
		}
	}
	r := NewRunner(p, WithChecks(det, judged), WithConcurrency(8))
	rep, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	esc := 0
	for _, c := range rep.Cases {
		for _, g := range c.Attempts[0].Grades {
			if ev, ok := g.Evidence.(*JudgeEvidence); ok && ev.Panel {
				esc++
			}
		}
	}
	calls := 0
	for _, s := range rep.Judges {
		calls += s.Calls
	}
	if esc != wantEsc || calls != n+2*esc {
		t.Errorf("got %d escalations and %d calls, want %d escalations and %d calls", esc, calls, wantEsc, n+2*wantEsc)
	}
	t.Logf("%d cases: %d escalated to a panel (%.1f%%), %d judge calls (%.3f per case; %d with a panel on every case)",
		n, esc, 100*float64(esc)/n, calls, float64(calls)/n, 3*n)
	t.Logf("totals %+v", rep.Totals)
	// A rerun of the unchanged suite is served from the cache.
	rep2, _ := r.Run(context.Background(), cases)
	calls2 := 0
	for _, s := range rep2.Judges {
		calls2 += s.Calls
	}
	if calls2 != 0 {
		t.Errorf("rerun made %d calls, want 0", calls2)
	}
	t.Logf("rerun of the unchanged suite: %d calls", calls2)
}
