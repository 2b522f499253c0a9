package reportfmt_test

import (
	"fmt"
	"io"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// A caller streaming cases into a page asks EmbedsPassed before decoding
// a passed case: once the page's budget is spent, the charts need only
// the grades' graders, statuses and scores.
func ExampleHTML_EmbedsPassed() {
	h := reportfmt.NewHTML(io.Discard, "demo", reportfmt.HTMLOptions{MaxBytes: 1})
	fmt.Println(h.EmbedsPassed())
	passed := proctor.CaseResult{ID: "c1", Verdict: proctor.StatusPassed,
		Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusPassed, Grades: []proctor.Grade{{Grader: "contains", Status: proctor.StatusPassed}}}}}
	if err := h.Add(passed); err != nil {
		fmt.Println(err)
	}
	fmt.Println(h.EmbedsPassed())
	// Output:
	// true
	// false
}
