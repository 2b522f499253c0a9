package proctor_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
)

func TestMergeReports(t *testing.T) {
	a := proctor.NewReport("s")
	a.Add(proctor.CaseResult{ID: "c2", Verdict: proctor.StatusPassed})
	a.Add(proctor.CaseResult{ID: "c4", Verdict: proctor.StatusFlaky})
	a.Judges = []proctor.JudgeStats{{Name: "j1", Model: "m", Calls: 2, Tokens: 100, CostUSD: 0.5, CacheHits: 1}}
	a.Caveats = []string{"same-family judge allowed"}
	b := proctor.NewReport("s")
	b.Add(proctor.CaseResult{ID: "c1", Verdict: proctor.StatusFailed})
	b.Add(proctor.CaseResult{ID: "c3", Verdict: proctor.StatusNotGraded})
	b.Judges = []proctor.JudgeStats{{Name: "j1", Model: "m", Calls: 3, Tokens: 50, CostUSD: 0.25}, {Name: "j2", Calls: 1}}
	b.Caveats = []string{"same-family judge allowed", "panel short"}

	got, err := proctor.MergeReports(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := proctor.NewReport("s")
	want.Totals = proctor.Totals{Passed: 1, Failed: 1, Flaky: 1, NotGraded: 1}
	want.Cases = []proctor.CaseResult{
		// In the order given, not sorted by id: each report's run order.
		{ID: "c2", Verdict: proctor.StatusPassed}, {ID: "c4", Verdict: proctor.StatusFlaky},
		{ID: "c1", Verdict: proctor.StatusFailed}, {ID: "c3", Verdict: proctor.StatusNotGraded},
	}
	want.Judges = []proctor.JudgeStats{{Name: "j1", Model: "m", Calls: 5, Tokens: 150, CostUSD: 0.75, CacheHits: 1}, {Name: "j2", Calls: 1}}
	want.Caveats = []string{"same-family judge allowed", "panel short"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merged report mismatch (-want +got):\n%s", d)
	}
	if len(a.Judges) != 1 || a.Judges[0].Calls != 2 {
		t.Errorf("input report changed: %+v", a.Judges)
	}
}

func TestMergeReportsRefuses(t *testing.T) {
	one := func(suite, id string) *proctor.Report {
		r := proctor.NewReport(suite)
		r.Add(proctor.CaseResult{ID: id, Verdict: proctor.StatusPassed})
		return r
	}
	tests := []struct {
		name    string
		reports []*proctor.Report
		want    error
		why     string
	}{
		{"different suites", []*proctor.Report{one("a", "x"), one("b", "y")}, proctor.ErrSuiteMismatch, "runs of two suites do not add up"},
		{"overlap", []*proctor.Report{one("a", "x"), one("a", "x")}, proctor.ErrDuplicateCase, "shards never share a case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := proctor.MergeReports(tt.reports...)
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v (%s)", err, tt.want, tt.why)
			}
		})
	}
	if _, err := proctor.MergeReports(); err == nil {
		t.Errorf("merging nothing: got nil error, want one")
	}
}
