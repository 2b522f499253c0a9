package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// A custom Judge is any function from a prompt to a reply. This one stands
// in for a model client: it reads the answer the prompt quotes and passes it
// when it names Paris. A real one would call a model at temperature 0.
func Example_customJudge() {
	judge := func(_ context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "Paris") {
			return `{"criterion": "names Paris", "violations": "none", "basis": "answer", "verdict": "pass", "confidence": "high"}`, nil
		}
		return `{"criterion": "names Paris", "violations": "names another city", "basis": "answer", "verdict": "fail", "confidence": "high"}`, nil
	}
	judges := proctor.WithJudges(proctor.JudgeModel{Name: "j1", Family: "acme", Model: "acme-judge-1", Call: judge})
	g, err := proctor.NewLLMJudge("The answer names the capital of France.", proctor.JudgeOptions{}, judges)
	if err != nil {
		panic(err)
	}

	for _, out := range []string{"Paris.", "Lyon."} {
		gr := g.Grade(context.Background(), &proctor.Sample{Input: "What is the capital of France?", Output: out})
		fmt.Println(out, gr.Status, "-", gr.Reason)
	}
	// Output:
	// Paris. passed - judge j1: pass, high confidence
	// Lyon. failed - judge j1: fail, high confidence: names another city
}
