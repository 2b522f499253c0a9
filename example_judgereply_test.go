package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

// A judge that reports more than its text: thinking apart from the answer,
// the requests it made (one refused, then the fallback) and the
// probability of its verdict token. The probability, below the judge's
// threshold, convenes the panel although the reply says "high".
func ExampleJudgeReply() {
	primary := proctor.JudgeModel{
		Name: "reasoner", Family: "vendor-a", ConfidenceThreshold: 0.8,
		CallWithUsage: func(context.Context, string) (proctor.JudgeReply, error) {
			return proctor.JudgeReply{
				Text:               `{"verdict": "pass", "confidence": "high"}`,
				Reasoning:          "The answer names Paris.",
				Requests:           2,
				VerdictProbability: 0.62,
			}, nil
		},
	}
	panelist := func(name, family string) proctor.JudgeModel {
		return proctor.JudgeModel{Name: name, Family: family, Call: func(context.Context, string) (string, error) {
			return `{"verdict": "pass", "confidence": "high"}`, nil
		}}
	}
	pool := proctor.NewJudgePool(primary, panelist("b", "vendor-b"), panelist("c", "vendor-c"))
	judge, err := proctor.NewLLMJudge("names the capital of France", proctor.JudgeOptions{}, pool)
	if err != nil {
		panic(err)
	}
	g := judge.Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: "Paris"})
	ev := g.Evidence.(*proctor.JudgeEvidence)
	first := ev.Judges[0]
	fmt.Println(g.Status, first.Confidence, *first.VerdictProbability, first.Reasoning)
	fmt.Println(ev.PanelReasons[0])
	fmt.Println(pool.Stats()[0].Calls, "calls,", pool.Stats()[0].Errors, "error")
	// Output:
	// passed low 0.62 The answer names Paris.
	// the first judge's verdict probability 0.620 was below 0.8
	// 2 calls, 1 error
}
