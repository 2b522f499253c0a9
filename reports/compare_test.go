package reports_test

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reports"
)

func verdicts(suite string, vs map[string]proctor.Status, order ...string) *proctor.Report {
	r := proctor.NewReport(suite)
	for _, id := range order {
		r.Add(proctor.CaseResult{ID: id, Verdict: vs[id]})
	}
	return r
}

func TestCompare(t *testing.T) {
	const (
		P = proctor.StatusPassed
		F = proctor.StatusFailed
		K = proctor.StatusFlaky
		N = proctor.StatusNotGraded
	)
	base := verdicts("s", map[string]proctor.Status{"a": P, "b": P, "c": F, "d": K, "e": N, "f": P, "gone": P},
		"a", "b", "c", "d", "e", "f", "gone")
	head := verdicts("s", map[string]proctor.Status{"a": P, "b": F, "c": P, "d": P, "e": P, "f": K, "new": F},
		"a", "b", "c", "d", "e", "f", "new")
	got := reports.Compare(base, head)
	want := &reports.Comparison{
		Regressions: []reports.CaseChange{{ID: "b", Base: P, Head: F}, {ID: "f", Base: P, Head: K}},
		Fixes:       []reports.CaseChange{{ID: "c", Base: F, Head: P}, {ID: "d", Base: K, Head: P}},
		Changed:     []reports.CaseChange{{ID: "e", Base: N, Head: P}},
		OnlyBase:    []string{"gone"},
		OnlyHead:    []string{"new"},
		Paired:      3, // a, b, c: measured in both runs
		PassToFail:  1,
		FailToPass:  1,
		PValue:      1,
		Warnings:    []string{},
	}
	// The statistics over the pairs have tests of their own.
	stats := cmpopts.IgnoreFields(reports.Comparison{}, "MCNemarP", "Difference", "MDE")
	if d := cmp.Diff(want, got, stats); d != "" {
		t.Errorf("Compare mismatch (-want +got):\n%s", d)
	}
}

func TestCompareJudgeWarning(t *testing.T) {
	tests := []struct {
		name       string
		base, head []proctor.JudgeStats
		warn       bool
		why        string
	}{
		{"same", []proctor.JudgeStats{{Name: "j", Model: "m", PromptVersion: "v1", Calls: 3}},
			[]proctor.JudgeStats{{Name: "j", Model: "m", PromptVersion: "v1", Calls: 9}}, false, "call counts may differ"},
		{"prompt version", []proctor.JudgeStats{{Name: "j", Model: "m", PromptVersion: "v1"}},
			[]proctor.JudgeStats{{Name: "j", Model: "m", PromptVersion: "v2"}}, true, "prompts changed"},
		{"model", []proctor.JudgeStats{{Name: "j", Model: "m1"}},
			[]proctor.JudgeStats{{Name: "j", Model: "m2"}}, true, "judge model changed"},
		{"added judge", nil, []proctor.JudgeStats{{Name: "j"}}, true, "a judge appeared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, h := proctor.NewReport("s"), proctor.NewReport("s")
			b.Judges, h.Judges = tt.base, tt.head
			got := len(reports.Compare(b, h).Warnings) > 0
			if got != tt.warn {
				t.Errorf("warning = %v, want %v (%s)", got, tt.warn, tt.why)
			}
		})
	}
}

func TestCompareSignificant(t *testing.T) {
	// 10 cases regress and 2 are fixed: McNemar exact p = 0.0386.
	base, head := proctor.NewReport("s"), proctor.NewReport("s")
	for i := range 30 {
		bv, hv := proctor.StatusPassed, proctor.StatusPassed
		switch {
		case i < 10:
			hv = proctor.StatusFailed
		case i < 12:
			bv = proctor.StatusFailed
		}
		id := string(rune('A'+i/26)) + string(rune('a'+i%26))
		base.Add(proctor.CaseResult{ID: id, Verdict: bv})
		head.Add(proctor.CaseResult{ID: id, Verdict: hv})
	}
	c := reports.Compare(base, head)
	if c.PassToFail != 10 || c.FailToPass != 2 || c.Paired != 30 {
		t.Fatalf("discordant = %d/%d of %d, want 10/2 of 30", c.PassToFail, c.FailToPass, c.Paired)
	}
	if math.Abs(c.PValue-0.03857421875) > 1e-12 {
		t.Errorf("p = %v, want 0.03857421875", c.PValue)
	}
}

// TestCompareVerdictsEdges: a head id given twice pairs with base's as
// before (neither is only in head), and a cluster named only by a case not
// measured in both runs leaves the difference unclustered.
func TestCompareVerdictsEdges(t *testing.T) {
	r := &proctor.Report{Suite: "s"}
	base := []reports.ComparedCase{{ID: "a", Verdict: proctor.StatusPassed}, {ID: "n", Verdict: proctor.StatusNotGraded, Cluster: "x"}, {ID: "b", Verdict: proctor.StatusFailed}}
	head := []reports.ComparedCase{{ID: "a", Verdict: proctor.StatusFailed}, {ID: "a", Verdict: proctor.StatusPassed}, {ID: "n", Verdict: proctor.StatusPassed}, {ID: "b", Verdict: proctor.StatusPassed}, {ID: "new", Verdict: proctor.StatusPassed}, {ID: "new", Verdict: proctor.StatusFailed}}
	c, err := reports.CompareVerdicts(r, r, base, head, reports.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.OnlyHead, []string{"new", "new"}) || len(c.OnlyBase) != 0 {
		t.Errorf("only head %q, only base %q; want both new cases only in head", c.OnlyHead, c.OnlyBase)
	}
	if c.Paired != 2 || c.Difference == nil || c.Difference.Clusters != 0 || c.Difference.Method != "newcombe" {
		t.Errorf("paired %d, difference %+v; want 2 unclustered pairs (a with head's last a, and b)", c.Paired, c.Difference)
	}
}
