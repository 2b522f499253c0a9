package metric

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// GLEU values from NLTK's doctests, nltk/nltk nltk/translate/gleu_score.py
// at commit 031a862a68853167c1be5aa971563f6069fd6d4d. The doctests print
// with ELLIPSIS (0.0909...), so each value is checked to the digits shown
// and, GLEU being a ratio of counts, against the exact fraction derived
// by hand from the algorithm.
func TestGLEUNLTK(t *testing.T) {
	ref1 := "It is a guide to action that ensures that the military will forever heed Party commands"
	hyp1 := "It is a guide to action which ensures that the military always obeys the commands of the party"
	hyp2 := "It is to insure the troops forever hearing the activity guidebook that party direct"
	tests := []struct {
		name  string
		got   float64
		shown string
		num   int
		den   int
	}{
		{"the the the", SentenceGLEU("the the the the the the the", []string{"the cat is on the mat"}), "0.0909", 2, 22},
		{"hyp1", SentenceGLEU(hyp1, []string{ref1}), "0.4393", 29, 66},
		{"hyp2", SentenceGLEU(hyp2, []string{ref1}), "0.1206", 7, 58},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s := strconv.FormatFloat(tt.got, 'f', 10, 64); !strings.HasPrefix(s, tt.shown) {
				t.Errorf("got %s, want %s...", s, tt.shown)
			}
			if want := float64(tt.num) / float64(tt.den); math.Abs(tt.got-want) > 1e-15 {
				t.Errorf("got %v, want %d/%d", tt.got, tt.num, tt.den)
			}
		})
	}
	hypC1 := "It is a guide to action which ensures that the military always obeys the commands of the party"
	refs1 := []string{
		"It is a guide to action that ensures that the military will forever heed Party commands",
		"It is the guiding principle which guarantees the military forces always being under the command of the Party",
		"It is the practical guide for the army always to heed the directions of the party",
	}
	hypC2 := "he read the book because he was interested in world history"
	ref2 := "he was interested in world history because he read the book"
	got, err := CorpusGLEU([]string{hypC1, hypC2}, [][]string{refs1, {ref2}})
	if err != nil {
		t.Fatal(err)
	}
	if s := strconv.FormatFloat(got, 'f', 10, 64); !strings.HasPrefix(s, "0.5673") {
		t.Errorf("corpus_gleu: got %s, want 0.5673...", s)
	}
	mean := (SentenceGLEU(hypC1, refs1[:1]) + SentenceGLEU(hypC2, []string{ref2})) / 2
	if s := strconv.FormatFloat(mean, 'f', 10, 64); !strings.HasPrefix(s, "0.6144") {
		t.Errorf("mean sentence_gleu: got %s, want 0.6144...", s)
	}
	if got := SentenceGLEU("", []string{""}); got != 0 {
		t.Errorf("empty: got %v, want 0 (NLTK's corner case)", got)
	}
}

// rapidfuzz's tests: rapidfuzz/RapidFuzz tests/test_fuzz.py (commit
// 01c36f9f), tests/distance/test_Indel.py (26fb8fe5) and
// tests/distance/test_Levenshtein.py (0d97eec1), plus the README's
// fuzz.ratio("this is a test", "this is a test!") = 96.55172413793103.
// Scores here are rapidfuzz's divided by 100.
func TestEditDistanceRapidfuzz(t *testing.T) {
	ratio := []struct {
		a, b string
		want float64
	}{
		{"new york mets", "new york mets", 1},
		{"", "", 1},
		{"ÁÄ", "ABCD", 0},
		{"ÁÄ", "ÁÄ", 1},
		{"this is a test", "this is a test!", 0.9655172413793103},
		{"South Korea", "North Korea", 1 - 4.0/22},
	}
	for _, tt := range ratio {
		for _, p := range [][2]string{{tt.a, tt.b}, {tt.b, tt.a}} { // symmetric
			if got := IndelSimilarity(p[0], p[1]); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("IndelSimilarity(%q, %q) = %v, want %v", p[0], p[1], got, tt.want)
			}
		}
	}
	if got := IndelSimilarity("new york mets", "new YORK mets"); got == 1 {
		t.Error(`IndelSimilarity("new york mets", "new YORK mets") = 1, want < 1 (case-sensitive)`)
	}
	lev := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"aaaa", "aaaa", 0},
		{"ÁÄ", "ABCD", 4},
		{"ÁÄ", "ÁÄ", 0},
		{"kitten", "sitting", 3},
	}
	for _, tt := range lev {
		if got := LevenshteinDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("LevenshteinDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := LevenshteinSimilarity("kitten", "sitting"); math.Abs(got-(1-3.0/7)) > 1e-15 {
		t.Errorf("LevenshteinSimilarity(kitten, sitting) = %v, want 4/7", got)
	}
	if got := LevenshteinSimilarity("", ""); got != 1 {
		t.Errorf("LevenshteinSimilarity of two empty strings = %v, want 1", got)
	}
	long := strings.Repeat("abcdefghij", 6554) // 64 KB
	if got := LevenshteinDistance(long, long[1:]+"x"); got != 2 {
		t.Errorf("64 KB shifted by one: got %d, want 2", got)
	}
}

// SQuAD v2's evaluate-v2.0.py semantics (normalize_answer, compute_exact,
// compute_f1, the best over the gold answers); values by hand.
func TestTokenF1SQuAD(t *testing.T) {
	tests := []struct {
		name  string
		pred  string
		golds []string
		f1    float64
		exact bool
	}{
		{"articles and punctuation ignored", "The Eiffel Tower!", []string{"eiffel tower"}, 1, true},
		{"partial overlap", "the cat sat", []string{"a cat sat down"}, 2 * (1.0 * 2 / 3) / (1 + 2.0/3), false},
		{"best of golds", "Paris", []string{"London", "paris, France", "Paris"}, 1, true},
		{"multiplicity counted", "x x y", []string{"x y y"}, 2.0 / 3, false},
		{"no overlap", "x", []string{"y"}, 0, false},
		{"no answer agreed", "", []string{""}, 1, true},
		{"empty gold dropped", "", []string{"", "the"}, 1, true},
		{"prediction empty, gold not", "", []string{"yes"}, 0, false},
		{"punctuation only", "?!.", []string{"..."}, 1, true},
		{"article inside word kept", "theatre an", []string{"theatre"}, 1, true},
		{"unicode dash keeps the article apart", "the—cat", []string{"—cat"}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TokenF1(tt.pred, tt.golds); math.Abs(got-tt.f1) > 1e-15 {
				t.Errorf("F1 got %v, want %v", got, tt.f1)
			}
			if got := SQuADExact(tt.pred, tt.golds); got != tt.exact {
				t.Errorf("exact got %v, want %v", got, tt.exact)
			}
		})
	}
}
