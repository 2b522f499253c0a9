package assign

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMax tries every injective assignment of the smaller side.
func bruteMax(w [][]float64) float64 {
	n, m := len(w), len(w[0])
	best := math.Inf(-1)
	used := make([]bool, m)
	var rec func(i int, sum float64, skipped int)
	rec = func(i int, sum float64, skipped int) {
		if i == n {
			best = max(best, sum)
			return
		}
		for j := range m {
			if !used[j] {
				used[j] = true
				rec(i+1, sum+w[i][j], skipped)
				used[j] = false
			}
		}
		if skipped < n-m {
			rec(i+1, sum, skipped+1)
		}
	}
	rec(0, 0, 0)
	return best
}

func TestMaxAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, m := 1+r.IntN(5), 1+r.IntN(5)
		w := make([][]float64, n)
		for i := range w {
			w[i] = make([]float64, m)
			for j := range w[i] {
				w[i][j] = r.Float64()
			}
		}
		got := Max(w)
		sum, seen := 0.0, map[int]bool{}
		for i, j := range got {
			if j < 0 {
				continue
			}
			if seen[j] {
				t.Fatalf("trial %d: column %d assigned twice", trial, j)
			}
			seen[j] = true
			sum += w[i][j]
		}
		if len(seen) != min(n, m) {
			t.Fatalf("trial %d: %d pairs, want %d", trial, len(seen), min(n, m))
		}
		if want := bruteMax(w); math.Abs(sum-want) > 1e-9 {
			t.Errorf("trial %d (%dx%d): total %v, want %v", trial, n, m, sum, want)
		}
	}
}
