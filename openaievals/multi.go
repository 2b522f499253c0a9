package openaievals

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/formula"
	"github.com/proctorhq/proctor/internal/kit"
)

// Multi is OpenAI's multi grader: it grades the sample with each of its
// named sub-graders, computes a score from their scores with a formula
// (calculate_output) and passes when the score is at least the threshold.
//
// A sub-grader's score is its [proctor.Grade.Score] when it has one, else 1 when it
// passed and 0 when it failed. The formula is the small arithmetic language
// of [NewMulti]; it is parsed once, when the grader is built.
//
// Multi is not graded when any sub-grader is not graded, when the formula
// divides by zero or calls a function outside its domain (sqrt of a
// negative, log of a number <= 0), or when its value is not finite. A value
// outside [0, 1] is clamped before it is compared. The evidence
// ([MultiEvidence]) holds every sub-score and the formula's value.
//
// A Multi is immutable and safe for concurrent use when its sub-graders
// are. Its kind is the most demanding of its sub-graders' kinds, and
// [Multi.Close] closes the sub-graders that hold resources.
type Multi struct {
	name      string
	checks    []proctor.Check
	keys      []string
	expr      *formula.Expr
	threshold float64
}

var _ proctor.Grader = (*Multi)(nil)

// MultiOptions configure [NewMulti]. The zero value passes at 0.5.
type MultiOptions struct {
	// PassThreshold is the least passing score; nil means 0.5.
	PassThreshold *float64
	// Name is shown in results; default "multi".
	Name string
}

// MultiEvidence is the evidence of a [Multi] grade.
type MultiEvidence struct {
	// Scores maps each sub-grader's name to the score the formula read.
	Scores map[string]float64 `json:"scores"`
	// Value is the formula's value before clamping to [0, 1].
	Value float64 `json:"value"`
	// Formula is the formula as parsed (fully parenthesised).
	Formula string `json:"formula"`
}

var (
	_ proctor.Grader = (*Multi)(nil)
	_ io.Closer      = (*Multi)(nil)
)

// NewMulti returns a multi grader over graders, each referred to in the
// formula by its Name. Names must be distinct.
//
// The formula language is OpenAI's: numbers, the names, + - * /, ^ (power,
// right-associative; -2^2 is -4), unary minus, parentheses, min and max
// (one or more arguments), abs, floor, ceil, exp, sqrt and log (natural).
// Anything else (another name, a string, attribute access, Python's **) is
// an error, as is a formula that names no grader.
func NewMulti(calculateOutput string, graders []proctor.Grader, opts MultiOptions) (*Multi, error) {
	checks := make([]proctor.Check, len(graders))
	keys := make([]string, len(graders))
	for i, g := range graders {
		if g == nil {
			return nil, refuse("multi: grader %d is nil", i)
		}
		checks[i], keys[i] = proctor.Check{Grader: g}, g.Name()
	}
	return newMulti(calculateOutput, checks, keys, opts)
}

// MustMulti is [NewMulti] that panics on error, for package-level variables.
func MustMulti(calculateOutput string, graders []proctor.Grader, opts MultiOptions) *Multi {
	g, err := NewMulti(calculateOutput, graders, opts)
	if err != nil {
		panic(kit.MustFailed("openaievals.MustMulti", calculateOutput, err))
	}
	return g
}

// errMulti marks the errors of newMulti by the option they concern.
type multiError struct {
	option string
	err    error
}

func (e *multiError) Error() string { return "openaievals: multi: " + e.option + ": " + e.err.Error() }
func (e *multiError) Unwrap() error { return e.err }

func newMulti(calc string, checks []proctor.Check, keys []string, opts MultiOptions) (*Multi, error) {
	if len(checks) == 0 {
		return nil, &multiError{"graders", errors.New("needs at least one grader")}
	}
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			return nil, &multiError{"graders", fmt.Errorf("two graders are named %q", k)}
		}
		seen[k] = true
	}
	th := 0.5
	if opts.PassThreshold != nil {
		th = *opts.PassThreshold
		if !(th >= 0 && th <= 1) {
			return nil, &multiError{"pass_threshold", fmt.Errorf("%v outside [0, 1]", th)}
		}
	}
	if strings.TrimSpace(calc) == "" {
		return nil, &multiError{"calculate_output", errors.New("empty formula")}
	}
	expr, err := formula.Parse(calc, keys)
	if err != nil {
		return nil, &multiError{"calculate_output", err}
	}
	return &Multi{name: cmp.Or(opts.Name, "multi"), checks: checks, keys: keys, expr: expr, threshold: th}, nil
}

// Name returns the grader's name.
func (g *Multi) Name() string { return g.name }

// GraderKind returns the most demanding kind among its sub-graders.
func (g *Multi) GraderKind() proctor.Kind {
	k := proctor.KindDeterministic
	for _, c := range g.checks {
		k = max(k, proctor.KindOf(c.Grader))
	}
	return k
}

// Grade runs every sub-grader, then the formula.
func (g *Multi) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	vals := make([]float64, len(g.checks))
	var notGraded []string
	var caveats []string
	for i, c := range g.checks {
		r := c.Grade(ctx, s)
		caveats = append(caveats, r.Caveats...)
		switch {
		case r.Status != proctor.StatusPassed && r.Status != proctor.StatusFailed:
			notGraded = append(notGraded, fmt.Sprintf("%s: %s", g.keys[i], r.Reason))
		case r.HasScore:
			vals[i] = r.Score
		case r.Status == proctor.StatusPassed:
			vals[i] = 1
		}
	}
	if len(notGraded) > 0 {
		gr := proctor.NotGraded("sub-grader not graded: " + strings.Join(notGraded, "; "))
		gr.Caveats = caveats
		return gr
	}
	ev := MultiEvidence{Scores: make(map[string]float64, len(vals)), Formula: g.expr.String()}
	for i, k := range g.keys {
		ev.Scores[k] = vals[i]
	}
	v, err := g.expr.Eval(vals)
	if err != nil {
		gr := proctor.ErrorGrade("calculate_output", err).WithEvidence(ev)
		gr.Caveats = caveats
		return gr
	}
	ev.Value = v
	gr := proctor.Scored(v, g.threshold, fmt.Sprintf("calculate_output = %.4g; pass_threshold %.4g", v, g.threshold)).WithEvidence(ev)
	gr.Caveats = caveats
	return gr
}

// Close closes every sub-grader that implements io.Closer (python
// graders hold a worker process) and returns their errors joined.
func (g *Multi) Close() error {
	return proctor.CloseChecks(g.checks)
}

func multiSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	checks, keys, ok := o.Checks("graders")
	calc := o.RequireString("calculate_output")
	opts := MultiOptions{Name: o.Name(), PassThreshold: proctor.Ptr(passThreshold(o, 0.5))}
	if err := o.Err(); err != nil || !ok {
		_ = proctor.CloseChecks(checks)
		return nil, err
	}
	g, err := newMulti(calc, checks, keys, opts)
	if err != nil {
		_ = proctor.CloseChecks(checks)
		var me *multiError
		if errors.As(err, &me) {
			o.Wrap(me.option, "cannot compile", me.err)
			return nil, o.Err()
		}
		return nil, err
	}
	return g, nil
}
