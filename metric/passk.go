package metric

import "math"

// z95 is the standard normal quantile for a two-sided 95% interval
// (scipy.stats.norm.ppf(0.975)).
const z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval for passed successes out of
// n trials. With n = 0 the interval is the whole [0, 1]. The bounds are
// clamped to [0, 1].
//
// It matches statsmodels' proportion_confint(passed, n, method="wilson").
func Wilson(passed, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(passed) / float64(n)
	nf := float64(n)
	z2 := z95 * z95
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return max(0, center-half), min(1, center+half)
}

// PassAtK is the unbiased estimator of pass@k from Chen et al. (2021),
// "Evaluating Large Language Models Trained on Code": the probability that
// at least one of k attempts drawn without replacement from n attempts, c
// of which passed, passes: 1 - C(n-c, k) / C(n, k). It is NaN when k < 1 or
// k > n.
func PassAtK(n, c, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	// 1 - prod_{i=n-c+1}^{n} (1 - k/i), the numerically stable form of the
	// paper's reference code.
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod
}

// PassHatK is pass^k: the probability that all of k attempts drawn without
// replacement from n attempts, c of which passed, pass: C(c, k) / C(n, k).
// With k = n it is 1 when every attempt passed and 0 otherwise. It is NaN
// when k < 1 or k > n.
func PassHatK(n, c, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	if c < k {
		return 0
	}
	prod := 1.0
	for i := range k {
		prod *= float64(c-i) / float64(n-i)
	}
	return prod
}
