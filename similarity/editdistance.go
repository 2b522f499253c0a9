package similarity

import (
	"cmp"
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

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
	// MaxDistance, when not nil, is used by [NewLevenshtein] only: the
	// output passes when its Levenshtein distance to the closest reference
	// is at most MaxDistance code-point edits (promptfoo's levenshtein
	// threshold). The similarity threshold then applies only when
	// Threshold is set too. It must not be negative.
	MaxDistance *int
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
	// cells bounds len(output)·len(reference): 0 means maxEditCells, -1
	// no bound (linear metrics).
	cells int
	// maxDist and hasThreshold: levenshtein's max_distance mode.
	maxDist      *int
	hasThreshold bool
}

var _ proctor.Grader = (*EditSimilarity)(nil)

// NewLevenshtein returns a grader on 1 - Levenshtein distance / max length,
// or, with opts.MaxDistance, on the distance itself. It returns an error
// for a Threshold outside [0, 1] (or NaN) or a negative MaxDistance.
func NewLevenshtein(opts EditSimilarityOptions) (*EditSimilarity, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: levenshtein %w", err)
	}
	g := &EditSimilarity{name: cmp.Or(opts.Name, "levenshtein"), metric: "Levenshtein similarity",
		sim: metric.LevenshteinSimilarity, refs: opts.References, threshold: th}
	if opts.MaxDistance != nil {
		d := *opts.MaxDistance
		if d < 0 {
			return nil, fmt.Errorf("similarity: levenshtein max distance %d: want 0 or more", d)
		}
		g.maxDist, g.hasThreshold = &d, opts.Threshold != nil
	}
	return g, nil
}

// NewFuzzyMatch returns a grader on rapidfuzz's fuzz.ratio, on 0-1. It
// returns an error for a Threshold outside [0, 1] (or NaN).
func NewFuzzyMatch(opts EditSimilarityOptions) (*EditSimilarity, error) {
	return newEditSimilarity(opts, "fuzzy_match", "fuzzy ratio", metric.IndelSimilarity, 0)
}

// newEditSimilarity builds the threshold-only edit similarities (fuzzy
// match, Jaro, Hamming): typ names the grader and its errors, cells bounds
// the work as [EditSimilarity]'s field does.
func newEditSimilarity(opts EditSimilarityOptions, typ, metricName string, sim func(a, b string) float64, cells int) (*EditSimilarity, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: %s %w", typ, err)
	}
	return &EditSimilarity{name: cmp.Or(opts.Name, typ), metric: metricName, sim: sim, refs: opts.References,
		threshold: th, cells: cells}, nil
}

// Name returns the grader's name.
func (g *EditSimilarity) Name() string { return g.name }

// Grade scores s.Output.
func (g *EditSimilarity) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	n := utf8.RuneCountInString(s.Output)
	limit := g.cells
	if limit == 0 {
		limit = maxEditCells
	}
	for _, r := range refs {
		if m := utf8.RuneCountInString(r); limit > 0 && n > 0 && m > limit/n {
			return proctor.NotGradedf("output (%d code points) and reference (%d) are too long to compare: the limit is %d code-point pairs", n, m, limit)
		}
	}
	if g.maxDist != nil {
		return g.gradeDistance(s.Output, refs)
	}
	best := 0.0
	for _, r := range refs {
		best = max(best, g.sim(s.Output, r))
	}
	return scoreGrade(g.metric, best, g.threshold, len(refs), nil)
}

// gradeDistance is levenshtein's max_distance mode: the closest reference
// decides; the score is its similarity.
func (g *EditSimilarity) gradeDistance(out string, refs []string) proctor.Grade {
	best, sim := -1, 0.0
	for _, r := range refs {
		d := metric.LevenshteinDistance(out, r)
		if best < 0 || d < best {
			n := max(utf8.RuneCountInString(out), utf8.RuneCountInString(r))
			best, sim = d, 1
			if n > 0 {
				sim = 1 - float64(d)/float64(n)
			}
		}
	}
	cmp, st := "<=", proctor.StatusPassed
	if best > *g.maxDist {
		cmp, st = ">", proctor.StatusFailed
	}
	reason := fmt.Sprintf("Levenshtein distance %d %s max_distance %d", best, cmp, *g.maxDist)
	if len(refs) > 1 {
		reason += fmt.Sprintf(" (closest of %d references)", len(refs))
	}
	if g.hasThreshold {
		if sim < g.threshold {
			st = proctor.StatusFailed
			reason += fmt.Sprintf("; similarity %s < threshold %s", kit.FormatScore(sim), kit.FormatScore(g.threshold))
		} else {
			reason += fmt.Sprintf("; similarity %s >= threshold %s", kit.FormatScore(sim), kit.FormatScore(g.threshold))
		}
	}
	gr := proctor.Grade{Status: st, Reason: reason}.WithScore(sim)
	gr.Evidence = map[string]any{"distance": best}
	return gr
}
