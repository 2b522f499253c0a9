package metric_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// Krippendorff's alpha (nominal) against published worked examples.
func TestKrippendorffAlphaNominalPublished(t *testing.T) {
	const m = -1 // missing
	tests := []struct {
		name  string
		data  [][]int // coders x units
		vals  int
		alpha float64
		tol   float64
	}{
		// Krippendorff, K. (2011). Computing Krippendorff's Alpha-
		// Reliability. Annenberg School for Communication, University of
		// Pennsylvania, https://repository.upenn.edu/asc_papers/43, section
		// A: binary data, 2 observers, 10 units, no missing data:
		// alpha = 1 - (20-1) 4 / (14 * 6) = 0.095. The two values are a
		// panel's pass and fail.
		{"Krippendorff 2011 binary", [][]int{
			{0, 1, 0, 0, 0, 0, 0, 0, 1, 0},
			{1, 1, 1, 0, 0, 1, 0, 0, 0, 0},
		}, 2, 0.095, 0.0005},
		// The same paper, section C: 4 observers, 12 units, values 1-5,
		// nominal alpha = 0.743. The same data and value are in the
		// doctest of pln-fing-udelar/fast-krippendorff
		// src/krippendorff/krippendorff.py (commit
		// 2d409e148c01381b6056b328cc8acdd514ab6433).
		{"Krippendorff 2011 nominal", [][]int{
			{1, 2, 3, 3, 2, 1, 4, 1, 2, m, m, m},
			{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, m, 3},
			{m, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, m},
			{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, m},
		}, 6, 0.743, 0.0005},
		// Wikipedia, "Krippendorff's alpha", A computational example: 3
		// coders, 15 units, nominal alpha = 0.691; the Python package
		// krippendorff gives 0.691358 to six places
		// (pln-fing-udelar/fast-krippendorff tests/test_krippendorff.py,
		// test_nominal_metric_reliability_data, commit
		// 13c1938f1297dc013b12e2655d2b8e01f1efc0d0).
		{"Wikipedia", [][]int{
			{m, m, m, m, m, 3, 4, 1, 2, 1, 1, 3, 3, m, 3},
			{1, m, 2, 1, 3, 3, 4, 3, m, m, m, m, m, m, m},
			{m, m, 2, 1, 3, 4, 4, m, 2, 1, 1, 3, 3, m, 4},
		}, 5, 0.691358, 0.0000005},
		// The same file, test_string_labels_nominal: 3 coders, 4 units of
		// pos, neg and neu (here 0, 1, 2), nominal alpha 0.722222.
		{"krippendorff string labels", [][]int{
			{0, 1, 2, m},
			{0, 1, 2, 0},
			{0, 1, 0, 0},
		}, 3, 0.722222, 0.0000005},
	}
	for _, tt := range tests {
		o := make([][]float64, tt.vals)
		for i := range o {
			o[i] = make([]float64, tt.vals)
		}
		for u := range tt.data[0] {
			var vals []int
			for _, coder := range tt.data {
				if coder[u] != m {
					vals = append(vals, coder[u])
				}
			}
			metric.AddCoincidences(o, vals)
		}
		a, ok := metric.KrippendorffAlphaNominal(o)
		if !ok || math.Abs(a-tt.alpha) > tt.tol {
			t.Errorf("%s: alpha %v (ok %v), want %v", tt.name, a, ok, tt.alpha)
		}
	}
}

// Alpha is undefined, not a number, when nothing was paired or every
// paired value is the same (the Python package krippendorff refuses both:
// test_error_insufficient_coders_per_unit and
// test_error_single_value_in_domain, commit
// 13c1938f1297dc013b12e2655d2b8e01f1efc0d0).
func TestKrippendorffAlphaNominalUndefined(t *testing.T) {
	for name, o := range map[string][][]float64{
		"all pass":   {{4, 0}, {0, 0}},
		"all fail":   {{0, 0}, {0, 6}},
		"no pairs":   {{0, 0}, {0, 0}},
		"no values":  {},
		"one value":  {{1}},
		"not a cell": {{math.NaN(), 1}, {1, 2}},
	} {
		if a, ok := metric.KrippendorffAlphaNominal(o); ok {
			t.Errorf("%s: alpha %v, want undefined", name, a)
		}
	}
}

// A unit adds 1/(m-1) per ordered pair of its m values; a unit of one
// value adds nothing.
func TestAddCoincidences(t *testing.T) {
	o := [][]float64{{0, 0}, {0, 0}}
	if metric.AddCoincidences(o, []int{1}) || o[1][1] != 0 {
		t.Fatalf("a lone value was paired: %v", o)
	}
	if !metric.AddCoincidences(o, []int{0, 0, 1}) {
		t.Fatal("a unit of three values was not paired")
	}
	want := [][]float64{{1, 1}, {1, 0}} // pairs (0,0) x2, (0,1) x2, (1,0) x2, each 1/2
	for c := range want {
		for k := range want[c] {
			if o[c][k] != want[c][k] {
				t.Errorf("o = %v, want %v", o, want)
			}
		}
	}
}

func ExampleKrippendorffAlphaNominal() {
	// Three judges' votes (0 pass, 1 fail) on four samples; the third
	// judge abstained on the last one.
	votes := [][]int{{0, 0, 0}, {1, 1, 1}, {0, 1, 0}, {1, 1}}
	o := [][]float64{{0, 0}, {0, 0}}
	for _, unit := range votes {
		metric.AddCoincidences(o, unit)
	}
	if a, ok := metric.KrippendorffAlphaNominal(o); ok {
		fmt.Printf("alpha %.3f\n", a)
	}
	// Output: alpha 0.667
}
