package similarity_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

// context_f1 scores what a retriever returned against the relevant items.
func ExampleNewContextF1() {
	g, err := similarity.NewContextF1(similarity.ContextF1Options{Threshold: proctor.Ptr(0.6)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{
		Context:    []string{"Paris is in France.", "Lyon is big."},
		References: []string{"paris is in  france.", "Nice is sunny."},
	}
	gr := g.Grade(context.Background(), s)
	ev := gr.Evidence.(similarity.ContextF1Evidence)
	fmt.Println(gr.Status, ev.Precision, ev.Recall, ev.F1)
	// Output: failed 0.5 0.5 0.5
}
