package reports

import (
	"cmp"
	"fmt"
	"math"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// CompareOptions asks [CompareWith] for more than the default
// comparison.
type CompareOptions struct {
	// Margin, when above 0, asks for a non-inferiority test: is head no
	// worse than base by more than Margin (a proportion: 0.02 for 2
	// points)?
	Margin float64
	// Alpha is the one-sided level of the non-inferiority test; 0 means
	// 0.05.
	Alpha float64
}

// Difference is head's pass rate minus base's over the cases measured in
// both runs, with its interval and the counts it was computed from.
type Difference struct {
	// Estimate is (FailToPass - PassToFail) / N.
	Estimate float64 `json:"estimate"`
	// Low and High bound it at level Confidence.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Confidence is the two-sided level of the interval (0.95).
	Confidence float64 `json:"confidence"`
	// Method names the interval: Newcombe's score interval for paired
	// proportions, widened by the design effect when cases are clustered.
	Method string `json:"method"`
	// N is the number of pairs; BothPassed, PassToFail, FailToPass and
	// BothFailed split them.
	N          int `json:"n"`
	BothPassed int `json:"both_passed"`
	PassToFail int `json:"pass_to_fail"`
	FailToPass int `json:"fail_to_pass"`
	BothFailed int `json:"both_failed"`
	// BasePassRate and HeadPassRate are the pass rates over the pairs.
	BasePassRate float64 `json:"base_pass_rate"`
	HeadPassRate float64 `json:"head_pass_rate"`
	// Clusters and DesignEffect are set when cases name clusters: the
	// number of clusters among the pairs and the design effect of the
	// per-case differences, by which the interval's variance was
	// multiplied (never below 1).
	Clusters     int     `json:"clusters,omitempty"`
	DesignEffect float64 `json:"design_effect,omitempty"`
}

// NonInferiorTest is the verdict of a non-inferiority test with the
// inputs it was computed from.
type NonInferiorTest struct {
	metric.NonInferiority
	// N is the number of pairs the bound was computed over.
	N int `json:"n"`
}

// MDE is the smallest difference in pass rate that McNemar's test would
// detect at this number of pairs and rate of discordance.
type MDE struct {
	// Value is the minimum detectable difference as a proportion; nil
	// when none is detectable (no discordant pairs, or too few pairs).
	Value *float64 `json:"value"`
	// N, Discordance, Alpha (two-sided) and Power are its inputs. N is
	// the effective number of pairs: divided by the design effect when
	// cases are clustered.
	N           int     `json:"n"`
	Discordance float64 `json:"discordance"`
	Alpha       float64 `json:"alpha"`
	Power       float64 `json:"power"`
}

// CompareWith is [Compare] with options: with o.Margin above 0 it also
// tests non-inferiority at that margin. An error reports a margin or
// alpha out of range ([metric.ErrBadLevel]).
func CompareWith(base, head *proctor.Report, o CompareOptions) (*Comparison, error) {
	return CompareVerdicts(base, head, ComparedCases(base.Cases), ComparedCases(head.Cases), o)
}

// CompareVerdicts is [CompareWith] for reports too large to hold: base
// and head give the runs' suites and judges (their Cases are not read),
// and baseCases and headCases each case's id, verdict and cluster, in the
// reports' order.
func CompareVerdicts(base, head *proctor.Report, baseCases, headCases []ComparedCase, o CompareOptions) (*Comparison, error) {
	alpha := cmp.Or(o.Alpha, 0.05)
	if o.Margin != 0 && (!(o.Margin > 0 && o.Margin < 1) || !(alpha > 0 && alpha < 0.5)) {
		return nil, fmt.Errorf("reports: non-inferiority margin %g, alpha %g: %w", o.Margin, alpha, metric.ErrBadLevel)
	}
	c := compareVerdicts(base, head, baseCases, headCases)
	if o.Margin == 0 || c.Difference == nil {
		return c, nil
	}
	ni, err := metric.NonInferior(c.pairs(), o.Margin, alpha)
	if err != nil {
		return nil, fmt.Errorf("reports: non-inferiority margin %g, alpha %g: %w", o.Margin, alpha, err)
	}
	if deff := c.Difference.DesignEffect; deff > 1 {
		d := c.Difference.Estimate
		ni.Low = d - (d-ni.Low)*math.Sqrt(deff)
		ni.NonInferior = ni.Low > -o.Margin
	}
	c.NonInferior = &NonInferiorTest{NonInferiority: ni, N: c.Paired}
	return c, nil
}

func (c *Comparison) pairs() metric.Pairs {
	d := c.Difference
	return metric.Pairs{BothPass: d.BothPassed, BaseOnly: d.PassToFail, HeadOnly: d.FailToPass, BothFail: d.BothFailed}
}

// pairedStats fills the difference and the MDE from the pairs counted,
// and the clusters of the paired cases (nil when no case names one).
func (c *Comparison) pairedStats(p metric.Pairs, diffs []float64, clusters []string) {
	c.MCNemarP = c.PValue
	if p.N() == 0 {
		return
	}
	d, lo, hi, err := metric.PairedDifference(p, 0.95)
	if err != nil {
		return
	}
	n := float64(p.N())
	c.Difference = &Difference{Estimate: d, Low: lo, High: hi, Confidence: 0.95, Method: "newcombe",
		N: p.N(), BothPassed: p.BothPass, PassToFail: p.BaseOnly, FailToPass: p.HeadOnly, BothFailed: p.BothFail,
		BasePassRate: float64(p.BothPass+p.BaseOnly) / n, HeadPassRate: float64(p.BothPass+p.HeadOnly) / n}
	effN := p.N()
	if clusters != nil {
		if cl, ok := metric.ClusteredMean(diffs, clusters); ok {
			deff := max(1, cl.DesignEffect)
			c.Difference.Clusters, c.Difference.DesignEffect = cl.Clusters, deff
			c.Difference.Method = "newcombe, widened by the clustered design effect"
			w := math.Sqrt(deff)
			c.Difference.Low = max(-1, d-(d-lo)*w)
			c.Difference.High = min(1, d+(hi-d)*w)
			effN = int(math.Floor(n / deff))
		}
	}
	c.MDE = pairedMDE(effN, float64(p.Discordant())/n)
}

// addPair counts one pair of measured verdicts.
func addPair(p *metric.Pairs, bv, hv proctor.Status) {
	switch {
	case bv == proctor.StatusPassed && hv == proctor.StatusPassed:
		p.BothPass++
	case bv == proctor.StatusPassed:
		p.BaseOnly++
	case hv == proctor.StatusPassed:
		p.HeadOnly++
	default:
		p.BothFail++
	}
}

// pairedMDE is the MDE at 80% power and a two-sided 5% level.
func pairedMDE(n int, disc float64) *MDE {
	m := &MDE{N: n, Discordance: disc, Alpha: 0.05, Power: 0.8}
	if n <= 0 || disc <= 0 {
		return m
	}
	if v, ok, err := metric.PairedMDE(n, disc, m.Alpha, m.Power); err == nil && ok {
		m.Value = &v
	}
	return m
}

func pass01(s proctor.Status) float64 {
	if s == proctor.StatusPassed {
		return 1
	}
	return 0
}
