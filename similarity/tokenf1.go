package similarity

import (
	"cmp"
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/metric"
)

// TokenF1Options configure [NewTokenF1]. The zero value compares with the
// sample's expected answer and references (best of) and passes at 0.5.
type TokenF1Options struct {
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "token_f1".
	Name string
}

// TokenF1 passes when the output's [metric.TokenF1] against the references
// reaches the threshold; it is not graded when there is no reference. Its
// evidence holds the F1 and whether the output is a SQuAD exact match. A
// TokenF1 is immutable and safe for concurrent use.
type TokenF1 struct {
	name      string
	refs      []string
	threshold float64
}

var _ proctor.Grader = (*TokenF1)(nil)

// NewTokenF1 returns a token F1 grader. It returns an error for a
// Threshold outside [0, 1] (or NaN).
func NewTokenF1(opts TokenF1Options) (*TokenF1, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: token_f1 %w", err)
	}
	return &TokenF1{name: cmp.Or(opts.Name, "token_f1"), refs: opts.References, threshold: th}, nil
}

// Name returns the grader's name.
func (g *TokenF1) Name() string { return g.name }

// Grade scores s.Output.
func (g *TokenF1) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	f1, exact := metric.TokenF1(s.Output, refs), metric.SQuADExact(s.Output, refs)
	ev := struct {
		F1    float64 `json:"f1"`
		Exact bool    `json:"exact_match"`
	}{f1, exact}
	return scoreGrade("token F1", f1, g.threshold, len(refs), ev)
}
