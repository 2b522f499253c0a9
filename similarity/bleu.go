package similarity

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

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
	// Weights, when not nil, weigh the log n-gram precisions for n = 1 ..
	// len(Weights) (at most 4) instead of sacreBLEU's uniform average
	// over the effective order: the score is BP · exp(Σ wₙ·log pₙ), with
	// the smoothed precisions, no effective order, and the weights taken
	// as given (not normalised), as NLTK's sentence_bleu takes them. An
	// order the hypothesis is too short for scores 0 when its weight is
	// not 0. Each weight must be finite and >= 0, and one must be > 0
	// ([metric.WeightedSentenceBLEU]).
	Weights []float64
}

// BLEU passes when the output's sentence BLEU ([metric.SentenceBLEU], sacreBLEU's
// default, on a 0-1 scale) against the references reaches the threshold.
// It is not graded when there is no reference, or when the output or a
// reference is longer than [MaxNGramText]. Its evidence is the
// [metric.BLEUScore]. A BLEU is immutable and safe for concurrent use.
type BLEU struct {
	name      string
	refs      []string
	threshold float64
	weights   []float64
}

var _ proctor.Grader = (*BLEU)(nil)

// NewBLEU returns a BLEU grader. It returns an error when opts.Weights is
// invalid (more than 4 weights, a negative or non-finite one, or none
// above 0) or opts.Threshold lies outside [0, 1] (or is NaN).
func NewBLEU(opts BLEUOptions) (*BLEU, error) {
	if err := metric.CheckBLEUWeights(opts.Weights); err != nil {
		return nil, err
	}
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: bleu %w", err)
	}
	return &BLEU{name: cmp.Or(opts.Name, "bleu"), refs: opts.References, threshold: th,
		weights: slices.Clone(opts.Weights)}, nil
}

// Name returns the grader's name.
func (g *BLEU) Name() string { return g.name }

// Grade scores s.Output.
func (g *BLEU) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := multiRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	if tl, over := overNGramLimit("bleu", s.Output, refs); over {
		return tl
	}
	sc := metric.SentenceBLEU(s.Output, refs)
	if g.weights != nil {
		sc, _ = metric.WeightedSentenceBLEU(s.Output, refs, g.weights)
	}
	return scoreGrade("BLEU", sc.Score, g.threshold, 0, sc)
}

// MaxNGramText is the longest output, and the longest reference, in bytes,
// that bleu and chrf compare: past it the check is not graded. Their work
// is linear in the text, but their n-gram tables cost about 20 (bleu) and
// 250 (chrf++) bytes of allocation per byte compared, so the limit keeps a
// grade under about 130 MB.
const MaxNGramText = 256 << 10

// overNGramLimit returns the not-graded result for an output or a
// reference longer than MaxNGramText.
func overNGramLimit(metricName, out string, refs []string) (proctor.Grade, bool) {
	if len(out) > MaxNGramText {
		return proctor.NotGradedf("%s: the output is %d bytes, over the limit of %d", metricName, len(out), MaxNGramText), true
	}
	for i, r := range refs {
		if len(r) > MaxNGramText {
			return proctor.NotGradedf("%s: reference %d is %d bytes, over the limit of %d", metricName, i+1, len(r), MaxNGramText), true
		}
	}
	return proctor.Grade{}, false
}
