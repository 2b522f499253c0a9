package bench_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/editdist"
	"github.com/proctorhq/proctor/similarity"
)

var benchWords = strings.Fields(`the a model answer returns cache latency request user team plan
index column window context retrieval step result baseline option default clear second average
improves reduces depends limits highlights balances throughput energy trust cost maintenance`)

// benchWordsText returns n words drawn deterministically from benchWords,
// with punctuation every few words; seed varies the sequence.
func benchWordsText(n, seed int) string {
	var b strings.Builder
	x := uint32(seed*2654435761 + 1)
	for i := range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(benchWords[int(x%uint32(len(benchWords)))])
		if x%9 == 0 {
			b.WriteString(".")
		}
	}
	return b.String()
}

// benchPair returns an output and an expected text of n words that share
// most of their wording.
func benchPair(n int) (string, string) {
	exp := benchWordsText(n, 1)
	w := strings.Fields(exp)
	for i := 0; i < len(w); i += 7 {
		w[i] = "changed"
	}
	return strings.Join(w, " "), exp
}

func BenchmarkSimilarity(b *testing.B) {
	for _, n := range []int{200, 2000} {
		out, exp := benchPair(n)
		s := &proctor.Sample{Output: out, Expected: &exp}
		size := "/" + map[int]string{200: "200w", 2000: "2000w"}[n]
		graders := []proctor.Grader{
			must(similarity.NewBLEU(similarity.BLEUOptions{})), must(similarity.NewGLEU(similarity.GLEUOptions{})),
			must(similarity.NewRouge(similarity.RougeOptions{Variant: "rouge1"})), must(similarity.NewRouge(similarity.RougeOptions{Variant: "rouge2"})),
			must(similarity.NewRouge(similarity.RougeOptions{Variant: "rougeL"})), must(similarity.NewRouge(similarity.RougeOptions{Variant: "rougeLsum"})),
			must(similarity.NewRouge(similarity.RougeOptions{Variant: "rougeL", Stemmer: true})),
			must(similarity.NewTokenF1(similarity.TokenF1Options{})), must(similarity.NewLevenshtein(similarity.EditSimilarityOptions{})), must(similarity.NewFuzzyMatch(similarity.EditSimilarityOptions{})),
			must(similarity.NewSemanticSimilarity(nil, similarity.SemanticSimilarityOptions{})),
		}
		names := []string{"bleu", "gleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "rougeL_stem", "token_f1", "levenshtein", "fuzzy_match", "semantic_lexical"}
		for i, g := range graders {
			b.Run(names[i]+size, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					g.Grade(b.Context(), s)
				}
			})
		}
		// The bare primitives, for the grader's overhead.
		ro, re := []int32(out), []int32(exp)
		b.Run("primitive_levenshtein_runes"+size, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				editdist.Levenshtein(ro, re)
			}
		})
		b.Run("primitive_lcs_runes"+size, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				editdist.LCS(ro, re)
			}
		})
	}
}

// benchDistinct returns about n bytes of CJK characters in a
// pseudo-random order: nearly every character n-gram is new, the shape
// that grows n-gram tables fastest.
func benchDistinct(n, seed int) string {
	var b strings.Builder
	x := uint32(seed*2654435761 + 1)
	for b.Len() < n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteRune(rune(0x4E00 + x%20000))
		if x%5 == 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// BenchmarkSimilarityScaling grades bleu and chrf on outputs and
// references of 1x, 4x and 16x 15 KiB (the last near MaxNGramText), in
// words drawn from a small vocabulary and in distinct characters. ns/op and B/op per input byte
// (the output's and the reference's together) must stay flat across
// sizes.
func BenchmarkSimilarityScaling(b *testing.B) {
	chrf, err := similarity.NewChrF(similarity.ChrFOptions{ChrFConfig: similarity.ChrFConfig{WordOrder: 2}})
	if err != nil {
		b.Fatal(err)
	}
	for _, shape := range []string{"words", "distinct"} {
		for _, k := range []int{1, 4, 16} {
			n := 15 << 10 * k // 16x stays under proctor.MaxNGramText
			out, exp := benchDistinct(n, 1), benchDistinct(n, 2)
			if shape == "words" {
				out, exp = benchPair(n / 4)
				out, exp = out[:n], exp[:n]
			}
			s := &proctor.Sample{Output: out, Expected: &exp}
			for _, g := range []proctor.Grader{must(similarity.NewBLEU(similarity.BLEUOptions{})), chrf} {
				b.Run(fmt.Sprintf("%s/%s/%dx", g.Name(), shape, k), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(out) + len(exp)))
					for b.Loop() {
						g.Grade(b.Context(), s)
					}
				})
			}
		}
	}
}
