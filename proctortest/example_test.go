package proctortest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/proctortest"
)

// firstLetter is a custom grader with a bug: it reads the output's first
// byte without checking that there is one.
type firstLetter struct{}

func (firstLetter) Name() string { return "first_letter" }

func (firstLetter) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	if s.Output[0] == 'P' {
		return proctor.Pass("starts with P")
	}
	return proctor.Fail("does not start with P")
}

// TestGrader checks a grader against the contract every proctor.Grader
// keeps: a built-in grader keeps it, and the buggy one above panics on an
// empty output. A test calls it as
// `if err := proctortest.TestGrader(g); err != nil { t.Fatal(err) }`.
func ExampleTestGrader() {
	fmt.Println(proctortest.TestGrader(proctor.MustRegex(`Paris\b.*`, proctor.RegexOptions{})))

	err := proctortest.TestGrader(firstLetter{})
	// Each violation starts with the grader's and the rule's names; a
	// panic's stack follows on the next lines.
	for line := range strings.Lines(err.Error()) {
		if strings.HasPrefix(line, "first_letter: ") {
			fmt.Print(line)
		}
	}
	// Output:
	// <nil>
	// first_letter: EmptyOutput: empty output: panicked: runtime error: index out of range [0] with length 0
	// first_letter: ZeroSample: zero Sample: panicked: runtime error: index out of range [0] with length 0
}
