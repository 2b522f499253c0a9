package similarity

import (
	"cmp"
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/metric"
)

// GLEUOptions configure [NewGLEU]. The zero value compares with the
// sample's references (else its expected answer) and passes at 0.5.
type GLEUOptions struct {
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "gleu".
	Name string
}

// GLEU passes when the output's [metric.SentenceGLEU] against the references
// reaches the threshold; it is not graded when there is no reference. A
// GLEU is immutable and safe for concurrent use.
type GLEU struct {
	name      string
	refs      []string
	threshold float64
}

var _ proctor.Grader = (*GLEU)(nil)

// NewGLEU returns a GLEU grader. It returns an error for a Threshold
// outside [0, 1] (or NaN).
func NewGLEU(opts GLEUOptions) (*GLEU, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: gleu %w", err)
	}
	return &GLEU{name: cmp.Or(opts.Name, "gleu"), refs: opts.References, threshold: th}, nil
}

// Name returns the grader's name.
func (g *GLEU) Name() string { return g.name }

// Grade scores s.Output.
func (g *GLEU) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := multiRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	return scoreGrade("GLEU", metric.SentenceGLEU(s.Output, refs), g.threshold, 0, nil)
}
