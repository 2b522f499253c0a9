package metric_test

import (
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// Hand-verified: 12 items in 5 clusters, mean 7/12. The cluster sums of
// residuals are 15/12, -21/12, 3/12, -2/12 and 5/12, so CR0 = (225 + 441
// + 9 + 4 + 25) / 144 / 12^2 = 11/324 and CR1 = CR0 * 5/4 = 55/1296; the
// naive variance is 35/1728 and the design effect 176/105 (exact
// fractions, checked with Python's fractions.Fraction). These are the
// formulas of statsmodels' cluster covariance (cov_type="cluster",
// use_correction=True: G/(G-1) * (N-1)/(N-K) with K = 1) and Stata's
// vce(cluster).
func TestClusteredMeanHand(t *testing.T) {
	ys := []float64{1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1}
	gs := []string{"a", "a", "a", "b", "b", "b", "c", "c", "c", "d", "d", "e"}
	got, ok := metric.ClusteredMean(ys, gs)
	if !ok {
		t.Fatal("not ok")
	}
	want := metric.ClusterSE{Mean: 7.0 / 12, SE: math.Sqrt(55.0 / 1296), NaiveSE: math.Sqrt(35.0 / 1728),
		DesignEffect: 176.0 / 105, N: 12, Clusters: 5}
	for _, c := range [][2]float64{{got.Mean, want.Mean}, {got.SE, want.SE}, {got.NaiveSE, want.NaiveSE}, {got.DesignEffect, want.DesignEffect}} {
		if math.Abs(c[0]-c[1]) > 1e-12 {
			t.Errorf("got %+v, want %+v", got, want)
			break
		}
	}
	if got.N != 12 || got.Clusters != 5 {
		t.Errorf("counts: %+v", got)
	}
}

func TestClusteredMeanSingletons(t *testing.T) {
	// One item per cluster: CR0 is the naive variance, design effect 1,
	// CR1 = naive * sqrt(n/(n-1)).
	ys := []float64{1, 0, 1, 1, 0, 1, 1, 1}
	gs := []string{"1", "2", "3", "4", "5", "6", "7", "8"}
	got, ok := metric.ClusteredMean(ys, gs)
	if !ok || math.Abs(got.DesignEffect-1) > 1e-12 || math.Abs(got.SE-got.NaiveSE*math.Sqrt(8.0/7)) > 1e-12 {
		t.Errorf("singletons: %+v ok %v", got, ok)
	}
	p := 6.0 / 8
	if math.Abs(got.NaiveSE-math.Sqrt(p*(1-p)/8)) > 1e-12 {
		t.Errorf("NaiveSE = %v, want sqrt(p(1-p)/n)", got.NaiveSE)
	}
	if _, ok := metric.ClusteredMean(ys, make([]string, len(ys))); ok {
		t.Error("one cluster should not be ok")
	}
	if _, ok := metric.ClusteredMean(ys, gs[:3]); ok {
		t.Error("mismatched lengths should not be ok")
	}
}

func TestClusterBootstrap(t *testing.T) {
	ys := make([]float64, 400)
	gs := make([]string, 400)
	for i := range ys {
		if i%5 != 0 {
			ys[i] = 1
		}
		gs[i] = string(rune('A' + i%200/2)) // 100 clusters of four
	}
	a, ok := metric.ClusterBootstrap(ys, gs, 2000, 7, 0.95)
	b, _ := metric.ClusterBootstrap(ys, gs, 2000, 7, 0.95)
	c, _ := metric.ClusterBootstrap(ys, gs, 2000, 8, 0.95)
	if !ok || a != b {
		t.Fatalf("same seed gave %+v and %+v", a, b)
	}
	if a == c {
		t.Error("different seeds gave the same resamples")
	}
	cl, _ := metric.ClusteredMean(ys, gs)
	if a.Low > cl.Mean || a.High < cl.Mean || math.Abs(a.SE-cl.SE)/cl.SE > 0.15 {
		t.Errorf("bootstrap %+v far from the sandwich %+v", a, cl)
	}
	if _, ok := metric.ClusterBootstrap(ys, make([]string, len(ys)), 100, 1, 0.95); ok {
		t.Error("one cluster should not be ok")
	}
}

// Published values: the clustered standard errors that Inspect AI's tests
// take from statsmodels (OLS of y on a constant,
// get_robustcov_results(cov_type="cluster", groups=...), whose default
// correction is CR1), in UKGovernmentBEIS/inspect_ai
// tests/scorer/test_metric_stderr.py at commit
// a7bd7e1300cfe27cac41291e309b3dbd4d9db90b. Each row is that file's data
// and its expected value, as printed there.
func TestClusteredMeanStatsmodels(t *testing.T) {
	tests := []struct {
		name string
		ys   []float64
		gs   []string
		se   float64
	}{
		{"singleton_clusters", []float64{1, 2, 3}, []string{"1", "2", "3"}, 0.5773502691896258},
		{"identical_within_varied_between", []float64{1, 1, 2, 2, 3, 3, 3}, []string{"1", "1", "2", "2", "3", "3", "3"}, 0.6040264729366833},
		{"stderr_1 (pass/fail)", []float64{1, 1, 0, 0, 1, 0}, []string{"1", "1", "2", "2", "3", "3"}, 0.28867513459481303},
		{"stderr_2", []float64{9, 4, 11, 6, 13, 8}, []string{"1", "1", "2", "2", "3", "3"}, 1.1547005383792521},
	}
	for _, tt := range tests {
		got, ok := metric.ClusteredMean(tt.ys, tt.gs)
		if !ok || math.Abs(got.SE-tt.se) > 1e-12 {
			t.Errorf("%s: SE = %.17g (ok %v), statsmodels gives %.17g", tt.name, got.SE, ok, tt.se)
		}
		// The streaming form gives the same figure.
		var acc metric.ClusterSums
		sums := map[string][3]float64{}
		var order []string
		for i, y := range tt.ys {
			s, seen := sums[tt.gs[i]]
			if !seen {
				order = append(order, tt.gs[i])
			}
			sums[tt.gs[i]] = [3]float64{s[0] + y, s[1] + y*y, s[2] + 1}
		}
		for _, g := range order {
			s := sums[g]
			acc.AddCluster(s[0], s[1], int(s[2]))
		}
		if r, ok := acc.Result(); !ok || math.Abs(r.SE-tt.se) > 1e-12 {
			t.Errorf("%s: ClusterSums SE = %.17g, statsmodels gives %.17g", tt.name, r.SE, tt.se)
		}
	}
}
