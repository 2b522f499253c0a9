package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// All passes when every check passes. It fails at the first failure, and is
// not graded when none failed but one was not graded (a nil grader is not
// graded), or, as the zero All, when it has no checks at all (nothing was
// measured, so nothing passed). Its kind is the
// most demanding of its checks'. Safe for concurrent use if its checks are.
type All struct {
	name   string
	checks []Check
}

// Any passes when at least one check passes; it fails when all failed (or
// it has no checks), and is not graded when none passed and one was not
// graded. Its kind is the most demanding of its checks'. Safe for
// concurrent use if its checks are.
type Any struct {
	name   string
	checks []Check
}

// Not passes when its check fails and fails when it passes; a not-graded
// check stays not graded (not knowing is not the opposite of anything).
type Not struct {
	name  string
	check Check
}

var (
	_ Grader = (*All)(nil)
	_ Grader = (*Any)(nil)
	_ Grader = (*Not)(nil)
)

var (
	_ Grader    = (*All)(nil)
	_ Grader    = (*Any)(nil)
	_ Grader    = (*Not)(nil)
	_ io.Closer = (*All)(nil)
	_ io.Closer = (*Any)(nil)
	_ io.Closer = (*Not)(nil)
)

// Close closes the nested graders that hold resources (see [CloseChecks]).
func (g *All) Close() error { return CloseChecks(g.checks) }

// Close closes the nested graders that hold resources (see [CloseChecks]).
func (g *Any) Close() error { return CloseChecks(g.checks) }

// Close closes the nested grader if it holds resources (see [CloseChecks]).
func (g *Not) Close() error { return CloseChecks([]Check{g.check}) }

// NewAll returns a grader that requires every grader to pass. It returns
// an error when there is no grader: a set of no checks measures nothing.
func NewAll(name string, graders ...Grader) (*All, error) {
	if len(graders) == 0 {
		return nil, errors.New("proctor: all needs at least one grader")
	}
	return &All{name: cmp.Or(name, "all"), checks: toChecks(graders)}, nil
}

// NewAny returns a grader that requires one grader to pass. It returns an
// error when there is no grader.
func NewAny(name string, graders ...Grader) (*Any, error) {
	if len(graders) == 0 {
		return nil, errors.New("proctor: any needs at least one grader")
	}
	return &Any{name: cmp.Or(name, "any"), checks: toChecks(graders)}, nil
}

// NewNot returns a grader that inverts g's pass and fail.
func NewNot(name string, g Grader) *Not {
	return &Not{name: cmp.Or(name, "not"), check: Check{Grader: g}}
}

func toChecks(gs []Grader) []Check {
	cs := make([]Check, len(gs))
	for i, g := range gs {
		cs[i] = Check{Grader: g}
	}
	return cs
}

func maxKind(cs []Check) Kind {
	k := KindDeterministic
	for _, c := range cs {
		k = max(k, kindOrNil(c.Grader))
	}
	return k
}

// Name returns the grader's name.
func (g *All) Name() string { return g.name }

// GraderKind returns the most demanding kind among its checks.
func (g *All) GraderKind() Kind { return maxKind(g.checks) }

// Grade runs the checks in order until one fails.
func (g *All) Grade(ctx context.Context, s *Sample) Grade {
	if len(g.checks) == 0 {
		return NotGraded("no checks to combine")
	}
	var notGraded []string
	for _, c := range g.checks {
		r := c.Grade(ctx, s)
		switch r.Status {
		case StatusFailed:
			return Failf("%s failed: %s", r.Grader, r.Reason)
		case StatusPassed:
		default:
			notGraded = append(notGraded, fmt.Sprintf("%s: %s", r.Grader, r.Reason))
		}
	}
	if len(notGraded) > 0 {
		return NotGraded("not graded: " + strings.Join(notGraded, "; "))
	}
	return Pass("")
}

// Name returns the grader's name.
func (g *Any) Name() string { return g.name }

// GraderKind returns the most demanding kind among its checks.
func (g *Any) GraderKind() Kind { return maxKind(g.checks) }

// Grade runs the checks in order until one passes.
func (g *Any) Grade(ctx context.Context, s *Sample) Grade {
	var reasons []string
	ng := false
	for _, c := range g.checks {
		r := c.Grade(ctx, s)
		if r.Status == StatusPassed {
			return Passf("%s passed", r.Grader)
		}
		if r.Status != StatusFailed {
			ng = true
		}
		reasons = append(reasons, fmt.Sprintf("%s: %s", r.Grader, r.Reason))
	}
	if ng {
		return NotGraded("none passed and some were not graded: " + strings.Join(reasons, "; "))
	}
	return Fail("none passed: " + strings.Join(reasons, "; "))
}

// Name returns the grader's name.
func (g *Not) Name() string { return g.name }

// GraderKind returns its check's kind.
func (g *Not) GraderKind() Kind { return kindOrNil(g.check.Grader) }

// Grade inverts its check's pass and fail.
func (g *Not) Grade(ctx context.Context, s *Sample) Grade {
	r := g.check.Grade(ctx, s)
	switch r.Status {
	case StatusPassed:
		return Failf("%s passed, and it must not", r.Grader)
	case StatusFailed:
		return Passf("%s failed as required: %s", r.Grader, r.Reason)
	}
	return NotGradedf("%s was not graded: %s", r.Grader, r.Reason)
}

// Passf is [Pass] with a format.
func Passf(format string, args ...any) Grade { return Pass(fmt.Sprintf(format, args...)) }

// notSpec builds a not grader from its spec.
func notSpec(o *SpecOptions) (Grader, error) {
	c, ok := o.Check("grader")
	if !ok {
		return nil, o.Err()
	}
	return &Not{name: o.Name(), check: c}, nil
}

// listSpec is the builder of all, or of any when all is not set.
func listSpec(all bool) Builder {
	return func(o *SpecOptions) (Grader, error) {
		cs, _, ok := o.Checks("graders")
		if !ok {
			return nil, o.Err()
		}
		if all {
			return &All{name: o.Name(), checks: cs}, nil
		}
		return &Any{name: o.Name(), checks: cs}, nil
	}
}

// combinatorSpecTypes documents the combinators family's spec types all, any
// and not, for [Compiler.SpecTypes], with their builders.
func combinatorSpecTypes() []SpecType {
	return []SpecType{
		{Name: "all", Build: listSpec(true), Family: "combinators", Summary: "every nested spec passes",
			Options: []SpecOptionDoc{{"graders", "spec array", "(required)", "The nested specs."}},
			Example: `{"type": "all", "graders": [{"type": "json_valid"}, {"type": "contains", "value": "id"}]}`},
		{Name: "any", Build: listSpec(false), Family: "combinators", Summary: "at least one nested spec passes",
			Options: []SpecOptionDoc{{"graders", "spec array", "(required)", "The nested specs."}},
			Example: `{"type": "any", "graders": [{"type": "contains", "value": "refund"}, {"type": "contains", "value": "credit"}]}`},
		{Name: "not", Build: notSpec, Family: "combinators", Summary: "the nested spec fails",
			Options: []SpecOptionDoc{{"grader", "spec", "(required)", "The nested spec."}},
			Example: `{"type": "not", "grader": {"type": "contains", "value": "TODO"}}`},
	}
}
