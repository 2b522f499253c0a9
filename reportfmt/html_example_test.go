package reportfmt_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

func ExampleWriteHTML() {
	r := proctor.NewReport("demo")
	r.Add(proctor.CaseResult{ID: "ok", Verdict: proctor.StatusPassed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusPassed}}})
	var page bytes.Buffer
	if err := reportfmt.WriteHTML(&page, r, reportfmt.HTMLOptions{Version: "v1.0.0"}); err != nil {
		fmt.Println(err)
		return
	}
	// One file: the styles, the data and the script that draws it.
	fmt.Println(strings.HasPrefix(page.String(), "<!DOCTYPE html>"), strings.Contains(page.String(), `"id":"ok"`))
	// Output: true true
}

// A run's HTML report is written case by case, as the cases are graded, in
// constant memory; Finish writes the totals from the Summary.
func ExampleNewHTML() {
	var page bytes.Buffer
	h := reportfmt.NewHTML(&page, "demo", reportfmt.HTMLOptions{})
	sum := reportfmt.NewSummary("demo")
	for _, id := range []string{"a", "b"} {
		c := proctor.CaseResult{ID: id, Verdict: proctor.StatusFailed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusFailed}}}
		sum.Add(c)
		if err := h.Add(c); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := h.Finish(sum); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(page.String(), `"totals":{"passed":0,"failed":2`))
	// Output: true
}

func ExampleWriteCompareHTML() {
	base, head := proctor.NewReport("demo"), proctor.NewReport("demo")
	base.Add(proctor.CaseResult{ID: "c1", Verdict: proctor.StatusPassed})
	head.Add(proctor.CaseResult{ID: "c1", Verdict: proctor.StatusFailed})
	c := reports.Compare(base, head)
	var page bytes.Buffer
	if err := reportfmt.WriteCompareHTML(&page, base, head, c, reportfmt.HTMLOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(c.Regressions), strings.Contains(page.String(), `"kind":"compare"`))
	// Output: 1 true
}

// A compare page is written pair by pair: Add takes one case's result in
// each run (nil where a run has no such case), Finish the comparison.
func ExampleNewCompareHTML() {
	base, head := proctor.NewReport("demo"), proctor.NewReport("demo")
	base.Add(proctor.CaseResult{ID: "c1", Verdict: proctor.StatusPassed})
	head.Add(proctor.CaseResult{ID: "c1", Verdict: proctor.StatusFailed})
	head.Add(proctor.CaseResult{ID: "c2", Verdict: proctor.StatusPassed})
	var page bytes.Buffer
	p := reportfmt.NewCompareHTML(&page, "demo", reportfmt.HTMLOptions{})
	if err := p.Add(&base.Cases[0], &head.Cases[0]); err != nil {
		fmt.Println(err)
		return
	}
	if err := p.Add(nil, &head.Cases[1]); err != nil {
		fmt.Println(err)
		return
	}
	if err := p.Finish(base, head, reports.Compare(base, head)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(page.String(), `{"id":"c2","base":null,"head":{"id":"c2"`))
	// Output: true
}
