package proctor_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/judges/openai"
)

// A judge whose endpoint refuses the key ends the run at its first reply:
// Run returns an error naming the judge, instead of one failed call per
// case.
func ExampleJudgeConfigError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"Incorrect API key provided"}}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	chat, err := openai.NewChat(openai.ChatOptions{BaseURL: srv.URL, Model: "m", Structured: openai.StructuredOff})
	if err != nil {
		panic(err)
	}
	judge, err := proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{})
	if err != nil {
		panic(err)
	}
	r := proctor.NewRunner(proctor.WithJudges(chat.JudgeModel("grader", "openai")), proctor.WithConcurrency(1),
		proctor.WithChecks(proctor.Check{Grader: judge}))
	cases := []proctor.Case{{ID: "a", Sample: proctor.Sample{Output: "Paris."}}, {ID: "b", Sample: proctor.Sample{Output: "Rome."}}}
	_, err = r.Run(context.Background(), cases)
	var ce *proctor.JudgeConfigError
	if errors.Is(err, proctor.ErrJudgeMisconfigured) && errors.As(err, &ce) {
		fmt.Println("judge:", ce.Judge, "status:", ce.Status)
	}
	// Output:
	// judge: grader status: 401
}

// A cost that is not known is said to be unknown, never $0.
func ExampleJudgeStats_CostText() {
	for _, s := range []proctor.JudgeStats{
		{Calls: 10, CostUSD: 0.0123},
		{Calls: 10, UnpricedCalls: 10},
		{Calls: 10, UnpricedCalls: 3, CostUSD: 0.01},
	} {
		fmt.Println(s.CostText())
	}
	// Output:
	// $0.0123
	// cost unknown
	// $0.0100 + unknown (3 of 10 calls unpriced)
}

// Three judges of one family can never seat a panel of other families:
// the pool says so, and every report of a Runner using it carries it.
func ExampleJudgePool_Caveats() {
	call := func(context.Context, string) (string, error) { return `{"verdict":"pass","confidence":"high"}`, nil }
	pool := proctor.NewJudgePool(
		proctor.JudgeModel{Name: "a", Family: "openai", Call: call},
		proctor.JudgeModel{Name: "b", Family: "openai", Call: call},
		proctor.JudgeModel{Name: "c", Family: "openai", Call: call})
	for _, c := range pool.Caveats() {
		fmt.Println(c[:strings.Index(c, ":")])
	}
	// Output:
	// judge panel cannot be seated
}

// A huge output is quoted in part: the prompt and the evidence say how
// much of it the judge read.
func ExampleWithJudgeFieldLimit() {
	judge := proctor.JudgeModel{Name: "j", Family: "f", Call: func(context.Context, string) (string, error) {
		return `{"verdict":"pass","confidence":"high"}`, nil
	}}
	g, err := proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}, proctor.NewJudgePool(judge), proctor.WithJudgeFieldLimit(1024))
	if err != nil {
		panic(err)
	}
	got := g.Grade(context.Background(), &proctor.Sample{Output: strings.Repeat("Paris. ", 1000)})
	fmt.Println(got.Evidence.(*proctor.JudgeEvidence).Cut)
	// Output:
	// [output cut to 1024 of 7000 bytes in the judge prompt]
}
