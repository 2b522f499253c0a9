package metric

import (
	"sync"

	"github.com/proctorhq/proctor/internal/editdist"
)

var runePool = sync.Pool{New: func() any { return new([2][]int32) }}

// withRunes calls f with the code points of a and b in pooled buffers.
func withRunes[T any](a, b string, f func(x, y []int32) T) T {
	bufs := runePool.Get().(*[2][]int32)
	defer runePool.Put(bufs)
	bufs[0], bufs[1] = appendRunes(bufs[0][:0], a), appendRunes(bufs[1][:0], b)
	return f(bufs[0], bufs[1])
}

func appendRunes(dst []int32, s string) []int32 {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// LevenshteinDistance returns the number of code-point insertions,
// deletions and substitutions that turn a into b. Invalid UTF-8 bytes
// count as U+FFFD each.
func LevenshteinDistance(a, b string) int {
	return withRunes(a, b, editdist.Levenshtein)
}

// LevenshteinSimilarity returns 1 - distance / max(len(a), len(b)) over
// code points; two empty strings are 1.
func LevenshteinSimilarity(a, b string) float64 {
	return maxLenSimilarity(a, b, editdist.Levenshtein)
}

// maxLenSimilarity returns 1 - dist(a, b) / max(len(a), len(b)) over code
// points; two empty strings are 1.
func maxLenSimilarity(a, b string, dist func(x, y []int32) int) float64 {
	return withRunes(a, b, func(x, y []int32) float64 {
		n := max(len(x), len(y))
		if n == 0 {
			return 1
		}
		return 1 - float64(dist(x, y))/float64(n)
	})
}

// IndelSimilarity returns the normalised Indel similarity rapidfuzz's
// fuzz.ratio (and python-Levenshtein's ratio) compute, on a 0-1 scale:
// 1 - indel / (len(a) + len(b)) over code points, where indel counts the
// insertions and deletions (no substitutions) that turn a into b. Two
// empty strings are 1, as in rapidfuzz.
func IndelSimilarity(a, b string) float64 {
	return withRunes(a, b, func(x, y []int32) float64 {
		n := len(x) + len(y)
		if n == 0 {
			return 1
		}
		return 1 - float64(editdist.Indel(x, y))/float64(n)
	})
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
