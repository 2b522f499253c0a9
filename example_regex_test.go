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

// Patterns pasted from Python or PCRE evals work as written: Python's
// (?P=name), conditionals and possessive quantifiers run on the
// backtracking engine; a construct neither engine has is an error that
// names it.
func ExampleNewRegex_pythonPattern() {
	quoted := proctor.MustRegex(`(?P<q>['"]).*(?P=q)`, proctor.RegexOptions{})
	tag := proctor.MustRegex(`(<)?\w+(?(1)>)`, proctor.RegexOptions{})
	for _, out := range []string{`'closed'`, `'mixed"`, "<b>", "<b"} {
		s := &proctor.Sample{Output: out}
		fmt.Println(out, quoted.Grade(context.Background(), s).Status, tag.Grade(context.Background(), s).Status)
	}
	_, err := proctor.NewRegex(`(a)(?1)`, proctor.RegexOptions{})
	fmt.Println(err)
	// Output:
	// 'closed' passed failed
	// 'mixed" failed failed
	// <b> failed passed
	// <b failed failed
	// proctor: regex: pattern "(a)(?1)": unsupported construct: `(?1)` (recursion and branch reset need a PCRE engine)
}
