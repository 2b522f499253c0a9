package similarity

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/tokenize"
	"github.com/proctorhq/proctor/metric"
)

// RougeMeasure says which of ROUGE's precision, recall and F-measure a
// [Rouge] grader compares with its threshold.
type RougeMeasure uint8

const (
	// RougeFMeasure is the harmonic mean of precision and recall (the
	// default).
	RougeFMeasure RougeMeasure = iota
	// RougePrecision is the share of the output's units found in the
	// reference.
	RougePrecision
	// RougeRecall is the share of the reference's units found in the
	// output.
	RougeRecall
)

// String returns the spec's word: fmeasure, precision or recall.
func (m RougeMeasure) String() string {
	switch m {
	case RougeFMeasure:
		return "fmeasure"
	case RougePrecision:
		return "precision"
	case RougeRecall:
		return "recall"
	}
	return fmt.Sprintf("measure_%d", uint8(m))
}

// MarshalText encodes m as [RougeMeasure.String] does.
func (m RougeMeasure) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "fmeasure", "precision" or "recall".
func (m *RougeMeasure) UnmarshalText(b []byte) error {
	return kit.UnmarshalEnum(m, b, int(RougeRecall)+1, "similarity: ", "measure")
}

// measureOf returns the measure m of s.
func measureOf(s metric.RougeScore, m RougeMeasure) float64 {
	switch m {
	case RougePrecision:
		return s.Precision
	case RougeRecall:
		return s.Recall
	}
	return s.FMeasure
}

// RougeOptions configure [NewRouge]. The zero value is ROUGE-L F-measure
// without stemming against the sample's expected answer (and references,
// best of), passing at 0.5.
type RougeOptions struct {
	// Variant is rouge1 .. rouge9 (n-gram overlap), rougeL (longest common
	// subsequence) or rougeLsum (summary-level LCS over newline-separated
	// sentences); "" means rougeL.
	Variant string
	// Measure is compared with the threshold; default F-measure.
	Measure RougeMeasure
	// Stemmer stems tokens longer than three characters with the Porter
	// stemmer (NLTK's), as rouge-score's use_stemmer does.
	Stemmer bool
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "rouge".
	Name string
}

// Rouge scores the output against references exactly as Google's
// rouge-score package (rouge_scorer.RougeScorer) does: its tokeniser
// (lower-case, every character other than [a-z0-9] a separator, so
// non-ASCII letters separate tokens), optional Porter stemming, clipped
// n-gram overlap for rougeN, LCS for rougeL and union-LCS over
// newline-separated sentences for rougeLsum. With several references the
// one with the best F-measure counts, as score_multi picks it.
//
// It passes when the chosen measure reaches the threshold and is not
// graded when there is no reference, or, for rougeL and rougeLsum, when
// the output's and a reference's tokens make more than 2^34 pairs (both
// over ~131,000 tokens). Its evidence is the [metric.RougeScore]. A Rouge is
// immutable and safe for concurrent use.
type Rouge struct {
	name      string
	variant   string
	n         int // n-gram order; 0 for rougeL, -1 for rougeLsum
	measure   RougeMeasure
	scorer    *metric.RougeScorer
	refs      []string
	threshold float64
}

var _ proctor.Grader = (*Rouge)(nil)

// NewRouge returns a ROUGE grader. It returns an error for a variant other
// than rouge1 .. rouge9, rougeL or rougeLsum, an unknown measure, or a
// Threshold outside [0, 1] (or NaN).
func NewRouge(opts RougeOptions) (*Rouge, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: rouge %w", err)
	}
	g := &Rouge{
		name:      cmp.Or(opts.Name, "rouge"),
		variant:   cmp.Or(opts.Variant, "rougeL"),
		measure:   opts.Measure,
		refs:      opts.References,
		threshold: th,
	}
	switch v := g.variant; {
	case v == "rougeL":
	case v == "rougeLsum":
		g.n = -1
	case len(v) == 6 && strings.HasPrefix(v, "rouge") && v[5] >= '1' && v[5] <= '9':
		g.n = int(v[5] - '0')
	default:
		return nil, fmt.Errorf("similarity: unknown ROUGE variant %q (want rouge1 .. rouge9, rougeL or rougeLsum)", v)
	}
	if opts.Measure > RougeRecall {
		return nil, fmt.Errorf("similarity: unknown ROUGE measure %d", opts.Measure)
	}
	sc, err := metric.NewRougeScorer(g.variant, opts.Stemmer)
	if err != nil {
		return nil, fmt.Errorf("similarity: %w", err)
	}
	g.scorer = sc
	return g, nil
}

// Name returns the grader's name.
func (g *Rouge) Name() string { return g.name }

// Score returns the ROUGE score of prediction against target, as
// rouge-score's RougeScorer.score(target, prediction) does; see
// [metric.RougeScorer].
func (g *Rouge) Score(target, prediction string) metric.RougeScore {
	return g.scorer.Score(target, prediction)
}

// Grade scores s.Output against the best reference.
func (g *Rouge) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	if g.n <= 0 {
		// LCS costs O(n·m/64) in tokens; a token takes at least two bytes
		// but the last one, so only texts that could pass the limit are
		// tokenised to count exactly.
		n, counted := (len(s.Output)+1)/2, false
		for _, r := range refs {
			m := (len(r) + 1) / 2
			if n == 0 || m <= maxEditCells/n {
				continue
			}
			if !counted {
				n, counted = len(tokenize.Rouge(nil, s.Output, nil)), true
			}
			if m = len(tokenize.Rouge(nil, r, nil)); n > 0 && m > maxEditCells/n {
				return proctor.NotGradedf("%s: output (%d tokens) and reference (%d tokens) make %d token pairs, over the limit of %d", g.variant, n, m, int64(n)*int64(m), int64(maxEditCells))
			}
		}
	}
	best := g.Score(refs[0], s.Output)
	for _, r := range refs[1:] {
		if sc := g.Score(r, s.Output); sc.FMeasure > best.FMeasure {
			best = sc
		}
	}
	return scoreGrade(g.variant+" "+g.measure.String(), measureOf(best, g.measure), g.threshold, len(refs), best)
}
