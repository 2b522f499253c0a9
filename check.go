package proctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Severity is how much a wrong verdict on a check or case costs. High and
// critical severity make a judge's verdict go to a panel. The zero value
// means unset: a check inherits its case's severity, a case is medium.
type Severity uint8

const (
	// SeverityUnset is the zero value: a check takes its case's severity,
	// a case counts as medium.
	SeverityUnset Severity = iota
	// SeverityLow marks checks whose wrong verdict costs little.
	SeverityLow
	// SeverityMedium is the default for a case.
	SeverityMedium
	// SeverityHigh sends a judge's verdict to a panel.
	SeverityHigh
	// SeverityCritical sends a judge's verdict to a panel.
	SeverityCritical
)

var severityNames = [...]string{"", "low", "medium", "high", "critical"}

// String returns "low", "medium", "high", "critical", or "" when unset.
func (v Severity) String() string {
	if int(v) < len(severityNames) {
		return severityNames[v]
	}
	return fmt.Sprintf("severity_%d", uint8(v))
}

// MarshalText encodes v as its [Severity.String] word ("" when unset). It
// fails for a value outside the five.
func (v Severity) MarshalText() ([]byte, error) {
	if int(v) >= len(severityNames) {
		return nil, fmt.Errorf("proctor: invalid severity %d", uint8(v))
	}
	return []byte(severityNames[v]), nil
}

// UnmarshalText decodes "low", "medium", "high" or "critical" ("" is unset).
func (v *Severity) UnmarshalText(b []byte) error {
	for i, n := range severityNames {
		if n == string(b) {
			*v = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("proctor: unknown severity %q (want low, medium, high or critical)", b)
}

// AtLeast reports whether v is at least w.
func (v Severity) AtLeast(w Severity) bool { return v >= w }

// Check is a grader as a case uses it: the grader plus whether it is
// required, the criterion it reads and its severity. The zero value has no
// grader and grades as not graded.
type Check struct {
	// Grader grades the sample.
	Grader Grader
	// Required checks end the attempt when they fail or are not graded: no
	// later check (and no judge) runs.
	Required bool
	// Criterion links checks that read the same property, so that a judge
	// disagreeing with a deterministic check on it goes to a panel.
	Criterion string
	// Severity overrides the case's severity for this check.
	Severity Severity
}

// Name returns the grader's name.
func (c Check) Name() string {
	if c.Grader == nil {
		return "<nil>"
	}
	return c.Grader.Name()
}

// Grade runs the check's grader on s and makes the result safe to report: a
// panic becomes [StatusNotGraded] with the panic value and a trimmed stack,
// an out-of-range status becomes not graded, and an empty Grader field is
// filled with the grader's name. A nil grader is not graded.
func (c Check) Grade(ctx context.Context, s *Sample) (g Grade) {
	if c.Grader == nil {
		return NotGraded("no grader")
	}
	name := c.Grader.Name()
	defer func() {
		if v := recover(); v != nil {
			g = NotGradedf("grader panicked: %v\n%s", v, trimStack(debug.Stack()))
			g.Grader = name
		}
	}()
	if err := ctx.Err(); err != nil {
		g = ErrorGrade("not run", err)
		g.Grader = name
		return g
	}
	g = c.Grader.Grade(ctx, s)
	if g.Status > StatusFailed {
		g = NotGradedf("grader returned status %v, which is not a grade for one attempt", g.Status)
	}
	if g.Grader == "" {
		g.Grader = name
	}
	return g
}

// trimStack keeps the frames below the recover machinery, at most 8 lines.
func trimStack(st []byte) string {
	lines := strings.Split(string(st), "\n")
	// Drop the goroutine header and the frames of debug.Stack and the
	// deferred func, then find the panic frame.
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			lines = lines[i+2:]
			break
		}
	}
	if len(lines) > 8 {
		lines = lines[:8]
	}
	return strings.Join(lines, "\n")
}

// CloseChecks closes the graders of checks that implement io.Closer
// ([Python] holds worker processes, [Multi] closes its sub-graders) and
// returns their errors joined. Callers of [Compiler.Compile] should call it
// on the checks they compiled once they are done grading; graders without
// resources are left alone.
func CloseChecks(checks []Check) error {
	var errs []error
	for _, c := range checks {
		if cl, ok := c.Grader.(io.Closer); ok {
			errs = append(errs, cl.Close())
		}
	}
	return errors.Join(errs...)
}
