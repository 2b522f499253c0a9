package proctor

import (
	"context"
	"unicode/utf8"

	"github.com/proctorhq/proctor/metric"
)

// maxEditCells bounds len(output)·len(reference) for the edit-distance
// graders: about a second of bit-parallel work (2^34 pairs, 2^28 64-bit
// steps), so a huge output cannot stall a run.
const maxEditCells = 1 << 34

// EditSimilarityOptions configure [NewLevenshtein] and [NewFuzzyMatch]. The zero
// value compares with the sample's expected answer and references (best
// of) and passes at 0.5.
type EditSimilarityOptions struct {
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the similarity to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "levenshtein" or "fuzzy_match".
	Name string
}

// EditSimilarity passes when the output's character similarity to the best
// reference reaches the threshold: [metric.LevenshteinSimilarity] for
// [NewLevenshtein], [metric.IndelSimilarity] for [NewFuzzyMatch]. The output is
// compared as it is, white space included. It is not graded when there is
// no reference, or when the output's and a reference's lengths multiply
// past 2^34 code-point pairs (about a second of work). Memory is linear in
// the texts' lengths whatever their alphabet (100,000 distinct code points
// on each side take about 10 MB). An EditSimilarity is immutable and safe
// for concurrent use.
type EditSimilarity struct {
	name      string
	metric    string
	sim       func(a, b string) float64
	refs      []string
	threshold float64
}

var _ Grader = (*EditSimilarity)(nil)

// NewLevenshtein returns a grader on 1 - Levenshtein distance / max length.
func NewLevenshtein(opts EditSimilarityOptions) *EditSimilarity {
	return &EditSimilarity{name: nameOr(opts.Name, "levenshtein"), metric: "Levenshtein similarity",
		sim: metric.LevenshteinSimilarity, refs: opts.References, threshold: thresholdOr(opts.Threshold, 0.5)}
}

// NewFuzzyMatch returns a grader on rapidfuzz's fuzz.ratio, on 0-1.
func NewFuzzyMatch(opts EditSimilarityOptions) *EditSimilarity {
	return &EditSimilarity{name: nameOr(opts.Name, "fuzzy_match"), metric: "fuzzy ratio",
		sim: metric.IndelSimilarity, refs: opts.References, threshold: thresholdOr(opts.Threshold, 0.5)}
}

// Name returns the grader's name.
func (g *EditSimilarity) Name() string { return g.name }

// Grade scores s.Output.
func (g *EditSimilarity) Grade(_ context.Context, s *Sample) Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return NotGraded(noReference)
	}
	n := utf8.RuneCountInString(s.Output)
	best := 0.0
	for _, r := range refs {
		if m := utf8.RuneCountInString(r); n > 0 && m > maxEditCells/n {
			return NotGradedf("output (%d code points) and reference (%d) are too long to compare: the limit is %d code-point pairs", n, m, maxEditCells)
		}
		best = max(best, g.sim(s.Output, r))
	}
	return scoreGrade(g.metric, best, g.threshold, len(refs), nil)
}
