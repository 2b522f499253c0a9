package metric

import "math"

// AddCoincidences adds one unit's values to the coincidence matrix o of
// Krippendorff's alpha: each value is an index into o (which must be
// square and hold every value's row), one per coder who coded the unit,
// missing values left out. Each ordered pair of values from different
// coders adds 1/(m-1) to o, m being the unit's number of values. A unit
// with fewer than two values is not pairable and adds nothing;
// AddCoincidences reports whether it added.
func AddCoincidences(o [][]float64, vals []int) bool {
	m := len(vals)
	if m < 2 {
		return false
	}
	w := 1 / float64(m-1)
	for a, x := range vals {
		for b, y := range vals {
			if a != b {
				o[x][y] += w
			}
		}
	}
	return true
}

// KrippendorffAlphaNominal returns Krippendorff's alpha for nominal data
// from a square coincidence matrix o (built with [AddCoincidences]):
// 1 - (n-1) * sum_{c!=k} o_ck / sum_{c!=k} n_c n_k, as in Krippendorff,
// "Computing Krippendorff's Alpha-Reliability" (2011). 1 is perfect
// agreement, 0 agreement at chance, below 0 systematic disagreement. ok
// is false when alpha is undefined: no value was paired, or every paired
// value is the same.
func KrippendorffAlphaNominal(o [][]float64) (alpha float64, ok bool) {
	nc := make([]float64, len(o))
	var n, disagree float64
	for c := range o {
		for k := range o {
			nc[c] += o[c][k]
			if c != k {
				disagree += o[c][k]
			}
		}
		n += nc[c]
	}
	var expect float64
	for c := range nc {
		for k := range nc {
			if c != k {
				expect += nc[c] * nc[k]
			}
		}
	}
	if n <= 1 || expect == 0 {
		return 0, false
	}
	a := 1 - (n-1)*disagree/expect
	if math.IsNaN(a) {
		return 0, false
	}
	return a, true
}
