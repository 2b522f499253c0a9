package metric_test

import (
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

func TestWilson(t *testing.T) {
	// Reference values: statsmodels proportion_confint(k, n, alpha=0.05,
	// method="wilson"); 8/10 -> (0.4902, 0.9433) is also the textbook example
	// (Brown, Cai and DasGupta 2001 give the formula).
	tests := []struct {
		name           string
		k, n           int
		wantLo, wantHi float64
	}{
		{"8 of 10", 8, 10, 0.4902, 0.9433},
		{"0 of 10", 0, 10, 0, 0.2775},
		{"10 of 10", 10, 10, 0.7225, 1},
		{"1 of 2", 1, 2, 0.0945, 0.9055},
		{"50 of 100", 50, 100, 0.4038, 0.5962},
		{"981 of 1000", 981, 1000, 0.9705, 0.9878},
		{"none", 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := metric.Wilson(tt.k, tt.n)
			if math.Abs(lo-tt.wantLo) > 5e-5 || math.Abs(hi-tt.wantHi) > 5e-5 {
				t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.k, tt.n, lo, hi, tt.wantLo, tt.wantHi)
			}
		})
	}
}

func TestPassAtK(t *testing.T) {
	// Want values are the closed forms 1 - C(n-c,k)/C(n,k) and C(c,k)/C(n,k)
	// (Chen et al. 2021, eq. 1; pass^k as in tau-bench), evaluated with
	// Python's math.comb.
	tests := []struct {
		name            string
		n, c, k         int
		wantAt, wantHat float64
	}{
		{"5 of 2 passed, k=2", 5, 2, 2, 0.7, 0.1},
		{"10 of 5 passed, k=5", 10, 5, 5, 1 - 1.0/252, 1.0 / 252},
		{"all passed", 3, 3, 3, 1, 1},
		{"none passed", 3, 0, 1, 0, 0},
		{"k=1 is the pass share", 4, 1, 1, 0.25, 0.25},
		{"k=n, one failed", 3, 2, 3, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, hat := metric.PassAtK(tt.n, tt.c, tt.k), metric.PassHatK(tt.n, tt.c, tt.k)
			if math.Abs(at-tt.wantAt) > 1e-12 || math.Abs(hat-tt.wantHat) > 1e-12 {
				t.Errorf("pass@%d, pass^%d (n=%d, c=%d) = %v, %v; want %v, %v", tt.k, tt.k, tt.n, tt.c, at, hat, tt.wantAt, tt.wantHat)
			}
		})
	}
	if !math.IsNaN(metric.PassAtK(2, 1, 3)) || !math.IsNaN(metric.PassHatK(2, 1, 0)) {
		t.Errorf("k outside [1, n] should be NaN")
	}
}
