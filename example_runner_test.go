package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

// A Runner grades cases with recorded outputs: one case passes, one fails
// its required check (so the check after it is skipped), one is flaky over
// three attempts and one cannot be graded because it has no expected value.
func ExampleRunner_Run() {
	exact := proctor.Check{Grader: proctor.NewExactMatch(proctor.ExactMatchOptions{})}
	steps := proctor.Check{Grader: proctor.NewStartsWith("1.", proctor.AffixOptions{}), Required: true}
	settings, err := proctor.NewContains([]string{"Settings"}, proctor.ContainsOptions{})
	if err != nil {
		panic(err)
	}
	mentions := proctor.Check{Grader: settings}
	out := func(ss ...string) (samples []proctor.Sample) {
		for _, s := range ss {
			samples = append(samples, proctor.Sample{Output: s})
		}
		return samples
	}
	cases := []proctor.Case{
		{ID: "capital", Sample: proctor.Sample{Expected: proctor.Ptr("Paris")}, Outputs: out("paris"), Checks: []proctor.Check{exact}},
		{ID: "steps", Outputs: out("Go to Settings."), Checks: []proctor.Check{steps, mentions}},
		{ID: "flaky", Sample: proctor.Sample{Expected: proctor.Ptr("4")}, Outputs: out("4", "5", "4"), Checks: []proctor.Check{exact}},
		{ID: "no-expected", Outputs: out("hello"), Checks: []proctor.Check{exact}},
	}
	rep, err := proctor.NewRunner(proctor.WithConcurrency(2)).Run(context.Background(), cases)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Cases {
		fmt.Printf("%-12s %-10s attempts=%d skipped=%v\n", c.ID, c.Verdict, len(c.Attempts), c.Attempts[0].Skipped)
	}
	rate, den, _ := rep.PassRate()
	fmt.Printf("pass rate %.2f of %d; flaky %d, not graded %d\n", rate, den, rep.Totals.Flaky, rep.Totals.NotGraded)
	// Output:
	// capital      passed     attempts=1 skipped=[]
	// steps        failed     attempts=1 skipped=[contains]
	// flaky        flaky      attempts=3 skipped=[]
	// no-expected  not_graded attempts=1 skipped=[]
	// pass rate 0.50 of 2; flaky 1, not graded 1
}
