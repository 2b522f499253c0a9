package metric_test

import (
	"errors"
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// The want values are R's output (R 4.2.2) of Lang and Reiczigel's own
// script for their 2014 adjusted interval (CI4TruePrevalence_15_03_2013.r,
// the CI_Binom function as the testerror R package carries it, in
// R/prevalence-lang-reiczigel.R), run here on each row; the first three
// rows were also worked independently in Python 3.11 with
// statistics.NormalDist, to the same digits. The third row is epiR's
// epi.prev example (23 of 150 positive, Se 0.96, Sp 0.89), here with Se
// and Sp estimated from 100 labelled items each: its Rogan-Gladen
// estimate 0.0510 matches epiR's documented 5.1 per 100. The last five
// are the published regional data of Reiczigel, Foldi and Ozsvari (2010),
// Table 2 (Se 50 of 100, Sp 199 of 200), as testerror's examples give them.
func TestRoganGladenLangReiczigel(t *testing.T) {
	table2 := metric.Accuracy{GraderPass: 50, HumanPass: 100, GraderFail: 199, HumanFail: 200}
	tests := []struct {
		passed, n       int
		acc             metric.Accuracy
		rate, low, high float64
	}{
		{140, 200, metric.Accuracy{GraderPass: 45, HumanPass: 50, GraderFail: 90, HumanFail: 100}, 0.75, 0.6482769618177902, 0.8860104661110042},
		{60, 150, metric.Accuracy{GraderPass: 80, HumanPass: 100, GraderFail: 40, HumanFail: 50}, 1.0 / 3, 0.12539012022023546, 0.5051147479929671},
		{23, 150, metric.Accuracy{GraderPass: 96, HumanPass: 100, GraderFail: 89, HumanFail: 100}, 0.05098039215686287, 0, 0.14566845761548577},
		{2, 78, table2, 0.04169904169904172, 0, 0.17770427363217536},
		{4, 130, table2, 0.052059052059052043, 0, 0.147945189346123829},
		{8, 78, table2, 0.197099197099196988, 0.078471613672430995, 0.383773134130163174},
		{12, 260, table2, 0.083139083139083012, 0.025707753341126904, 0.151811787206921595},
		{27, 650, table2, 0.073815073815073989, 0.027460010566892290, 0.114583025729825427},
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
