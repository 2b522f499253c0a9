package proctor_test

import (
	"fmt"

	"github.com/proctorhq/proctor"
)

// CaseVerdict combines attempts: flaky when some passed and some failed;
// attempts that could not be graded are left out, never counted as passes
// or failures.
func ExampleCaseVerdict() {
	P, F, N := proctor.StatusPassed, proctor.StatusFailed, proctor.StatusNotGraded
	fmt.Println(proctor.CaseVerdict([]proctor.Status{P, P, P}))
	fmt.Println(proctor.CaseVerdict([]proctor.Status{P, F, P}))
	fmt.Println(proctor.CaseVerdict([]proctor.Status{N, F}))
	fmt.Println(proctor.CaseVerdict([]proctor.Status{N, N}))
	// Output:
	// passed
	// flaky
	// failed
	// not_graded
}
