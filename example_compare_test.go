package proctor_test

import (
	"fmt"

	"github.com/proctorhq/proctor"
)

// Two runs of one suite: the head run breaks ten cases that passed and fixes
// two that failed. McNemar's exact test says whether that is more than
// chance.
func ExampleCompareReports() {
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
	c := proctor.CompareReports(base, head)
	fmt.Printf("%d regressions, %d fixes, first regression %s\n", len(c.Regressions), len(c.Fixes), c.Regressions[0].ID)
	fmt.Printf("McNemar exact p = %.4f\n", c.PValue)
	// Output:
	// 10 regressions, 2 fixes, first regression case-00
	// McNemar exact p = 0.0386
}

// The reports of two shards add up to the report of the whole run.
func ExampleMergeReports() {
	a, b := proctor.NewReport("s"), proctor.NewReport("s")
	a.Add(proctor.CaseResult{ID: "b", Verdict: proctor.StatusPassed})
	b.Add(proctor.CaseResult{ID: "a", Verdict: proctor.StatusFlaky})
	b.Add(proctor.CaseResult{ID: "c", Verdict: proctor.StatusFailed})
	m, err := proctor.MergeReports(a, b)
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
