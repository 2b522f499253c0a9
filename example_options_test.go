package proctor_test

import (
	"context"
	"fmt"
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
		proctor.WithJudgeTimeout(time.Second),
	}
	check := proctor.NewLLMJudge("Names the capital of France.", proctor.JudgeOptions{})
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
		"WithJudgeBudget": proctor.WithJudgeBudget(proctor.JudgeBudget{}), "WithJudgeTimeout": proctor.WithJudgeTimeout(time.Second),
		"WithRedactor": proctor.WithRedactor(nil), "WithOptions": proctor.WithOptions(),
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
