package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/reportfmt"
)

// taggedCases are clusteredReport's cases, every one tagged "all" and the
// first six also "first", plus a passed case with no tag and a flaky one
// whose tag is given twice (counted once).
func taggedCases() []proctor.CaseResult {
	cs := clusteredReport().Cases
	for i := range cs {
		cs[i].Tags = []string{"all"}
		if i < 6 {
			cs[i].Tags = append(cs[i].Tags, "first")
		}
	}
	cs[len(cs)-1].Tags = []string{"all", "all"} // the flaky case
	return append(cs, proctor.CaseResult{ID: "untagged", Verdict: proctor.StatusPassed})
}

func taggedSummary() *reportfmt.Summary {
	s := reportfmt.NewSummary("tagged")
	s.GroupBy = reportfmt.GroupByTags
	for _, c := range taggedCases() {
		s.Add(c)
	}
	return s
}

func TestGroupByTags(t *testing.T) {
	s := taggedSummary()
	gs := s.Groups()
	if len(gs) != 3 || gs[0].Group != "" || gs[1].Group != "all" || gs[2].Group != "first" {
		t.Fatalf("groups %+v, want (no tag), all, first", gs)
	}
	if gs[0].Totals != (proctor.Totals{Passed: 1}) || gs[0].ClusteredSE != nil {
		t.Errorf("(no tag): %+v", gs[0])
	}
	if gs[1].Totals != (proctor.Totals{Passed: 7, Failed: 5, Flaky: 1}) {
		t.Errorf("all: %+v, the flaky case counted once", gs[1].Totals)
	}
	// "all" holds the 12 measured cases of metric's hand-verified
	// example: CR1 variance 55/1296, design effect 176/105.
	c := gs[1].ClusteredSE
	if c == nil || math.Abs(c.SE-math.Sqrt(55.0/1296)) > 1e-12 || math.Abs(c.DesignEffect-176.0/105) > 1e-12 {
		t.Errorf("all: clustered %+v", c)
	}
	if gs[2].Totals != (proctor.Totals{Passed: 3, Failed: 3}) || gs[2].ClusteredSE == nil || gs[2].ClusteredSE.Clusters != 2 {
		t.Errorf("first: %+v %+v", gs[2].Totals, gs[2].ClusteredSE)
	}
	if s.Totals.Cases() != 14 {
		t.Errorf("the run still counts each case once: %+v", s.Totals)
	}
}

func TestGroupByTagsFormats(t *testing.T) {
	s := taggedSummary()
	lo, hi := metric.Wilson(7, 12)
	wilson := fmt.Sprintf("%.1f%%-%.1f%%", 100*lo, 100*hi)
	var text, md bytes.Buffer
	_ = reportfmt.WriteText(&text, s, reportfmt.TextOptions{})
	_ = reportfmt.WriteMarkdown(&md, s, reportfmt.MarkdownOptions{})
	for _, want := range []string{"by tags\n", "  (no tag)  passed 1 | failed 0 | flaky 0 | not graded 0   pass rate 100.0% (1 of 1), 95% CI",
		"  all       passed 7 | failed 5 | flaky 1 | not graded 0   pass rate 58.3% (7 of 12), 95% CI " + wilson + ", clustered SE 20.6 points, design effect 1.68"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("terminal lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"#### By tags", "| (no tag) | 1 | 0 | 0 | 0 |", "| all | 7 | 5 | 1 | 0 | 58.3% of 12 (" + wilson + "); clustered SE 20.6 pp, design effect 1.68 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}

	var js bytes.Buffer
	j := reportfmt.NewJSON(&js, "tagged", reportfmt.JSONOptions{})
	for _, c := range taggedCases() {
		_ = j.Add(c)
	}
	if err := j.Finish(s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Groups struct {
			By     string
			Groups []struct {
				Group  string
				Totals proctor.Totals
			}
		}
		Cases []json.RawMessage
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Groups.By != "tags" || len(doc.Groups.Groups) != 3 || doc.Groups.Groups[1].Group != "all" || doc.Groups.Groups[1].Totals.Passed != 7 {
		t.Errorf("JSON groups %+v", doc.Groups)
	}
	if !strings.Contains(string(doc.Cases[0]), `"tags":["all","first"]`) || strings.Contains(string(doc.Cases[13]), `"tags"`) {
		t.Errorf("JSON cases carry their tags, and no key without: %s / %s", doc.Cases[0], doc.Cases[13])
	}

	var scratch, xml bytes.Buffer
	ju := reportfmt.NewJUnit(&xml, "tagged", reportfmt.JUnitOptions{Scratch: &scratch})
	for _, c := range taggedCases() {
		_ = ju.Add(c)
	}
	if err := ju.Finish(s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name="group_by" value="tags"`, `name="group.(no tag).passed" value="1"`,
		`name="group.all.pass_rate" value="0.5833"`, `name="group.all.pass_rate_denominator" value="12"`,
		fmt.Sprintf(`name="group.all.pass_rate_95ci" value="%.4f-%.4f"`, lo, hi),
		fmt.Sprintf(`name="group.all.clustered_se" value="%.4f"`, math.Sqrt(55.0/1296)),
		`name="group.all.design_effect" value="1.6762"`, `name="group.first.failed" value="3"`} {
		if !strings.Contains(xml.String(), want) {
			t.Errorf("JUnit lacks %s:\n%s", want, xml.String())
		}
	}

	var page bytes.Buffer
	h := reportfmt.NewHTML(&page, "tagged", reportfmt.HTMLOptions{})
	for _, c := range taggedCases() {
		_ = h.Add(c)
	}
	if err := h.Finish(s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"group_by":"tags"`, `"name":"(no tag)"`, `"tags":["all","first"]`,
		fmt.Sprintf(`"name":"all","pass_rate":{"rate":%v,"numerator":7,"denominator":12,"low":%v,"high":%v}`, 7.0/12, lo, hi),
		`id: "groups"`, `"chart-groups"`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML lacks %s", want)
		}
	}
}

// A case without tags is written as before: no tags key.
func TestNoTagsNoKey(t *testing.T) {
	b, err := json.Marshal(proctor.CaseResult{ID: "a", Verdict: proctor.StatusPassed, Tags: []string{}})
	if err != nil || strings.Contains(string(b), "tags") {
		t.Errorf("%s %v", b, err)
	}
}
