package metric_test

import (
	"errors"
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// Newcombe (1998), Statistics in Medicine 17:2635-2650, Table II, method
// 10 (score interval, continuity-corrected phi), 95%: the four worked
// examples (e, f, g, h) with difference (f - g) / n. The same values are
// the expectations of R's propint package (github.com/m-Py/propint,
// tests/testthat/test_two_dep_props.R). Head is Newcombe's first
// classification: HeadOnly is f, BaseOnly is g.
func TestPairedDifferenceNewcombe1998(t *testing.T) {
	tests := []struct {
		e, f, g, h int
		lo, hi     float64
	}{
		{36, 12, 2, 0, 0.0569, 0.3404},
		{18, 12, 2, 18, 0.0562, 0.3290},
		{53, 0, 0, 1, -0.0729, 0.0729},
		{0, 30, 0, 0, 0.8395, 1.0},
	}
	for _, tt := range tests {
		p := metric.Pairs{BothPass: tt.e, HeadOnly: tt.f, BaseOnly: tt.g, BothFail: tt.h}
		d, lo, hi, err := metric.PairedDifference(p, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		want := float64(tt.f-tt.g) / float64(p.N())
		if math.Abs(d-want) > 1e-12 || math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("%v: got %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", tt, d, lo, hi, want, tt.lo, tt.hi)
		}
		// Swapping the runs mirrors the interval.
		sw := metric.Pairs{BothPass: tt.e, HeadOnly: tt.g, BaseOnly: tt.f, BothFail: tt.h}
		d2, lo2, hi2, _ := metric.PairedDifference(sw, 0.95)
		if math.Abs(d2+d) > 1e-12 || math.Abs(lo2+hi) > 1e-12 || math.Abs(hi2+lo) > 1e-12 {
			t.Errorf("%v swapped: %.4f [%.4f, %.4f] is not the mirror", tt, d2, lo2, hi2)
		}
	}
}

func TestPairedDifferenceErrors(t *testing.T) {
	if _, _, _, err := metric.PairedDifference(metric.Pairs{}, 0.95); !errors.Is(err, metric.ErrNoPairs) {
		t.Errorf("no pairs: err = %v, want ErrNoPairs", err)
	}
	if _, _, _, err := metric.PairedDifference(metric.Pairs{BothPass: 1}, 1); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("conf 1: err = %v, want ErrBadLevel", err)
	}
	if _, _, _, err := metric.PairedDifference(metric.Pairs{BothPass: -1, BothFail: 3}, 0.95); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("negative count: err = %v, want ErrBadLevel", err)
	}
}

func TestNonInferior(t *testing.T) {
	// 200 pairs, 6 regressions and 4 fixes: head is 1 point worse.
	p := metric.Pairs{BothPass: 160, BaseOnly: 6, HeadOnly: 4, BothFail: 30}
	_, lo90, _, _ := metric.PairedDifference(p, 0.90)
	ni, err := metric.NonInferior(p, 0.05, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if ni.Low != lo90 {
		t.Errorf("Low = %v, want the 90%% two-sided lower bound %v", ni.Low, lo90)
	}
	if !ni.NonInferior {
		t.Errorf("5-point margin: lower bound %.4f should be above -0.05", ni.Low)
	}
	tight, _ := metric.NonInferior(p, 0.01, 0.05)
	if tight.NonInferior {
		t.Errorf("1-point margin with a 1-point observed drop cannot be non-inferior (low %.4f)", tight.Low)
	}
	if _, err := metric.NonInferior(p, 0, 0.05); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("zero margin: err = %v", err)
	}
	if _, err := metric.NonInferior(p, 0.02, 0.5); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("alpha 0.5: err = %v", err)
	}
}

// The reference is the normal method of R's MESS::power_mcnemar_test
// (MESS 0.5.x, R/power.mcnemar.test.R), which parametrises by paid = the
// smaller discordant probability and psi = the ratio of the two:
//
//	pnorm((sqrt(n*paid)*(psi-1) - qnorm(1-alpha/2)*sqrt(psi+1)) /
//	      sqrt((psi+1) - paid*(psi-1)^2))
//
// The n below solves that expression for the power, by bisection in
// Python 3 with statistics.NormalDist (an implementation independent of
// ours, in the other parametrisation); delta = paid*(psi-1) and
// discordance = paid*(psi+1). The first row is MESS's own documented
// example, power_mcnemar_test(paid=.1, psi=2, power=.8, method="normal").
func TestPairedSampleSizeMESS(t *testing.T) {
	tests := []struct {
		paid, psi, power, n float64
	}{
		{0.1, 2, 0.8, 233.09453820467374},
		{0.125, 2, 0.9, 247.99725989933427},
		{0.05, 1.5, 0.8, 1567.4160061574555},
	}
	for _, tt := range tests {
		delta, disc := tt.paid*(tt.psi-1), tt.paid*(tt.psi+1)
		got, err := metric.PairedSampleSize(delta, disc, 0.05, tt.power)
		if err != nil {
			t.Fatal(err)
		}
		if want := int(math.Ceil(tt.n)); got != want {
			t.Errorf("PairedSampleSize(%g, %g) = %d, want %d (MESS n = %.4f)", delta, disc, got, want, tt.n)
		}
		pw, _ := metric.PairedPower(got, delta, disc, 0.05)
		pwBelow, _ := metric.PairedPower(got-1, delta, disc, 0.05)
		if pw < tt.power || pwBelow >= tt.power {
			t.Errorf("power at n=%d is %.4f and at n-1 %.4f: n is not the smallest reaching %.2f", got, pw, pwBelow, tt.power)
		}
	}
	// MESS: power_mcnemar_test(n=200, paid=.1, psi=2) = 0.7365216906328582.
	if pw, _ := metric.PairedPower(200, 0.1, 0.3, 0.05); math.Abs(pw-0.7365216906328582) > 1e-9 {
		t.Errorf("PairedPower(200, .1, .3) = %.12f, want 0.736521690633", pw)
	}
}

