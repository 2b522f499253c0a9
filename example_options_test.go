package proctor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

// A Compiler lists the spec types it knows and the options each reads, for
// tools that write or check specs (the drift test of docs/spec.md uses it).
func ExampleCompiler_Options() {
	c := proctor.NewCompiler()
	opts, ok := c.Options("regex")
	fmt.Println(opts, ok)
	_, ok = c.Options("regexp")
	fmt.Println(ok)
	// Output:
	// [case_sensitive match pattern] true
	// false
}

// Options are typed by where they apply: the judges and their policy go to
// a Runner and a Compiler alike, while a Runner's own options (its checks,
// subject, suite name) do not compile on a Compiler or a grader. A []Option
// from a config loader joins Runner options as one value, with WithOptions.
func ExampleWithOptions() {
	judges := []proctor.Option{
		proctor.WithJudges(proctor.JudgeModel{Name: "j", Family: "f", Call: passJudge}),
		proctor.WithJudgePolicy(proctor.JudgePolicy{Timeout: time.Second}),
	}
	check, err := proctor.NewLLMJudge("Names the capital of France.", proctor.JudgeOptions{})
	if err != nil {
		panic(err)
	}
	r := proctor.NewRunner(proctor.WithOptions(judges...), proctor.WithChecks(proctor.Check{Grader: check}), proctor.WithSuiteName("capitals"))
	rep, _ := r.Run(context.Background(), []proctor.Case{{ID: "paris", Outputs: []proctor.Sample{{Output: "Paris."}}}})
	fmt.Println(rep.Suite, rep.Totals.Passed, rep.Judges[0].Calls)
	// Output: capitals 1 1
}

func passJudge(context.Context, string) (string, error) {
	return `{"reasoning": "It names Paris.", "verdict": "pass", "confidence": "high"}`, nil
}

// TestOptionRoles: each With function's option applies exactly where its
// doc says, so one given where it has no effect does not compile.
func TestOptionRoles(t *testing.T) {
	runnerOnly := map[string]any{
		"WithChecks": proctor.WithChecks(), "WithSubject": proctor.WithSubject(nil), "WithSuiteName": proctor.WithSuiteName("s"),
		"WithRecordOutputs": proctor.WithRecordOutputs(), "WithResultRedactor": proctor.WithResultRedactor(nil),
	}
	compilerOnly := map[string]any{
		"WithFiles": proctor.WithFiles(nil), "WithSpecTypes": proctor.WithSpecTypes(), "WithEmbedder": proctor.WithEmbedder(nil),
		"WithNetworkAllow": proctor.WithNetworkAllow(), "WithNetworkResolver": proctor.WithNetworkResolver(nil),
		"WithNetworkDialer": proctor.WithNetworkDialer(nil), "WithWebhookSigningKey": proctor.WithWebhookSigningKey(nil),
	}
	both := map[string]any{
		"WithConcurrency": proctor.WithConcurrency(2), "WithJudges": proctor.WithJudges(proctor.JudgeModel{Name: "j", Call: passJudge}),
		"WithJudgePolicy": proctor.WithJudgePolicy(proctor.JudgePolicy{Timeout: time.Second}),
		"WithRedactor":    proctor.WithRedactor(nil), "WithOptions": proctor.WithOptions(),
	}
	check := func(group map[string]any, wantRunner, wantCompiler bool) {
		for name, o := range group {
			_, isRunner := o.(proctor.RunnerOption)
			_, isCompiler := o.(proctor.CompilerOption)
			if isRunner != wantRunner || isCompiler != wantCompiler {
				t.Errorf("%s: a Runner option %v, a Compiler option %v; want %v, %v", name, isRunner, isCompiler, wantRunner, wantCompiler)
			}
		}
	}
	check(runnerOnly, true, false)
	check(compilerOnly, false, true)
	check(both, true, true)
}

// TestJudgePolicyMerges: a later policy replaces only the fields it sets,
// so a config's budget survives the caller's own policy, and same-family
// judging given twice is one caveat.
func TestJudgePolicyMerges(t *testing.T) {
	pool := proctor.NewJudgePool(proctor.JudgeModel{Name: "j", Family: "f", Call: passJudge})
	judge, err := proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check := proctor.Check{Grader: judge}
	r := proctor.NewRunner(pool,
		proctor.WithJudgePolicy(proctor.JudgePolicy{Budget: proctor.JudgeBudget{Calls: 1}, SameFamily: true}),
		proctor.WithJudgePolicy(proctor.JudgePolicy{Timeout: time.Second, SameFamily: true}),
		proctor.WithChecks(check), proctor.WithConcurrency(1))
	rep, err := r.Run(context.Background(), []proctor.Case{
		{ID: "a", Sample: proctor.Sample{Model: proctor.Model{Family: "f"}}, Outputs: []proctor.Sample{{Output: "Paris."}}},
		{ID: "b", Sample: proctor.Sample{Model: proctor.Model{Family: "f"}}, Outputs: []proctor.Sample{{Output: "It is Paris."}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Passed != 1 || rep.Totals.NotGraded != 1 || rep.Judges[0].Calls != 1 {
		t.Errorf("totals %+v, %d calls; want the first policy's one-call budget kept: one passed (by a same-family judge), one not graded", rep.Totals, rep.Judges[0].Calls)
	}
	n := 0
	for _, c := range rep.Caveats {
		if strings.Contains(c, "same-family judging was allowed") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("caveats %q: want the same-family caveat once", rep.Caveats)
	}
}
