package proctor

import (
	"fmt"
	"math"

	"github.com/proctorhq/proctor/internal/editdist"
)

// stringMetricSpecs registers the spec types jaro, jaro_winkler and
// hamming: rapidfuzz's normalised similarities, best of the references.
func stringMetricSpecs(m map[string]Builder) {
	m["jaro"] = func(o *SpecOptions) (Grader, error) {
		opts := EditSimilarityOptions{References: specReferences(o), Threshold: specThreshold(o), Name: o.Name()}
		return NewJaro(opts), o.Err()
	}
	m["hamming"] = func(o *SpecOptions) (Grader, error) {
		opts := EditSimilarityOptions{References: specReferences(o), Threshold: specThreshold(o), Name: o.Name()}
		return NewHamming(opts), o.Err()
	}
	m["jaro_winkler"] = func(o *SpecOptions) (Grader, error) {
		opts := JaroWinklerOptions{References: specReferences(o), Threshold: specThreshold(o), Name: o.Name()}
		if w, ok := o.OptFloat("prefix_weight"); ok {
			opts.PrefixWeight = &w
		}
		if err := o.Err(); err != nil {
			return nil, err
		}
		g, err := NewJaroWinkler(opts)
		if err != nil {
			o.Wrap("prefix_weight", "want a number in [0, 0.25]", err)
			return nil, o.Err()
		}
		return g, nil
	}
}

// JaroSimilarity returns the Jaro similarity of a and b over code points,
// as rapidfuzz's Jaro.normalized_similarity computes it: 1 for equal
// non-empty strings, 0 when no code point matches within the window, and
// 0 when either string is empty (two empty strings included, as in
// rapidfuzz). Invalid UTF-8 bytes count as U+FFFD each.
func JaroSimilarity(a, b string) float64 {
	return withRunes(a, b, editdist.Jaro)
}

// JaroWinklerSimilarity returns rapidfuzz's JaroWinkler.normalized_similarity
// of a and b over code points with the given prefix weight (rapidfuzz's
// default is 0.1): the Jaro similarity, raised when above 0.7 by
// prefixWeight times the shared prefix length (at most 4) times what it
// lacks of 1. prefixWeight must lie in [0, 0.25] for the result to stay in
// [0, 1].
func JaroWinklerSimilarity(a, b string, prefixWeight float64) float64 {
	return withRunes(a, b, func(x, y []int32) float64 { return editdist.JaroWinkler(x, y, prefixWeight) })
}

// HammingSimilarity returns rapidfuzz's Hamming.normalized_similarity of a
// and b over code points: 1 - distance / max(len(a), len(b)), where the
// distance counts the positions that differ and pads the shorter string
// (each missing code point differs). Two empty strings are 1.
func HammingSimilarity(a, b string) float64 {
	return maxLenSimilarity(a, b, editdist.Hamming)
}

// maxJaroCells bounds len(output)·len(reference) for Jaro and Jaro-Winkler,
// which scan a window of half the longer length for each code point: 2^30
// pairs is about a second of work.
const maxJaroCells = 1 << 30

// jaroWinklerDefaultPrefix is rapidfuzz's default prefix weight.
const jaroWinklerDefaultPrefix = 0.1

// NewJaro returns a grader on [JaroSimilarity] (rapidfuzz's Jaro), best of
// the references, passing at opts.Threshold (default 0.5). It is not
// graded when the output's and a reference's lengths multiply past 2^30
// code-point pairs. opts.MaxDistance is not used.
func NewJaro(opts EditSimilarityOptions) *EditSimilarity {
	return &EditSimilarity{name: nameOr(opts.Name, "jaro"), metric: "Jaro similarity",
		sim: JaroSimilarity, refs: opts.References, threshold: thresholdOr(opts.Threshold, 0.5), cells: maxJaroCells}
}

// NewHamming returns a grader on [HammingSimilarity] (rapidfuzz's Hamming,
// shorter string padded), best of the references, passing at
// opts.Threshold (default 0.5). Its work is linear, so no length limit
// applies. opts.MaxDistance is not used.
func NewHamming(opts EditSimilarityOptions) *EditSimilarity {
	return &EditSimilarity{name: nameOr(opts.Name, "hamming"), metric: "Hamming similarity",
		sim: HammingSimilarity, refs: opts.References, threshold: thresholdOr(opts.Threshold, 0.5), cells: -1}
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

// NewJaroWinkler returns a grader on [JaroWinklerSimilarity] (rapidfuzz's
// JaroWinkler), best of the references. It returns an error when
// PrefixWeight lies outside [0, 0.25]. The output is not graded when its
// and a reference's lengths multiply past 2^30 code-point pairs.
func NewJaroWinkler(opts JaroWinklerOptions) (*EditSimilarity, error) {
	w := jaroWinklerDefaultPrefix
	if opts.PrefixWeight != nil {
		w = *opts.PrefixWeight
	}
	if math.IsNaN(w) || w < 0 || w > 0.25 {
		return nil, fmt.Errorf("proctor: jaro_winkler prefix weight %v: must lie in [0, 0.25]", w)
	}
	return &EditSimilarity{name: nameOr(opts.Name, "jaro_winkler"), metric: "Jaro-Winkler similarity",
		sim:  func(a, b string) float64 { return JaroWinklerSimilarity(a, b, w) },
		refs: opts.References, threshold: thresholdOr(opts.Threshold, 0.5), cells: maxJaroCells}, nil
}
