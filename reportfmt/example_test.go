package reportfmt_test

import (
	"fmt"
	"os"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

func ExampleWriteText() {
	r := proctor.NewReport("demo")
	r.Add(proctor.CaseResult{ID: "ok", Verdict: proctor.StatusPassed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusPassed}}})
	r.Add(proctor.CaseResult{ID: "unsure", Verdict: proctor.StatusNotGraded, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusNotGraded,
		Grades: []proctor.Grade{{Grader: "exact_match", Status: proctor.StatusNotGraded, Reason: "no expected value"}}}}})
	reportfmt.WriteText(os.Stdout, reportfmt.Summarize(r), reportfmt.TextOptions{})
	// Output:
	// suite demo: 2 cases
	//
	//   CASE    VERDICT     ATTEMPTS  REASON
	//   ok      passed      1/1
	//   unsure  not graded  0/1       exact_match: no expected value
	//
	// passed 1 | failed 0 | flaky 0 | not graded 1   (2 cases)
	// pass rate   100.0%  = 1 of 1 passed or failed; 95% CI 20.7%-100.0% (Wilson)
	// flaky rate  0.0%  = 0 of 1 measured case
	// not graded  1 case, left out of the pass rate:
	//       1  exact_match: no expected value
	// judges      none
	// caveats     none
}

func ExampleSummary_Splits() {
	s := reportfmt.NewSummary("demo")
	for _, c := range []proctor.CaseResult{
		{ID: "d1", Split: "dev", Verdict: proctor.StatusPassed},
		{ID: "d2", Split: "dev", Verdict: proctor.StatusPassed},
		{ID: "h1", Split: "holdout", Verdict: proctor.StatusPassed},
		{ID: "h2", Split: "holdout", Verdict: proctor.StatusFailed},
	} {
		s.Add(c)
	}
	// Development cases pass more often than held-out ones: a sign the
	// prompt was tuned to the cases it was tried on.
	for _, sp := range s.Splits() {
		rate, d, _ := sp.Totals.PassRate()
		fmt.Printf("%-8s %.0f%% of %d\n", sp.Split, 100*rate, d)
	}
	// Output:
	// dev      100% of 2
	// holdout  50% of 2
}
