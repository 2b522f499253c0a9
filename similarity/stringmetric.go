package similarity

import (
	"fmt"
	"math"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/metric"
)

// jaroSpec builds a jaro grader from its spec.
func jaroSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	g, err := NewJaro(EditSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// hammingSpec builds a hamming grader from its spec.
func hammingSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	g, err := NewHamming(EditSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// jaroWinklerSpec builds a jaro_winkler grader from its spec.
func jaroWinklerSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := JaroWinklerOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
	if w, ok := o.OptFloat("prefix_weight"); ok {
		opts.PrefixWeight = &w
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewJaroWinkler(opts)
	if err != nil {
		o.Wrap("prefix_weight", "want a number in [0, 0.25]", kit.SpecCause("similarity: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// maxJaroCells bounds len(output)·len(reference) for Jaro and Jaro-Winkler,
// which scan a window of half the longer length for each code point: 2^30
// pairs is about a second of work.
const maxJaroCells = 1 << 30

// jaroWinklerDefaultPrefix is rapidfuzz's default prefix weight.
const jaroWinklerDefaultPrefix = 0.1

// NewJaro returns a grader on [metric.JaroSimilarity] (rapidfuzz's Jaro), best of
// the references, passing at opts.Threshold (default 0.5). It is not
// graded when the output's and a reference's lengths multiply past 2^30
// code-point pairs. opts.MaxDistance is not used. It returns an error for
// a Threshold outside [0, 1] (or NaN).
func NewJaro(opts EditSimilarityOptions) (*EditSimilarity, error) {
	return newEditSimilarity(opts, "jaro", "Jaro similarity", metric.JaroSimilarity, maxJaroCells)
}

// NewHamming returns a grader on [metric.HammingSimilarity] (rapidfuzz's Hamming,
// shorter string padded), best of the references, passing at
// opts.Threshold (default 0.5). Its work is linear, so no length limit
// applies. opts.MaxDistance is not used. It returns an error for a
// Threshold outside [0, 1] (or NaN).
func NewHamming(opts EditSimilarityOptions) (*EditSimilarity, error) {
	return newEditSimilarity(opts, "hamming", "Hamming similarity", metric.HammingSimilarity, -1)
}

// JaroWinklerOptions configure [NewJaroWinkler]. The zero value compares
// with the sample's expected answer and references (best of), weighs the
// shared prefix by 0.1 and passes at 0.5.
type JaroWinklerOptions struct {
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the similarity to reach; nil means 0.5.
	Threshold *float64
	// PrefixWeight weighs each shared leading code point (at most 4); nil
	// means rapidfuzz's 0.1. It must lie in [0, 0.25].
	PrefixWeight *float64
	// Name is shown in results; default "jaro_winkler".
	Name string
}

// NewJaroWinkler returns a grader on [metric.JaroWinklerSimilarity] (rapidfuzz's
// JaroWinkler), best of the references. It returns an error when
// PrefixWeight lies outside [0, 0.25] or Threshold outside [0, 1] (or
// either is NaN). The output is not graded when its
// and a reference's lengths multiply past 2^30 code-point pairs.
func NewJaroWinkler(opts JaroWinklerOptions) (*EditSimilarity, error) {
	w := jaroWinklerDefaultPrefix
	if opts.PrefixWeight != nil {
		w = *opts.PrefixWeight
	}
	if math.IsNaN(w) || w < 0 || w > 0.25 {
		return nil, fmt.Errorf("similarity: jaro_winkler prefix weight %v: must lie in [0, 0.25]", w)
	}
	sim := func(a, b string) float64 { return metric.JaroWinklerSimilarity(a, b, w) }
	return newEditSimilarity(EditSimilarityOptions{References: opts.References, Threshold: opts.Threshold, Name: opts.Name},
		"jaro_winkler", "Jaro-Winkler similarity", sim, maxJaroCells)
}

// stringMetricSpecTypes documents the similarity family's spec types jaro,
// jaro_winkler and hamming, for [SpecTypes], with their builders.
func stringMetricSpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "jaro", ReferenceTemplates: true, Build: jaroSpec, Family: "similarity", Summary: "Jaro similarity over code points (rapidfuzz's Jaro.normalized_similarity)",
			About:   "Characters match when equal and at most max(len)/2 - 1 positions apart; half the matched characters out of order count as transpositions. Two empty strings score 0, as in rapidfuzz. Not graded when the output's and a reference's lengths multiply past 2^30.",
			Options: docSimilarity("0.5"), Example: `{"type": "jaro", "expected": "MARHTA", "threshold": 0.9}`},
		{Name: "jaro_winkler", ReferenceTemplates: true, Build: jaroWinklerSpec, Family: "similarity", Summary: "Jaro-Winkler similarity over code points (rapidfuzz's JaroWinkler.normalized_similarity)",
			About: "The Jaro similarity, raised when above 0.7 by prefix_weight * (shared prefix, at most 4 characters) * (1 - Jaro). Same limits as jaro.",
			Options: append(docSimilarity("0.5"),
				proctor.SpecOptionDoc{Name: "prefix_weight", Type: "number in [0, 0.25]", Default: "0.1", Meaning: "The weight of each shared leading character."}),
			Example: `{"type": "jaro_winkler", "expected": "MARHTA", "threshold": 0.95}`},
		{Name: "hamming", ReferenceTemplates: true, Build: hammingSpec, Family: "similarity", Summary: "1 - differing positions / longer length (rapidfuzz's Hamming.normalized_similarity, padded)",
			About:   "Over code points; the difference in length counts as differing positions, as rapidfuzz's default padding does. Two empty strings score 1.",
			Options: docSimilarity("0.5"), Example: `{"type": "hamming", "expected": "ABC-1234", "threshold": 0.75}`},
	}
}