func TestPairedMDE(t *testing.T) {
	// Deltas solving MESS's normal power = 0.8 for n pairs at the given
	// discordance (same Python bisection as above).
	tests := []struct {
		n    int
		disc float64
		want float64
	}{
		{500, 0.1, 0.03952705186074111},
		{200, 0.2, 0.08807269345160357},
	}
	for _, tt := range tests {
		got, ok, err := metric.PairedMDE(tt.n, tt.disc, 0.05, 0.8)
		if err != nil || !ok {
			t.Fatalf("PairedMDE(%d, %g): ok %v, err %v", tt.n, tt.disc, ok, err)
		}
		if math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("PairedMDE(%d, %g) = %.12f, want %.12f", tt.n, tt.disc, got, tt.want)
		}
	}
	// 5 pairs, 10% discordant: nothing detectable.
	if _, ok, err := metric.PairedMDE(5, 0.1, 0.05, 0.8); ok || err != nil {
		t.Errorf("PairedMDE(5, 0.1): ok %v, err %v; want not detectable", ok, err)
	}
	// 40 pairs, 12.5% discordant: even delta = psi has power below 0.8.
	if pw, _ := metric.PairedPower(40, 0.125-1e-9, 0.125, 0.05); pw >= 0.8 {
		t.Fatalf("power at delta = psi is %v", pw)
	}
	if _, ok, _ := metric.PairedMDE(40, 0.125, 0.05, 0.8); ok {
		t.Error("PairedMDE(40, 0.125) should not be detectable")
	}
	if _, _, err := metric.PairedMDE(100, 0, 0.05, 0.8); !errors.Is(err, metric.ErrBadLevel) {
		t.Errorf("zero discordance: err = %v", err)
	}
}

func TestNormalQuantile(t *testing.T) {
	// Python 3.11 statistics.NormalDist().inv_cdf: 0.975 ->
	// 1.9599639845400536, 0.8 -> 0.8416212335729144, 0.95 ->
	// 1.6448536269514715.
	for p, want := range map[float64]float64{0.975: 1.9599639845400536, 0.8: 0.8416212335729144, 0.95: 1.6448536269514715} {
		if got := metric.NormalQuantile(p); math.Abs(got-want) > 1e-12 {
			t.Errorf("NormalQuantile(%g) = %.15g, want %.15g", p, got, want)
		}
	}
	if !math.IsNaN(metric.NormalQuantile(1)) {
		t.Error("NormalQuantile(1) should be NaN")
	}
}

func TestDesignEffect(t *testing.T) {
	if got := metric.DesignEffect(5, 0.1); math.Abs(got-1.4) > 1e-12 {
		t.Errorf("DesignEffect(5, 0.1) = %v, want 1.4", got)
	}
	if got := metric.IndependentDiscordance(0.8, 0.77); math.Abs(got-(0.8*0.23+0.77*0.2)) > 1e-12 {
		t.Errorf("IndependentDiscordance = %v", got)
	}
}

// TestPairedSampleSizeMESSSuite checks the values MESS's own test suite
// asserts (MESS tests/testthat/testpowermcnemar.R, as published on CRAN
// with MESS 0.5.x): round(power_mcnemar_test(paid=0.05, psi=45/5,
// power=.8)$n) is 22, and 17 with alternative="one.sided". MESS's n is
// real-valued; ours is the smallest whole n reaching the power, so its n
// rounds to R's when the power at R's n-1 falls short and the power at
// R's n+1 is reached. One-sided at 5% is two-sided at 10%.
func TestPairedSampleSizeMESSSuite(t *testing.T) {
	const paid, psi = 0.05, 45.0 / 5
	delta, disc := paid*(psi-1), paid*(psi+1)
	for _, tt := range []struct {
		alpha float64
		rn    int // MESS's rounded n
	}{{0.05, 22}, {0.10, 17}} {
		below, _ := metric.PairedPower(tt.rn-1, delta, disc, tt.alpha)
		above, _ := metric.PairedPower(tt.rn+1, delta, disc, tt.alpha)
		if below >= 0.8 || above < 0.8 {
			t.Errorf("alpha %g: power %.4f at n=%d and %.4f at n=%d; MESS's n rounds to %d", tt.alpha, below, tt.rn-1, above, tt.rn+1, tt.rn)
		}
		n, err := metric.PairedSampleSize(delta, disc, tt.alpha, 0.8)
		if err != nil || n < tt.rn || n > tt.rn+1 {
			t.Errorf("alpha %g: PairedSampleSize = %d, %v; want %d or %d (MESS: %d rounded)", tt.alpha, n, err, tt.rn, tt.rn+1, tt.rn)
		}
	}
}
