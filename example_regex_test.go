package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

// A regex grader matches the whole trimmed output by default; a not_regex
// grader searches and passes when nothing matches.
func ExampleNewRegex() {
	answer := proctor.MustRegex(`[\s\S]*\nFinal answer: \d+`, proctor.RegexOptions{})
	noKeys := proctor.MustNotRegex(`sk-[A-Za-z0-9]{20,}`, proctor.RegexOptions{})

	for _, out := range []string{
		"Adding the two gives seven.\nFinal answer: 7",
		"I think it is seven.",
	} {
		s := &proctor.Sample{Output: out}
		fmt.Println(answer.Grade(context.Background(), s).Status, noKeys.Grade(context.Background(), s).Status)
	}
	// Output:
	// passed passed
	// failed passed
}

// Patterns that need lookaround or backreferences run on a backtracking
// engine with a 250 ms budget per match; everything else is RE2.
func ExampleNewRegex_backreference() {
	repeated, err := proctor.NewRegex(`(\w+) \1`, proctor.RegexOptions{Match: proctor.MatchSearch})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := repeated.Grade(context.Background(), &proctor.Sample{Output: "it is is fine"})
	fmt.Println(g.Status)
	// Output:
	// passed
}
