package similarity

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/metric"
)

func TestEditSimilarityTooLong(t *testing.T) {
	huge := strings.Repeat("x", 1<<18)
	gr := must(NewLevenshtein(EditSimilarityOptions{References: []string{huge}})).Grade(t.Context(), &proctor.Sample{Output: huge})
	if gr.Status != proctor.StatusNotGraded {
		t.Errorf("2^36 code-point pairs: got %v, want not_graded", gr.Status)
	}
}

// TestScoreGradersRefuseBadThreshold: every grader that compares a 0-1
// score with a threshold refuses, when built, a threshold outside [0, 1]
// or NaN, naming the grader and the value. Before, the constructors took
// it: a threshold above 1 or NaN failed every output and a negative one
// passed every output, the unrelated one below included. The spec path
// keeps its own error, word for word, for the same values; 0, 1 and nil
// (the documented default) are still taken.
func TestScoreGradersRefuseBadThreshold(t *testing.T) {
	loc := metric.Locations{"a.go": {{Start: 1, End: 2}}}
	unrelated := &proctor.Sample{Output: "zzzz qqqq", Expected: proctor.Ptr("a.go:1-2 the cat sat"), References: []string{"a.go:1-2 the cat sat"},
		Context: []string{"zzzz"}}
	tests := []struct {
		typ   string  // the spec type, also the name in the error
		def   float64 // the default threshold
		build func(th *float64) (proctor.Grader, error)
		spec  string // the spec's other options, "" when it has none
	}{
		{"levenshtein", 0.5, func(th *float64) (proctor.Grader, error) { return NewLevenshtein(EditSimilarityOptions{Threshold: th}) }, ""},
		{"fuzzy_match", 0.5, func(th *float64) (proctor.Grader, error) { return NewFuzzyMatch(EditSimilarityOptions{Threshold: th}) }, ""},
		{"jaro", 0.5, func(th *float64) (proctor.Grader, error) { return NewJaro(EditSimilarityOptions{Threshold: th}) }, ""},
		{"jaro_winkler", 0.5, func(th *float64) (proctor.Grader, error) { return NewJaroWinkler(JaroWinklerOptions{Threshold: th}) }, ""},
		{"hamming", 0.5, func(th *float64) (proctor.Grader, error) { return NewHamming(EditSimilarityOptions{Threshold: th}) }, ""},
		{"gleu", 0.5, func(th *float64) (proctor.Grader, error) { return NewGLEU(GLEUOptions{Threshold: th}) }, ""},
		{"bleu", 0.5, func(th *float64) (proctor.Grader, error) { return NewBLEU(BLEUOptions{Threshold: th}) }, ""},
		{"chrf", 0.5, func(th *float64) (proctor.Grader, error) { return NewChrF(ChrFOptions{Threshold: th}) }, ""},
		{"rouge", 0.5, func(th *float64) (proctor.Grader, error) { return NewRouge(RougeOptions{Threshold: th}) }, ""},
		{"token_f1", 0.5, func(th *float64) (proctor.Grader, error) { return NewTokenF1(TokenF1Options{Threshold: th}) }, ""},
		{"semantic_similarity", 0.8, func(th *float64) (proctor.Grader, error) {
			return NewSemanticSimilarity(nil, SemanticSimilarityOptions{Threshold: th})
		}, ""},
		{"localization_f1", 0.5, func(th *float64) (proctor.Grader, error) {
			return NewLocalizationF1(LocalizationF1Options{Threshold: th, Expected: loc})
		}, `, "expected": "a.go:1-2"`},
		{"context_f1", 0.5, func(th *float64) (proctor.Grader, error) {
			return NewContextF1(ContextF1Options{Threshold: th, Expected: []string{"the cat"}})
		}, `, "expected_contexts": ["the cat"]`},
		{"json_diff", 0.5, func(th *float64) (proctor.Grader, error) { return NewJSONDiff(JSONDiffOptions{Threshold: th}) }, ""},
		{"numeric_diff", 0.5, func(th *float64) (proctor.Grader, error) {
			return NewNumericDiff(NumericDiffOptions{Threshold: th, Expected: proctor.Ptr(42.0)})
		}, `, "expected": 42`},
		{"list_contains", 0.5, func(th *float64) (proctor.Grader, error) {
			return NewListContains(ListContainsOptions{Threshold: th, Expected: []string{"the cat"}})
		}, `, "expected": ["the cat"]`},
	}
	c := proctor.NewCompiler(Types())
	for _, tt := range tests {
		for _, bad := range []float64{-0.5, -1e-9, 1.5, 1 + 1e-9, math.NaN(), math.Inf(1), math.Inf(-1)} {
			_, err := tt.build(&bad)
			want := fmt.Sprintf("similarity: %s threshold %v: want 0 to 1", tt.typ, bad)
			if err == nil || err.Error() != want {
				t.Errorf("%s threshold %v: got %v, want %q", tt.typ, bad, err, want)
			}
			if math.IsNaN(bad) || math.IsInf(bad, 0) {
				continue // JSON has no such number
			}
			_, err = c.Compile(fmt.Appendf(nil, `{"type": %q, "threshold": %v%s}`, tt.typ, bad, tt.spec))
			want = fmt.Sprintf(`option "threshold": want a number in [0, 1], got %v`, bad)
			var se *proctor.SpecError
			if !errors.As(err, &se) || !strings.HasSuffix(err.Error(), want) {
				t.Errorf("%s spec threshold %v: got %v, want a SpecError ending %q", tt.typ, bad, err, want)
			}
		}
		// A negative threshold passed the unrelated output; the default
		// and the highest threshold still fail it, and 0 is still built.
		for _, th := range []*float64{nil, proctor.Ptr(0.0), proctor.Ptr(1.0)} {
			g, err := tt.build(th)
			if err != nil {
				t.Errorf("%s threshold %v: %v", tt.typ, kit.Deref(th, tt.def), err)
				continue
			}
			if gr := g.Grade(t.Context(), unrelated); th != nil && *th == 0 {
				continue
			} else if gr.Status != proctor.StatusFailed {
				t.Errorf("%s threshold %v on an unrelated output: got %v, want failed", tt.typ, kit.Deref(th, tt.def), gr)
			}
		}
	}
}

// TestLevenshteinRefusesNegativeMaxDistance: a negative MaxDistance was
// read as 0 though the option says it must not be negative; now it is
// refused, and 0 is still taken.
func TestLevenshteinRefusesNegativeMaxDistance(t *testing.T) {
	g, err := NewLevenshtein(EditSimilarityOptions{MaxDistance: proctor.Ptr(-1)})
	if want := "similarity: levenshtein max distance -1: want 0 or more"; err == nil || err.Error() != want || g != nil {
		t.Errorf("MaxDistance -1: got %v, %v; want %q", g, err, want)
	}
	g, err = NewLevenshtein(EditSimilarityOptions{MaxDistance: proctor.Ptr(0)})
	if err != nil {
		t.Fatal(err)
	}
	if gr := g.Grade(t.Context(), &proctor.Sample{Output: "kitten", Expected: proctor.Ptr("kitten")}); gr.Status != proctor.StatusPassed {
		t.Errorf("MaxDistance 0, same text: got %v", gr)
	}
}
