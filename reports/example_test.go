package reports_test

import (
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reports"
)

// Two runs of one suite: the head run breaks ten cases that passed and fixes
// two that failed. McNemar's exact test says whether that is more than
// chance.
func ExampleCompare() {
	base, head := proctor.NewReport("support-bot"), proctor.NewReport("support-bot")
	for i := range 40 {
		id := fmt.Sprintf("case-%02d", i)
		bv, hv := proctor.StatusPassed, proctor.StatusPassed
		switch {
		case i < 10:
			hv = proctor.StatusFailed
		case i < 12:
			bv = proctor.StatusFailed
		}
		base.Add(proctor.CaseResult{ID: id, Verdict: bv})
		head.Add(proctor.CaseResult{ID: id, Verdict: hv})
	}
	c := reports.Compare(base, head)
	fmt.Printf("%d regressions, %d fixes, first regression %s\n", len(c.Regressions), len(c.Fixes), c.Regressions[0].ID)
	fmt.Printf("McNemar exact p = %.4f\n", c.PValue)
	// Output:
	// 10 regressions, 2 fixes, first regression case-00
	// McNemar exact p = 0.0386
}

// 400 cases, 6 broken and 4 fixed by head, compared with a
// non-inferiority margin of 2 points: the paired difference with its 95%
// interval, whether head is no worse by more than the margin, and the
// smallest difference these runs could detect.
func ExampleCompareWith() {
	base, head := proctor.NewReport("support-bot"), proctor.NewReport("support-bot")
	for i := range 400 {
		id := fmt.Sprintf("case-%03d", i)
		bv, hv := proctor.StatusPassed, proctor.StatusPassed
		switch {
		case i < 6:
			hv = proctor.StatusFailed
		case i < 10:
			bv = proctor.StatusFailed
		case i < 60:
			bv, hv = proctor.StatusFailed, proctor.StatusFailed
		}
		base.Add(proctor.CaseResult{ID: id, Verdict: bv})
		head.Add(proctor.CaseResult{ID: id, Verdict: hv})
	}
	c, err := reports.CompareWith(base, head, reports.CompareOptions{Margin: 0.02})
	if err != nil {
		fmt.Println(err)
		return
	}
	d := c.Difference
	fmt.Printf("difference %+.3f [%+.3f, %+.3f], McNemar p %.3f\n", d.Estimate, d.Low, d.High, c.MCNemarP)
	fmt.Printf("non-inferior at 2 points: %v (lower bound %+.4f)\n", c.NonInferior.NonInferior, c.NonInferior.Low)
	if m := c.MDE; m.Value != nil {
		fmt.Printf("minimum detectable difference: %.3f (%d pairs, %.1f%% discordant)\n", *m.Value, m.N, 100*m.Discordance)
	}
	// Output:
	// difference -0.005 [-0.023, +0.012], McNemar p 0.754
	// non-inferior at 2 points: true (lower bound -0.0196)
	// minimum detectable difference: 0.022 (400 pairs, 2.5% discordant)
}

// The reports of two shards add up to the report of the whole run.
func ExampleMerge() {
	a, b := proctor.NewReport("s"), proctor.NewReport("s")
	a.Add(proctor.CaseResult{ID: "b", Verdict: proctor.StatusPassed})
	b.Add(proctor.CaseResult{ID: "a", Verdict: proctor.StatusFlaky})
	b.Add(proctor.CaseResult{ID: "c", Verdict: proctor.StatusFailed})
	m, err := reports.Merge(a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", m.Totals)
	for _, c := range m.Cases {
		fmt.Println(c.ID, c.Verdict)
	}
	// Output:
	// {Passed:1 Failed:1 Flaky:1 NotGraded:0 FlakyGatePassed:0 AttemptsSaved:0}
	// b passed
	// a flaky
	// c failed
}
