package metric

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/porter"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// Values from Google's rouge-score test suite,
// google-research/google-research rouge/rouge_scorer_test.py at commit
// 066e6a12a3817e45919458090102abfc0a09d287; its test data
// (rouge/testdata/target.txt, prediction.txt and
// pyrouge_files/{target,prediction}_multi.0.txt at commits 10bf941a,
// 4c470233 and e30f540d) is copied to testdata/rouge.
// Values checked there to 5 places (ROUGE-1.5.5 runs) are rational; the
// exact fraction is given beside each.

func readRougeData(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "rouge", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lines(s string) []string {
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

func TestRougeScorerReference(t *testing.T) {
	targets := lines(readRougeData(t, "target.txt"))
	preds := lines(readRougeData(t, "prediction.txt"))
	multiT := readRougeData(t, "target_multi.0.txt")
	multiP := readRougeData(t, "prediction_multi.0.txt")
	type prf struct{ p, r, f float64 }
	tests := []struct {
		name         string
		variant      string
		stem         bool
		target, pred string
		want         prf
		tol          float64
	}{
		{"testRouge1", "rouge1", false, "testing one two", "testing", prf{1, 1.0 / 3, 0.5}, 1e-12},
		{"testRougeEmpty rouge1", "rouge1", false, "testing one two", "", prf{}, 0},
		{"testRougeEmpty rouge2", "rouge2", false, "testing one two", "", prf{}, 0},
		{"testRougeEmpty rougeL", "rougeL", false, "testing one two", "", prf{}, 0},
		{"testRougeEmpty rougeLsum", "rougeLsum", false, "testing one two", "", prf{}, 0},
		{"testRouge2", "rouge2", false, "testing one two", "testing one", prf{1, 0.5, 2.0 / 3}, 1e-12},
		{"testRougeLConsecutive", "rougeL", false, "testing one two", "testing one", prf{1, 2.0 / 3, 0.8}, 1e-12},
		{"testRougeLNonConsecutive", "rougeL", false, "testing one two", "testing two", prf{1, 2.0 / 3, 0.8}, 1e-12},
		{"testMultipleRougeTypes rouge1", "rouge1", false, "testing one two", "testing one", prf{1, 2.0 / 3, 0.8}, 1e-12},
		// 11/16, 11/27
		{"testRouge1AgainstRouge155 #0", "rouge1", false, targets[0], preds[0], prf{0.68750, 0.40741, 0.51163}, 5e-6},
		// 17/26, 17/42
		{"testRouge1AgainstRouge155 #1", "rouge1", false, targets[1], preds[1], prf{0.65385, 0.40476, 0.50000}, 5e-6},
		{"testRouge1AgainstRouge155WithStemming #0", "rouge1", true, targets[0], preds[0], prf{0.68750, 0.40741, 0.51163}, 5e-6},
		// 18/26, 18/42
		{"testRouge1AgainstRouge155WithStemming #1", "rouge1", true, targets[1], preds[1], prf{0.69231, 0.42857, 0.52941}, 5e-6},
		// 8/15, 8/26
		{"testRouge2AgainstRouge155 #0", "rouge2", false, targets[0], preds[0], prf{0.53333, 0.30769, 0.39024}, 5e-6},
		// 12/25, 12/41
		{"testRouge2AgainstRouge155 #1", "rouge2", false, targets[1], preds[1], prf{0.48000, 0.29268, 0.36364}, 5e-6},
		{"testRouge2AgainstRouge155WithStemming #0", "rouge2", true, targets[0], preds[0], prf{0.53333, 0.30769, 0.39024}, 5e-6},
		{"testRouge2AgainstRouge155WithStemming #1", "rouge2", true, targets[1], preds[1], prf{0.48000, 0.29268, 0.36364}, 5e-6},
		{"testRougeLAgainstRouge155 #0", "rougeL", false, targets[0], preds[0], prf{0.68750, 0.40741, 0.51163}, 5e-6},
		{"testRougeLAgainstRouge155 #1", "rougeL", false, targets[1], preds[1], prf{0.65385, 0.40476, 0.50000}, 5e-6},
		// 38/57, 38/104
		{"testRougeLSumAgainstRouge155WithStemming", "rougeLsum", true, multiT, multiP, prf{0.66667, 0.36538, 0.47205}, 5e-6},
		{"testRougeLsum", "rougeLsum", false, "w1 w2 w3 w4 w5", "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", prf{0.4, 0.8, 0.5333}, 5e-5},
		{"testRougeLsum empty prediction", "rougeLsum", false, "w1 w2 w3 w4 w5", "", prf{}, 0},
		{"testRougeLsum empty target", "rougeLsum", false, "", "w1", prf{}, 0},
		{"testRougeLsum non-word summary", "rougeLsum", false, "w1 w2 w3 w4 w5", "/", prf{}, 0},
		{"testValidRougeTypes rouge9", "rouge9", false, "testing one two", "testing", prf{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewRougeScorer(tt.variant, tt.stem)
			if err != nil {
				t.Fatal(err)
			}
			got := g.Score(tt.target, tt.pred)
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"precision", got.Precision, tt.want.p}, {"recall", got.Recall, tt.want.r}, {"fmeasure", got.FMeasure, tt.want.f}} {
				if d := math.Abs(c.got - c.want); d > tt.tol {
					t.Errorf("%s: got %.12f, want %.5f (diff %g)", c.what, c.got, c.want, d)
				}
			}
		})
	}
}

func TestRougeInvalidTypes(t *testing.T) {
	// testInvalidRougeTypes: rougen, rouge0 and rouge10 are errors.
	for _, v := range []string{"rougen", "rouge0", "rouge10", "rougel", ""} {
		if _, err := NewRougeScorer(v, false); err == nil {
			t.Errorf("NewRougeScorer(%q): got nil error", v)
		}
	}
}

// rouge/tokenize_test.py at 0c1bbe5f.
func TestRougeTokenizer(t *testing.T) {
	tests := []struct {
		in   string
		stem bool
		want string
	}{
		{"one Two three", false, "one two three"},
		{"one\n Two \nthree", false, "one two three"},
		{"Déjà-vu, ÉTÉ x2", false, "d j vu t x2"},                // non-ASCII letters separate tokens
		{"\u0130stanbul \u212Aelvin", false, "i stanbul kelvin"}, // Python's lower() of U+0130 is i + U+0307
		{"The runners were running quickly", true, "the runner were run quickli"},
		{"!!! ... ???", false, ""},
	}
	for _, tt := range tests {
		var stem func(string) string
		if tt.stem {
			stem = porter.Stem
		}
		if got := strings.Join(tokenize.Rouge(nil, tt.in, stem), " "); got != tt.want {
			t.Errorf("Rouge(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
