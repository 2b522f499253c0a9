package reports_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/reports"
)

// pairedRuns builds base and head reports from Newcombe's (1998) first
// example: 36 cases pass in both, 12 only in head, 2 only in base, none
// fail in both; cluster names each case's cluster ("" for none).
func pairedRuns(cluster func(i int) string) (base, head *proctor.Report) {
	base, head = proctor.NewReport("s"), proctor.NewReport("s")
	P, F := proctor.StatusPassed, proctor.StatusFailed
	for i := range 50 {
		bv, hv := P, P
		switch {
		case i >= 36 && i < 48:
			bv = F
		case i >= 48:
			hv = F
		}
		id := fmt.Sprintf("c%02d", i)
		base.Add(proctor.CaseResult{ID: id, Verdict: bv, Cluster: cluster(i)})
		head.Add(proctor.CaseResult{ID: id, Verdict: hv, Cluster: cluster(i)})
	}
	return base, head
}

func TestCompareDifference(t *testing.T) {
	base, head := pairedRuns(func(int) string { return "" })
	c := reports.Compare(base, head)
	d := c.Difference
	if d == nil {
		t.Fatal("no difference")
	}
	// Newcombe 1998 Table II, method 10: 0.2000 [0.0569, 0.3404].
	if math.Abs(d.Estimate-0.2) > 1e-12 || math.Abs(d.Low-0.0569) > 5e-5 || math.Abs(d.High-0.3404) > 5e-5 {
		t.Errorf("difference %+v", d)
	}
	if d.N != 50 || d.BothPassed != 36 || d.FailToPass != 12 || d.PassToFail != 2 || d.BothFailed != 0 || d.Clusters != 0 {
		t.Errorf("inputs %+v", d)
	}
	if c.MCNemarP != c.PValue || math.Abs(c.MCNemarP-metric.McNemarExact(2, 12)) > 0 {
		t.Errorf("mcnemar_p %v, p_value %v", c.MCNemarP, c.PValue)
	}
	want, _, _ := metric.PairedMDE(50, 14.0/50, 0.05, 0.8)
	if c.MDE == nil || c.MDE.Value == nil || *c.MDE.Value != want || c.MDE.N != 50 || c.MDE.Discordance != 0.28 {
		t.Errorf("mde %+v, want value %v", c.MDE, want)
	}
	if c.NonInferior != nil {
		t.Error("non_inferior without a margin")
	}
}

func TestCompareNonInferior(t *testing.T) {
	base, head := pairedRuns(func(int) string { return "" })
	// Head is better, so it is no worse by 2 points.
	c, err := reports.CompareWith(base, head, reports.CompareOptions{Margin: 0.02})
	if err != nil || c.NonInferior == nil || !c.NonInferior.NonInferior || c.NonInferior.Alpha != 0.05 || c.NonInferior.N != 50 {
		t.Fatalf("better head: %+v, %v", c.NonInferior, err)
	}
	// Swapped, head is 20 points worse: not non-inferior at 2 points.
	c, _ = reports.CompareWith(head, base, reports.CompareOptions{Margin: 0.02, Alpha: 0.025})
	if c.NonInferior.NonInferior || c.NonInferior.Alpha != 0.025 {
		t.Errorf("worse head: %+v", c.NonInferior)
	}
	if _, err := reports.CompareWith(base, head, reports.CompareOptions{Margin: 2}); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("margin 2: err = %v", err)
	}
}

func TestCompareClustered(t *testing.T) {
	// Ten clusters of five: the head-only and base-only cases bunch in
	// clusters, so the per-case differences are correlated within them.
	base, head := pairedRuns(func(i int) string { return fmt.Sprint(i / 5) })
	c := reports.Compare(base, head)
	pb, ph := pairedRuns(func(int) string { return "" })
	plain := reports.Compare(pb, ph)
	d := c.Difference
	diffs := make([]float64, 50)
	clusters := make([]string, 50)
	for i := range diffs {
		clusters[i] = fmt.Sprint(i / 5)
		switch {
		case i >= 36 && i < 48:
			diffs[i] = 1
		case i >= 48:
			diffs[i] = -1
		}
	}
	cl, _ := metric.ClusteredMean(diffs, clusters)
	if cl.DesignEffect <= 1 {
		t.Fatalf("the fixture should be clustered: %+v", cl)
	}
	if d.Clusters != 10 || math.Abs(d.DesignEffect-cl.DesignEffect) > 1e-12 {
		t.Errorf("clusters %d, design effect %v, want 10 and %v", d.Clusters, d.DesignEffect, cl.DesignEffect)
	}
	w := math.Sqrt(cl.DesignEffect)
	pd := plain.Difference
	if math.Abs((d.Estimate-d.Low)-(pd.Estimate-pd.Low)*w) > 1e-12 || d.High > 1 || d.Estimate != pd.Estimate {
		t.Errorf("clustered %+v is not plain %+v widened by %v", d, pd, w)
	}
	if c.MDE.N != int(50/cl.DesignEffect) {
		t.Errorf("mde n %d, want the effective %d", c.MDE.N, int(50/cl.DesignEffect))
	}
}

func TestCompareNoPairs(t *testing.T) {
	base, head := proctor.NewReport("s"), proctor.NewReport("s")
	base.Add(proctor.CaseResult{ID: "a", Verdict: proctor.StatusFlaky})
	head.Add(proctor.CaseResult{ID: "a", Verdict: proctor.StatusPassed})
	c, err := reports.CompareWith(base, head, reports.CompareOptions{Margin: 0.02})
	if err != nil || c.Difference != nil || c.MDE != nil || c.NonInferior != nil || c.MCNemarP != 1 {
		t.Errorf("no pairs: %+v %v", c, err)
	}
}
