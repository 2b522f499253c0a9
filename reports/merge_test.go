package reports_test

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reports"
)

func TestMerge(t *testing.T) {
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

	got, err := reports.Merge(a, b)
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

func TestMergeRefuses(t *testing.T) {
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
		{"different suites", []*proctor.Report{one("a", "x"), one("b", "y")}, reports.ErrSuiteMismatch, "runs of two suites do not add up"},
		{"overlap", []*proctor.Report{one("a", "x"), one("a", "x")}, reports.ErrDuplicateCase, "shards never share a case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reports.Merge(tt.reports...)
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v (%s)", err, tt.want, tt.why)
			}
		})
	}
	if _, err := reports.Merge(); err == nil {
		t.Errorf("merging nothing: got nil error, want one")
	}
}

func TestMergeShards(t *testing.T) {
	shard := func(i, n int, digest string, cases map[int]string) *proctor.Report {
		r := proctor.NewReport("s")
		r.SuiteDigest = digest
		r.Shard = &proctor.ReportShard{I: i, N: n}
		for _, p := range slices.Sorted(maps.Keys(cases)) {
			r.Add(proctor.CaseResult{ID: cases[p], Verdict: proctor.StatusPassed})
			r.Shard.Positions = append(r.Shard.Positions, p)
		}
		return r
	}
	s1 := shard(1, 3, "d", map[int]string{0: "a", 3: "d"})
	s2 := shard(2, 3, "d", map[int]string{1: "b", 4: "e"})
	s3 := shard(3, 3, "d", map[int]string{2: "c"})
	m, err := reports.Merge(s3, s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range m.Cases {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, []string{"a", "b", "c", "d", "e"}) || m.Shard != nil || m.SuiteDigest != "d" || m.Totals.Passed != 5 {
		t.Errorf("merged %v shard %v digest %q totals %+v", ids, m.Shard, m.SuiteDigest, m.Totals)
	}
	names := reports.MergeOptions{Names: []string{"one.json", "two.json", "three.json"}}
	tests := []struct {
		name    string
		reports []*proctor.Report
		want    error
		in      string
	}{
		{"missing", []*proctor.Report{s1, s2}, reports.ErrIncompleteShards, "shards 3/3 missing"},
		{"repeated", []*proctor.Report{s1, s2, s2}, reports.ErrRepeatedShard, "two.json and three.json are both shard 2/3"},
		{"digest", []*proctor.Report{s1, s2, shard(3, 3, "other", nil)}, reports.ErrSuiteMismatch, "three.json has suite digest other"},
		{"other N", []*proctor.Report{s1, shard(2, 4, "d", nil)}, reports.ErrIncompleteShards, "two.json is shard 2/4"},
		{"mixed", []*proctor.Report{s1, proctor.NewReport("s")}, reports.ErrIncompleteShards, "two.json is a whole run"},
		{"same position", []*proctor.Report{s1, s2, shard(3, 3, "d", map[int]string{3: "z"})}, reports.ErrDuplicateCase, "position 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reports.MergeWith(names, tt.reports...)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.in) {
				t.Errorf("error %v, want %v containing %q", err, tt.want, tt.in)
			}
		})
	}
	p, err := reports.MergeWith(reports.MergeOptions{AllowPartial: true}, s1, s3)
	if err != nil || len(p.Cases) != 3 || !slices.ContainsFunc(p.Caveats, func(c string) bool { return strings.Contains(c, "shards 2/3 of 3 missing") }) {
		t.Errorf("partial: %v, caveats %q", err, p.Caveats)
	}
	if _, err := reports.MergeWith(reports.MergeOptions{AllowPartial: true}, s1, s1); !errors.Is(err, reports.ErrRepeatedShard) {
		t.Errorf("partial with a repeated shard: %v", err)
	}
}

// Merged shard reports carry the agreement counts and the panels' alpha of
// the whole run: coincidences add up, alpha is computed again.
func TestMergeKeepsAgreement(t *testing.T) {
	a := &proctor.Report{Judges: []proctor.JudgeStats{{Name: "j", Agreed: 3, Disagreed: 1}}, Panels: &proctor.PanelStats{Convened: 2, Paired: 2, Coincidences: [2][2]float64{{2, 1}, {1, 2}}}}
	b := &proctor.Report{Judges: []proctor.JudgeStats{{Name: "j", Agreed: 1, Abstained: 2}}, Panels: &proctor.PanelStats{Convened: 1, Paired: 1, Coincidences: [2][2]float64{{0, 0}, {0, 2}}}}
	m, err := reports.Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if j := m.Judges[0]; j.Agreed != 4 || j.Disagreed != 1 || j.Abstained != 2 {
		t.Errorf("merged judge %+v", j)
	}
	// Krippendorff's nominal alpha of the summed coincidences {{2, 1},
	// {1, 4}}, worked by hand from Krippendorff (2011), "Computing
	// Krippendorff's Alpha-Reliability", eq. for nominal data:
	// n_pass = 3, n_fail = 5, n = 8, sum o_cc = 6,
	// alpha = ((n-1)*6 - (3*2 + 5*4)) / (n*(n-1) - (3*2 + 5*4)) = 16/30.
	coinc := [2][2]float64{{2, 1}, {1, 4}}
	const alpha = 16.0 / 30
	if p := m.Panels; p == nil || p.Convened != 3 || p.Paired != 3 || p.Coincidences != coinc || p.Alpha == nil || math.Abs(*p.Alpha-alpha) > 1e-12 {
		t.Errorf("merged panels %+v, want 3 convened, 3 paired, coincidences %v, alpha %v", p, coinc, alpha)
	}
	if a.Panels.Convened != 2 {
		t.Error("merge changed its input")
	}
}
