package reportfmt

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// ClusteredRate is a pass rate with its cluster-robust standard error:
// the pass rate of cases that come in clusters (a suite's cluster key),
// whose verdicts are not independent.
type ClusteredRate struct {
	metric.ClusterSE
	// Low and High are the 95% interval Mean ± 1.96 SE, clamped to [0, 1].
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Bootstrap is the cluster bootstrap's 95% percentile interval and
	// SE, when asked for ([Summary.Bootstrap]).
	Bootstrap *metric.Bootstrap `json:"bootstrap,omitempty"`
}

// BootstrapOptions asks for a cluster bootstrap beside the sandwich
// standard error: Reps resamples of whole clusters, seeded with Seed.
type BootstrapOptions struct {
	Reps int
	Seed uint64
}

// clusterStats accumulates the passed (1) and failed (0) cases of one
// pass rate by cluster. A case without a cluster is a cluster of its own
// and is added at once; named clusters are kept until the end, so memory
// grows with the number of clusters, not cases.
type clusterStats struct {
	named   map[string]*[2]int // cluster -> passed, measured
	singles metric.ClusterSums
	single  [2]int // passed, measured among the cases with no cluster
	any     bool   // some case named a cluster
}

func (cs *clusterStats) add(c proctor.CaseResult) {
	if c.Verdict != proctor.StatusPassed && c.Verdict != proctor.StatusFailed {
		return
	}
	y := 0
	if c.Verdict == proctor.StatusPassed {
		y = 1
	}
	if c.Cluster == "" {
		cs.singles.AddCluster(float64(y), float64(y), 1)
		cs.single[0] += y
		cs.single[1]++
		return
	}
	cs.any = true
	if cs.named == nil {
		cs.named = map[string]*[2]int{}
	}
	t := cs.named[c.Cluster]
	if t == nil {
		t = &[2]int{}
		cs.named[c.Cluster] = t
	}
	t[0] += y
	t[1]++
}

// rate returns the clustered pass rate, with a cluster bootstrap when bo
// asks for one; nil when no case named a cluster or the standard error
// cannot be estimated (fewer than two clusters).
func (cs *clusterStats) rate(bo *BootstrapOptions) *ClusteredRate {
	if cs == nil || !cs.any {
		return nil
	}
	acc := cs.singles
	for _, t := range cs.named {
		acc.AddCluster(float64(t[0]), float64(t[0]), t[1])
	}
	r, ok := acc.Result()
	if !ok {
		return nil
	}
	const z = 1.959963984540054
	out := &ClusteredRate{ClusterSE: r, Low: max(0, r.Mean-z*r.SE), High: min(1, r.Mean+z*r.SE)}
	if bo != nil && bo.Reps > 1 {
		sums, counts := cs.totals()
		if b, ok := metric.ClusterBootstrapTotals(sums, counts, bo.Reps, bo.Seed, 0.95); ok {
			out.Bootstrap = &b
		}
	}
	return out
}

// totals lists every cluster's passes and size, the named clusters in
// name order and then each case without a cluster as one of its own.
func (cs *clusterStats) totals() (sums, counts []float64) {
	for _, name := range slices.Sorted(maps.Keys(cs.named)) {
		t := cs.named[name]
		sums, counts = append(sums, float64(t[0])), append(counts, float64(t[1]))
	}
	for i := range cs.single[1] {
		y := 0.0
		if i < cs.single[0] {
			y = 1
		}
		sums, counts = append(sums, y), append(counts, 1)
	}
	return sums, counts
}

// ClusteredRate returns the run's pass rate with its cluster-robust
// standard error and design effect; nil when no case named a cluster.
func (s *Summary) ClusteredRate() *ClusteredRate { return s.clusters.rate(s.Bootstrap) }

// clusteredLine is the terminal and Markdown line for a clustered rate.
func clusteredLine(r *ClusteredRate) string {
	line := fmt.Sprintf("clustered SE %.1f points over %d clusters (CR1), design effect %.2f (about %d effective cases); 95%% CI %s-%s",
		100*r.SE, r.Clusters, r.DesignEffect, r.effective(), pct(r.Low), pct(r.High))
	if b := r.Bootstrap; b != nil {
		line += fmt.Sprintf("; cluster bootstrap (%d resamples, seed %d) %s-%s", b.Reps, b.Seed, pct(b.Low), pct(b.High))
	}
	return line
}

// effective is the effective number of cases, N over the design effect.
func (r *ClusteredRate) effective() int {
	if r.DesignEffect <= 0 {
		return r.N
	}
	return int(math.Floor(float64(r.N) / r.DesignEffect))
}
