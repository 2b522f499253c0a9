package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

func ExampleNewChoice() {
	g, err := proctor.NewChoice(proctor.ChoiceOptions{Expected: "B"})
	if err != nil {
		panic(err)
	}
	for _, out := range []string{
		"After weighing the options, the answer is **B**.",
		"A good choice is B.",
		"It could be A or it could be C.",
	} {
		r := g.Grade(context.Background(), &proctor.Sample{Output: out})
		fmt.Printf("%s: %s\n", r.Status, r.Reason)
	}
	// Output:
	// passed: chose B
	// passed: chose B
	// failed: the output names several different letters: A, C
}

func ExampleNewNumeric() {
	g, err := proctor.NewNumeric(proctor.NumericOptions{Expected: proctor.Ptr(1234.5), AbsTol: 0.01})
	if err != nil {
		panic(err)
	}
	r := g.Grade(context.Background(), &proctor.Sample{Output: "The total comes to $1,234.50."})
	fmt.Println(r.Status)
	// Output: passed
}

func ExampleNewRefused() {
	g := proctor.NewRefused(proctor.RefusedOptions{})
	for _, out := range []string{
		"I'm sorry, but I can't help with that request.",
		`The model replied "I can't help with that".`,
	} {
		fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: out}).Status)
	}
	// Output:
	// passed
	// failed
}

func ExampleParseTemplate() {
	t, err := proctor.ParseTemplate("Q: {{input}} / want { {item.answer} } / got {{ sample.output_text }}")
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Input: "6*7?", Output: "42", Item: map[string]any{"answer": "42"}}
	out, err := t.Render(s)
	fmt.Println(out, err)
	// Output: Q: 6*7? / want 42 / got 42 <nil>
}
