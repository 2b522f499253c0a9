package metric

import (
	"math"

	"github.com/proctorhq/proctor/internal/assign"
)

// NumericDiff returns autoevals' NumericDiff of output against expected:
// 1 when both are 0, else 1 - |expected - output| / (|expected| +
// |output|), which is 0 for numbers of opposite signs. Values too large to
// add are scaled first, so the result is never NaN for finite inputs.
func NumericDiff(output, expected float64) float64 {
	if output == 0 && expected == 0 {
		return 1
	}
	d, s := math.Abs(expected-output), math.Abs(expected)+math.Abs(output)
	if math.IsInf(d, 0) || math.IsInf(s, 0) {
		m := max(math.Abs(expected), math.Abs(output))
		e, o := expected/m, output/m
		d, s = math.Abs(e-o), math.Abs(e)+math.Abs(o)
	}
	return 1 - d/s
}

// ListContains returns autoevals' ListContains score of the output list
// against the expected one: every output item is scored against every
// expected item with sim, the one-to-one pairing with the highest total
// is taken, and the total is divided by the longer list's length (the
// expected list's with allowExtra, so extra output items cost nothing),
// then held to [0, 1]. Two empty lists score 1, one empty list 0. It calls
// sim len(output)·len(expected) times, and the pairing takes time cubic in
// the longer list's length.
func ListContains(output, expected []string, allowExtra bool, sim func(a, b string) float64) float64 {
	switch {
	case len(output) == 0 && len(expected) == 0:
		return 1
	case len(output) == 0 || len(expected) == 0:
		return 0
	}
	w := make([][]float64, len(output))
	for i, o := range output {
		w[i] = make([]float64, len(expected))
		for j, e := range expected {
			w[i][j] = sim(o, e)
		}
	}
	total := 0.0
	for i, j := range assign.Max(w) {
		if j >= 0 {
			total += w[i][j]
		}
	}
	den := max(len(output), len(expected))
	if allowExtra {
		den = len(expected)
	}
	return min(max(total/float64(den), 0), 1)
}
