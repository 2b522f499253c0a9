package proctor

import (
	"context"

	"github.com/proctorhq/proctor/metric"
)

// BLEUOptions configure [NewBLEU]. The zero value compares with the
// sample's references (else its expected answer) and passes at 0.5.
type BLEUOptions struct {
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "bleu".
	Name string
}

// BLEU passes when the output's sentence BLEU ([metric.SentenceBLEU], sacreBLEU's
// default, on a 0-1 scale) against the references reaches the threshold.
// It is not graded when there is no reference. Its evidence is the
// [metric.BLEUScore]. A BLEU is immutable and safe for concurrent use.
type BLEU struct {
	name      string
	refs      []string
	threshold float64
}

var _ Grader = (*BLEU)(nil)

// NewBLEU returns a BLEU grader.
func NewBLEU(opts BLEUOptions) *BLEU {
	return &BLEU{name: nameOr(opts.Name, "bleu"), refs: opts.References, threshold: thresholdOr(opts.Threshold, 0.5)}
}

// Name returns the grader's name.
func (g *BLEU) Name() string { return g.name }

// Grade scores s.Output.
func (g *BLEU) Grade(_ context.Context, s *Sample) Grade {
	refs, ok := multiRefs(g.refs, s)
	if !ok {
		return NotGraded(noReference)
	}
	sc := metric.SentenceBLEU(s.Output, refs)
	return scoreGrade("BLEU", sc.Score, g.threshold, 0, sc)
}
