package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

// A multi grader combines named graders with OpenAI's calculate_output
// formula; the formula is parsed once, when the spec is compiled.
func ExampleNewMulti() {
	comp := proctor.NewCompiler()
	check, err := comp.Compile([]byte(`{
		"type": "multi", "name": "answer_quality",
		"graders": {
			"exact": {"type": "exact_match", "expected": "Paris"},
			"mentions": {"type": "contains", "value": "Paris"}
		},
		"calculate_output": "0.7 * exact + 0.3 * mentions",
		"pass_threshold": 0.5
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, out := range []string{"Paris", "It is Paris.", "Lyon"} {
		g := check.Grade(context.Background(), &proctor.Sample{Output: out})
		fmt.Printf("%-13q %s %.1f\n", out, g.Status, g.Score)
	}
	// Output:
	// "Paris"       passed 1.0
	// "It is Paris." failed 0.3
	// "Lyon"        failed 0.0
}

// context_f1 scores what a retriever returned against the relevant items.
func ExampleNewContextF1() {
	g := proctor.MustContextF1(proctor.ContextF1Options{Threshold: proctor.Ptr(0.6)})
	s := &proctor.Sample{
		Context:    []string{"Paris is in France.", "Lyon is big."},
		References: []string{"paris is in  france.", "Nice is sunny."},
	}
	gr := g.Grade(context.Background(), s)
	ev := gr.Evidence.(proctor.ContextF1Evidence)
	fmt.Println(gr.Status, ev.Precision, ev.Recall, ev.F1)
	// Output: failed 0.5 0.5 0.5
}
