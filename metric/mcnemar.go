package metric

import "math"

// McNemarExact returns the exact two-sided McNemar p-value for b and c
// discordant pairs: twice the binomial(b+c, 1/2) probability of a count at
// most min(b, c), capped at 1. With no discordant pairs it is 1.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n <= 0 || b < 0 || c < 0 {
		return 1
	}
	k := min(b, c)
	// Sum C(n, i) / 2^n for i <= k in log space, so large n neither
	// overflows nor underflows term by term.
	var p float64
	lg2 := float64(n) * math.Ln2
	for i := 0; i <= k; i++ {
		p += math.Exp(logChoose(n, i) - lg2)
	}
	return min(1, 2*p)
}

// logChoose returns ln C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
