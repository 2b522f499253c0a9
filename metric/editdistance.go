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
	return withRunes(a, b, func(x, y []int32) float64 {
		n := max(len(x), len(y))
		if n == 0 {
			return 1
		}
		return 1 - float64(editdist.Levenshtein(x, y))/float64(n)
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
