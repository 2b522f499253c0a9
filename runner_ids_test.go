package proctor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// TestRunnerRefusesCaseIDs: Run refuses an empty or repeated case id
// before grading anything, as the suite loader does.
func TestRunnerRefusesCaseIDs(t *testing.T) {
	check := proctor.Check{Grader: proctor.MustRegex("x", proctor.RegexOptions{})}
	c := func(id string) proctor.Case {
		return proctor.Case{ID: id, Outputs: []proctor.Sample{{Output: "x"}}, Checks: []proctor.Check{check}}
	}
	r := proctor.NewRunner()
	for _, tt := range []struct {
		name  string
		cases []proctor.Case
		want  string
	}{
		{"empty", []proctor.Case{c("a"), c("")}, "case #2 has no id"},
		{"duplicate", []proctor.Case{c("a"), c("b"), c("a")}, `cases #1 and #3 have the same id "a"`},
	} {
		rep, err := r.Run(context.Background(), tt.cases)
		if !errors.Is(err, proctor.ErrCaseID) || !strings.Contains(err.Error(), tt.want) || rep != nil {
			t.Errorf("%s: %v (report %v), want ErrCaseID saying %q", tt.name, err, rep, tt.want)
		}
	}
	rep, err := r.Run(context.Background(), []proctor.Case{c("a"), c("b")})
	if err != nil || rep.Totals.Passed != 2 {
		t.Errorf("distinct ids: %v %+v", err, rep)
	}
}

// TestRunnerSuiteName: WithSuiteName names the reports of Run and Finish.
func TestRunnerSuiteName(t *testing.T) {
	r := proctor.NewRunner(proctor.WithSuiteName("smoke"))
	rep, err := r.Run(context.Background(), nil)
	if err != nil || rep.Suite != "smoke" {
		t.Errorf("Run: %v, suite %q", err, rep.Suite)
	}
	own := proctor.NewReport("")
	r.Finish(own)
	named := proctor.NewReport("mine")
	r.Finish(named)
	if own.Suite != "smoke" || named.Suite != "mine" {
		t.Errorf("Finish: %q, %q; want smoke, mine", own.Suite, named.Suite)
	}
}

func ExampleWithSuiteName() {
	r := proctor.NewRunner(proctor.WithSuiteName("smoke"),
		proctor.WithChecks(proctor.Check{Grader: proctor.MustRegex(`\d+`, proctor.RegexOptions{})}))
	rep, _ := r.Run(context.Background(), []proctor.Case{{ID: "digits", Outputs: []proctor.Sample{{Output: "42"}}}})
	fmt.Println(rep.Suite, rep.Totals.Passed)
	// Output: smoke 1
}
