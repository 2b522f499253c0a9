package reportfmt

import (
	"fmt"
	"math"

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
}

// clusterStats accumulates the passed (1) and failed (0) cases of one
// pass rate by cluster. A case without a cluster is a cluster of its own
// and is added at once; named clusters are kept until the end, so memory
// grows with the number of clusters, not cases.
type clusterStats struct {
	named   map[string]*[2]int // cluster -> passed, measured
	singles metric.ClusterSums
	any     bool // some case named a cluster
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

// rate returns the clustered pass rate; nil when no case named a cluster
// or the standard error cannot be estimated (fewer than two clusters).
func (cs *clusterStats) rate() *ClusteredRate {
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
	return &ClusteredRate{ClusterSE: r, Low: max(0, r.Mean-z*r.SE), High: min(1, r.Mean+z*r.SE)}
}

// ClusteredRate returns the run's pass rate with its cluster-robust
// standard error and design effect; nil when no case named a cluster.
func (s *Summary) ClusteredRate() *ClusteredRate { return s.clusters.rate() }

// clusteredLine is the terminal and Markdown line for a clustered rate.
func clusteredLine(r *ClusteredRate) string {
	return fmt.Sprintf("clustered SE %.1f points over %d clusters (CR1), design effect %.2f (about %d effective cases); 95%% CI %s-%s",
		100*r.SE, r.Clusters, r.DesignEffect, r.effective(), pct(r.Low), pct(r.High))
}

// effective is the effective number of cases, N over the design effect.
func (r *ClusteredRate) effective() int {
	if r.DesignEffect <= 0 {
		return r.N
	}
	return int(math.Floor(float64(r.N) / r.DesignEffect))
}
