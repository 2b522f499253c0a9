package metric

import (
	"math"
	"math/rand/v2"
	"slices"
)

// ClusterSE is the mean of per-item scores with its cluster-robust
// standard error, for items that are not independent: several questions
// about one document, several turns of one conversation, variants of one
// template.
type ClusterSE struct {
	// Mean is the mean score over all items.
	Mean float64 `json:"mean"`
	// SE is the cluster-robust (CR1) standard error of Mean.
	SE float64 `json:"clustered_se"`
	// NaiveSE is the standard error that treats the items as independent:
	// sqrt(sum (y - mean)^2) / n, which for pass/fail items is
	// sqrt(p(1-p)/n).
	NaiveSE float64 `json:"naive_se"`
	// DesignEffect is CR0 variance / NaiveSE^2: how many times the
	// clustering inflates the variance. Above 1 the clusters make the
	// estimate less precise than its item count suggests; the effective
	// number of items is N / DesignEffect.
	DesignEffect float64 `json:"design_effect"`
	// N and Clusters are the item and cluster counts.
	N        int `json:"n"`
	Clusters int `json:"clusters"`
}

// ClusteredMean returns the mean of values and its cluster-robust
// standard error, with cluster[i] naming the cluster of values[i]. The
// variance is the sandwich estimator sum_g (sum_{i in g} (y_i - mean))^2 /
// n^2 (CR0; equation 4 of Miller (2024), "Adding Error Bars to Evals",
// arXiv:2411.00640, with the 1/n variance), times G/(G-1) for G clusters
// (CR1): the standard error of the constant in statsmodels'
// OLS(y, ones).fit(cov_type="cluster") and of Stata's
// `mean y, vce(cluster g)`. With one cluster, or fewer than two items,
// ok is false: the variance between clusters cannot be estimated.
func ClusteredMean(values []float64, cluster []string) (ClusterSE, bool) {
	if len(cluster) != len(values) {
		return ClusterSE{N: len(values)}, false
	}
	sums, squares, counts := clusterTotals(values, cluster)
	var acc ClusterSums
	for k := range sums {
		acc.AddCluster(sums[k], squares[k], int(counts[k]))
	}
	return acc.Result()
}

// ClusterSums accumulates clusters one at a time, each by its total, sum
// of squares and size, so a report can compute [ClusteredMean] without
// keeping every item. The zero value is empty and ready to use.
type ClusterSums struct {
	n, g                   int
	sum, sumSq, s2, sn, n2 float64
}

// AddCluster adds one cluster of n items whose values total sum and whose
// squares total sumSq. An item no other item shares a cluster with is a
// cluster of one: AddCluster(y, y*y, 1).
func (c *ClusterSums) AddCluster(sum, sumSq float64, n int) {
	if n <= 0 {
		return
	}
	c.n += n
	c.g++
	c.sum += sum
	c.sumSq += sumSq
	c.s2 += sum * sum
	c.sn += sum * float64(n)
	c.n2 += float64(n) * float64(n)
}

// Result returns the clustered mean of the clusters added; see
// [ClusteredMean].
func (c ClusterSums) Result() (ClusterSE, bool) {
	if c.n < 2 {
		return ClusterSE{N: c.n, Clusters: c.g}, false
	}
	nf := float64(c.n)
	mean := c.sum / nf
	// sum_g (S_g - n_g mean)^2 and sum_i (y_i - mean)^2, expanded.
	meat := max(0, c.s2-2*mean*c.sn+mean*mean*c.n2)
	ss := max(0, c.sumSq-nf*mean*mean)
	out := ClusterSE{Mean: mean, N: c.n, Clusters: c.g, NaiveSE: math.Sqrt(ss) / nf}
	if c.g < 2 {
		return out, false
	}
	cr0 := meat / (nf * nf)
	out.SE = math.Sqrt(cr0 * float64(c.g) / float64(c.g-1))
	out.DesignEffect = 1
	if ss > 0 {
		out.DesignEffect = cr0 / (ss / (nf * nf))
	}
	return out, true
}

// Bootstrap is a percentile interval and standard error from resampling.
type Bootstrap struct {
	// Low and High bound the central conf share of the resampled means.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// SE is the standard deviation of the resampled means.
	SE float64 `json:"se"`
	// Reps is the number of resamples; Seed seeds them.
	Reps int    `json:"reps"`
	Seed uint64 `json:"seed"`
}

// ClusterBootstrap resamples whole clusters with replacement reps times
// and returns the percentile interval at level conf and the standard
// error of the mean of values over each resample (the cluster bootstrap
// of Field and Welsh 2007, "Bootstrapping clustered data", JRSS B
// 69:369-390). Clusters are taken in the order they first appear and the
// generator is PCG seeded with seed, so the same inputs and seed give the
// same interval on every platform. ok is false with fewer than two
// clusters, reps < 2 or conf outside (0, 1).
func ClusterBootstrap(values []float64, cluster []string, reps int, seed uint64, conf float64) (Bootstrap, bool) {
	sums, _, counts := clusterTotals(values, cluster)
	return ClusterBootstrapTotals(sums, counts, reps, seed, conf)
}

// ClusterBootstrapTotals is [ClusterBootstrap] over clusters given by
// their totals: sums[k] is the total of cluster k's counts[k] items.
func ClusterBootstrapTotals(sums, counts []float64, reps int, seed uint64, conf float64) (Bootstrap, bool) {
	g := len(sums)
	if g < 2 || len(counts) != g || reps < 2 || !(conf > 0 && conf < 1) {
		return Bootstrap{Reps: reps, Seed: seed}, false
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	means := make([]float64, reps)
	for r := range means {
		var s, c float64
		for range g {
			k := rng.IntN(g)
			s += sums[k]
			c += counts[k]
		}
		means[r] = s / c
	}
	slices.Sort(means)
	b := Bootstrap{Reps: reps, Seed: seed, SE: stddev(means)}
	b.Low = quantileSorted(means, (1-conf)/2)
	b.High = quantileSorted(means, 1-(1-conf)/2)
	return b, true
}

// clusterTotals returns each cluster's sum, sum of squares and count, in
// first-seen order.
func clusterTotals(values []float64, cluster []string) (sums, squares, counts []float64) {
	if len(cluster) != len(values) {
		return nil, nil, nil
	}
	at := map[string]int{}
	for i, v := range values {
		k, ok := at[cluster[i]]
		if !ok {
			k = len(sums)
			at[cluster[i]] = k
			sums, squares, counts = append(sums, 0), append(squares, 0), append(counts, 0)
		}
		sums[k] += v
		squares[k] += v * v
		counts[k]++
	}
	return sums, squares, counts
}

// quantileSorted is the linear-interpolation quantile q of sorted xs
// (type 7 of Hyndman and Fan 1996, numpy's default).
func quantileSorted(xs []float64, q float64) float64 {
	h := q * float64(len(xs)-1)
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[lo] + (h-float64(lo))*(xs[lo+1]-xs[lo])
}

// stddev is the sample standard deviation (n - 1) of xs.
func stddev(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += sq(x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}
