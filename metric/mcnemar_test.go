package metric_test

import (
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

func TestMcNemarExact(t *testing.T) {
	// Want values are exact binomial sums, 2 * sum_{i<=min(b,c)} C(n,i) / 2^n,
	// computed with Python's fractions.Fraction and math.comb.
	tests := []struct {
		name string
		b, c int
		want float64
		why  string
	}{
		{"10 vs 2", 10, 2, 0.03857421875, "2*79/4096"},
		{"2 vs 10", 2, 10, 0.03857421875, "symmetric in b and c"},
		{"6 vs 0", 6, 0, 0.03125, "2/64: six one-way changes"},
		{"5 vs 5", 5, 5, 1, "balanced: capped at 1"},
		{"1 vs 0", 1, 0, 1, "one change tells nothing"},
		{"none", 0, 0, 1, "no discordant pairs"},
		{"20 vs 7", 20, 7, 0.0191572904586792, "moderate n"},
		{"100 vs 80", 100, 80, 0.1565314695781511, "large n stays exact in log space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := metric.McNemarExact(tt.b, tt.c)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("McNemarExact(%d, %d) = %.15g, want %.15g (%s)", tt.b, tt.c, got, tt.want, tt.why)
			}
		})
	}
}
