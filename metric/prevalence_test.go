package metric_test

import (
	"errors"
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// The want values follow Lang and Reiczigel's (2014) adjusted interval
// step by step as their R script gives it (CI4TruePrevalence_15_03_2013.r,
// as carried by the testerror R package, R/prevalence-lang-reiczigel.R),
// computed in Python 3.11 with statistics.NormalDist: an implementation
// independent of this one. The third row is epiR's epi.prev example (23
// of 150 positive, Se 0.96, Sp 0.89), here with Se and Sp estimated from
// 100 labelled items each: its Rogan-Gladen estimate 0.0510 matches
// epiR's documented 5.1 per 100.
func TestRoganGladenLangReiczigel(t *testing.T) {
	tests := []struct {
		passed, n       int
		acc             metric.Accuracy
		rate, low, high float64
	}{
		{140, 200, metric.Accuracy{GraderPass: 45, HumanPass: 50, GraderFail: 90, HumanFail: 100}, 0.75, 0.6482769618177902, 0.8860104661110042},
		{60, 150, metric.Accuracy{GraderPass: 80, HumanPass: 100, GraderFail: 40, HumanFail: 50}, 1.0 / 3, 0.12539012022023546, 0.5051147479929671},
		{23, 150, metric.Accuracy{GraderPass: 96, HumanPass: 100, GraderFail: 89, HumanFail: 100}, 0.05098039215686287, 0, 0.14566845761548577},
	}
	for _, tt := range tests {
		c, err := metric.RoganGladen(tt.passed, tt.n, tt.acc, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(c.Rate-tt.rate) > 1e-12 || math.Abs(c.Low-tt.low) > 1e-12 || math.Abs(c.High-tt.high) > 1e-12 {
			t.Errorf("%d/%d %+v: got %.6f [%.6f, %.6f], want %.6f [%.6f, %.6f]", tt.passed, tt.n, tt.acc, c.Rate, c.Low, c.High, tt.rate, tt.low, tt.high)
		}
		if c.Low > c.Rate || c.High < c.Rate {
			t.Errorf("interval [%v, %v] misses the estimate %v", c.Low, c.High, c.Rate)
		}
	}
}

func TestRoganGladenTooWeak(t *testing.T) {
	// Se 0.5 and Sp 0.5: a coin.
	acc := metric.Accuracy{GraderPass: 10, HumanPass: 20, GraderFail: 10, HumanFail: 20}
	c, err := metric.RoganGladen(50, 100, acc, 0.95)
	if !errors.Is(err, metric.ErrTooWeak) {
		t.Fatalf("err = %v, want ErrTooWeak", err)
	}
	if c.Raw != 0.5 || c.Sensitivity != 0.5 || c.Specificity != 0.5 {
		t.Errorf("the raw figures should still be reported: %+v", c)
	}
	for _, bad := range []metric.Accuracy{{}, {GraderPass: 3, HumanPass: 2, GraderFail: 1, HumanFail: 1}} {
		if _, err := metric.RoganGladen(5, 10, bad, 0.95); !errors.Is(err, metric.ErrBadLevel) {
			t.Errorf("%+v: err = %v, want ErrBadLevel", bad, err)
		}
	}
	if _, err := metric.RoganGladen(11, 10, acc, 0.95); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("passed > n: err = %v", err)
	}
}
