package htmltest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/reportfmt"
)

// The page draws the group_by breakdown: with group_by: tags, one chart bar
// and one table row per tag, each with its pass rate and Wilson interval,
// and a case's tags in its view.
func TestBrowserGroupsByTag(t *testing.T) {
	cases := []proctor.CaseResult{
		{ID: "a", Verdict: proctor.StatusPassed, Tags: []string{"billing", "refunds"}},
		{ID: "b", Verdict: proctor.StatusFailed, Tags: []string{"billing"}},
		{ID: "c", Verdict: proctor.StatusPassed, Tags: []string{"billing"}},
		{ID: "d", Verdict: proctor.StatusPassed},
	}
	path := writeFile(t, "groups.html", func(b *bytes.Buffer) error {
		s := reportfmt.NewSummary("tagged")
		s.GroupBy = reportfmt.GroupByTags
		h := reportfmt.NewHTML(b, "tagged", opts)
		for _, c := range cases {
			s.Add(c)
			if err := h.Add(c); err != nil {
				return err
			}
		}
		return h.Finish(s)
	})
	p := open(t, path)
	defer p.check()
	if got := p.text("#chart-groups h3"); got != "Verdicts by tags" {
		t.Errorf("chart title %q", got)
	}
	rows := eval[[]string](p, `Array.from(document.querySelectorAll("#groups tbody tr")).map(function (r) { return r.textContent; })`)
	lo, hi := metric.Wilson(2, 3)
	want := []string{"(no tag)", "billing", "refunds"}
	if len(rows) != 3 {
		t.Fatalf("rows %q", rows)
	}
	for i, w := range want {
		if !strings.HasPrefix(rows[i], w) {
			t.Errorf("row %d = %q, want it to name %q", i, rows[i], w)
		}
	}
	if w := fmt.Sprintf("66.7%%%.1f%%–%.1f%%", 100*lo, 100*hi); !strings.Contains(rows[1], w) {
		t.Errorf("billing row %q lacks %q", rows[1], w)
	}
	p2 := openAt(t, path, "case=a")
	defer p2.check()
	if got := p2.text("#case-view"); !strings.Contains(got, "billing, refunds") {
		t.Errorf("case view %q lacks its tags", got)
	}
}
