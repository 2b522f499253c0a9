package suite

import (
	"slices"

	"github.com/proctorhq/proctor"
)

// Hides reports whether the suite keeps the outputs of the named split out
// of reports (its redact_splits list names it).
func (s *Suite) Hides(split string) bool {
	return split != "" && slices.Contains(s.redact, split)
}

// Redact returns c as a report may show it. For a case of a split the
// suite's redact_splits names (a holdout set), every text that could quote
// the output is replaced: each non-empty grade reason and subject error
// reads "hidden: SPLIT case"; judge evidence, the recorded input,
// expected answer and outputs are dropped. The case id, verdicts, grader names, statuses, scores, skipped
// check names and caveats are kept, so totals and comparisons still work.
// Other cases are returned as they are. c is not modified.
func (s *Suite) Redact(c proctor.CaseResult) proctor.CaseResult {
	if !s.Hides(c.Split) {
		return c
	}
	hidden := "hidden: " + c.Split + " case"
	c.Input, c.Expected = "", nil
	atts := make([]proctor.AttemptResult, len(c.Attempts))
	for i, a := range c.Attempts {
		a.Output = nil
		if a.Error != "" {
			a.Error = hidden
		}
		grades := make([]proctor.Grade, len(a.Grades))
		for j, g := range a.Grades {
			if g.Reason != "" {
				g.Reason = hidden
			}
			g.Evidence, g.Err = nil, nil
			grades[j] = g
		}
		a.Grades = grades
		atts[i] = a
	}
	c.Attempts = atts
	return c
}
