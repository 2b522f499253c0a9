package metric

import (
	"errors"
	"math"
)

// ErrNoPairs is returned when a paired statistic is asked of no pairs.
var ErrNoPairs = errors.New("metric: no paired outcomes")

// ErrBadLevel is returned for a confidence level, alpha, power, margin or
// proportion outside its open interval.
var ErrBadLevel = errors.New("metric: level or proportion out of range")

// Pairs counts the outcomes of n items scored pass or fail twice, by a
// base and a head run: both passed, base only, head only, both failed.
type Pairs struct {
	// BothPass counts the items that passed in both runs.
	BothPass int `json:"both_passed"`
	// BaseOnly counts the items that passed in base and failed in head.
	BaseOnly int `json:"pass_to_fail"`
	// HeadOnly counts the items that failed in base and passed in head.
	HeadOnly int `json:"fail_to_pass"`
	// BothFail counts the items that failed in both runs.
	BothFail int `json:"both_failed"`
}

// N returns the number of pairs.
func (p Pairs) N() int { return p.BothPass + p.BaseOnly + p.HeadOnly + p.BothFail }

// Discordant returns the number of pairs whose two outcomes differ.
func (p Pairs) Discordant() int { return p.BaseOnly + p.HeadOnly }

func (p Pairs) valid() error {
	if p.BothPass < 0 || p.BaseOnly < 0 || p.HeadOnly < 0 || p.BothFail < 0 {
		return ErrBadLevel
	}
	if p.N() == 0 {
		return ErrNoPairs
	}
	return nil
}

// NormalQuantile returns the standard normal quantile of p in (0, 1):
// the z with P(Z <= z) = p. It is NaN outside (0, 1).
func NormalQuantile(p float64) float64 {
	if !(p > 0 && p < 1) {
		return math.NaN()
	}
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// normalCDF returns P(Z <= z) for a standard normal Z.
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// wilsonZ is the Wilson score interval for k of n at the normal quantile z.
func wilsonZ(k, n int, z float64) (lo, hi float64) {
	p, nf, z2 := float64(k)/float64(n), float64(n), z*z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return max(0, center-half), min(1, center+half)
}

// PairedDifference returns head's pass rate minus base's,
// (HeadOnly - BaseOnly) / n, with Newcombe's score interval for the
// difference of paired proportions at the two-sided level conf (0.95 for
// a 95% interval): method 10 of Newcombe (1998), "Improved confidence
// intervals for the difference between binomial proportions based on
// paired data", Statistics in Medicine 17:2635-2650. It combines the
// Wilson intervals of the two pass rates with the correlation phi between
// the runs (continuity-corrected, and 0 when a margin is empty), so the
// bounds stay inside [-1, 1] and are not degenerate with few discordant
// pairs. It is the interval of statsmodels' confint_proportions_paired
// (method "newcomb") and of R's propint::ci.two.dep.props.
func PairedDifference(p Pairs, conf float64) (diff, lo, hi float64, err error) {
	if err := p.valid(); err != nil {
		return 0, 0, 0, err
	}
	if !(conf > 0 && conf < 1) {
		return 0, 0, 0, ErrBadLevel
	}
	z := NormalQuantile(1 - (1-conf)/2)
	n := p.N()
	// Newcombe's e, f, g, h with the head run as the first classification.
	e, f, g, h := float64(p.BothPass), float64(p.HeadOnly), float64(p.BaseOnly), float64(p.BothFail)
	nf := float64(n)
	p1, p2 := (e+f)/nf, (e+g)/nf
	l1, u1 := wilsonZ(p.BothPass+p.HeadOnly, n, z)
	l2, u2 := wilsonZ(p.BothPass+p.BaseOnly, n, z)
	phi := newcombePhi(e, f, g, h)
	diff = p1 - p2
	dl := math.Sqrt(sq(p1-l1) - 2*phi*(p1-l1)*(u2-p2) + sq(u2-p2))
	du := math.Sqrt(sq(u1-p1) - 2*phi*(u1-p1)*(p2-l2) + sq(p2-l2))
	return diff, max(-1, diff-dl), min(1, diff+du), nil
}

// newcombePhi is the continuity-corrected phi coefficient of Newcombe's
// method 10: (eh - fg - n/2)+ / sqrt of the margins' product when eh > fg,
// (eh - fg) / sqrt(...) otherwise, and 0 when a margin is empty.
func newcombePhi(e, f, g, h float64) float64 {
	den := (e + f) * (g + h) * (e + g) * (f + h)
	if den == 0 {
		return 0
	}
	num := e*h - f*g
	if num > 0 {
		num = max(0, num-(e+f+g+h)/2)
	}
	return num / math.Sqrt(den)
}

func sq(x float64) float64 { return x * x }

// NonInferiority is a test that head's pass rate is no worse than base's
// by more than a margin.
type NonInferiority struct {
	// NonInferior is true when Low > -Margin: the data rule out, at the
	// one-sided level Alpha, that head is worse by Margin or more.
	NonInferior bool `json:"non_inferior"`
	// Low is the lower bound of the two-sided 1 - 2*Alpha Newcombe
	// interval for head - base, the one-sided 1 - Alpha bound.
	Low float64 `json:"low"`
	// Margin is the largest drop in pass rate (a proportion: 0.02 for 2
	// points) that still counts as no worse.
	Margin float64 `json:"margin"`
	// Alpha is the one-sided significance level.
	Alpha float64 `json:"alpha"`
}

// NonInferior tests that head is no worse than base by more than margin
// (a proportion in (0, 1)) at the one-sided level alpha in (0, 0.5): it is
// non-inferior when the one-sided 1-alpha lower bound of the paired
// difference, the lower end of the two-sided 1-2*alpha
// [PairedDifference] interval, is above -margin. This is the
// confidence-interval form of the non-inferiority test (ICH E9; CONSORT's
// non-inferiority extension, Piaggio et al. 2012).
func NonInferior(p Pairs, margin, alpha float64) (NonInferiority, error) {
	if !(margin > 0 && margin < 1) || !(alpha > 0 && alpha < 0.5) {
		return NonInferiority{}, ErrBadLevel
	}
	_, lo, _, err := PairedDifference(p, 1-2*alpha)
	if err != nil {
		return NonInferiority{}, err
	}
	return NonInferiority{NonInferior: lo > -margin, Low: lo, Margin: margin, Alpha: alpha}, nil
}

// connorN is Connor's (1987) sample size for McNemar's test as a real
// number: [z_a sqrt(psi) + z_b sqrt(psi - delta^2)]^2 / delta^2.
func connorN(delta, psi, za, zb float64) float64 {
	return sq(za*math.Sqrt(psi)+zb*math.Sqrt(psi-delta*delta)) / (delta * delta)
}

// PairedSampleSize returns the number of pairs McNemar's two-sided test
// at level alpha needs to detect a difference delta between two paired
// pass rates with the given power, when a share discordance of the pairs
// differ (delta <= discordance <= 1): Connor (1987), "Sample size for
// testing differences in proportions for the paired-sample design",
// Biometrics 43:207-211, eq. 3, rounded up. It is the normal method of
// R's MESS::power_mcnemar_test.
func PairedSampleSize(delta, discordance, alpha, power float64) (int, error) {
	delta = math.Abs(delta)
	if !(delta > 0 && delta <= discordance && discordance <= 1) || !okLevels(alpha, power) {
		return 0, ErrBadLevel
	}
	za, zb := NormalQuantile(1-alpha/2), NormalQuantile(power)
	return int(math.Ceil(connorN(delta, discordance, za, zb) - 1e-9)), nil
}

func okLevels(alpha, power float64) bool {
	return alpha > 0 && alpha < 1 && power > 0 && power < 1
}

// PairedMDE returns the smallest difference in pass rate McNemar's
// two-sided test at level alpha detects with the given power in n pairs
// of which a share discordance differ: the delta that solves Connor's
// (1987) equation (see [PairedSampleSize]) for this n, found by bisection
// to 1e-12. ok is false when no difference is detectable: not even one
// as large as the discordance itself, every changed case moving the same
// way, reaches the power.
func PairedMDE(n int, discordance, alpha, power float64) (mde float64, ok bool, err error) {
	if n <= 0 || !(discordance > 0 && discordance <= 1) || !okLevels(alpha, power) {
		return 0, false, ErrBadLevel
	}
	za, zb := NormalQuantile(1-alpha/2), NormalQuantile(power)
	rn := math.Sqrt(float64(n))
	// gap grows with delta: sqrt(n)*delta less the test's need.
	gap := func(d float64) float64 {
		return rn*d - za*math.Sqrt(discordance) - zb*math.Sqrt(max(0, discordance-d*d))
	}
	if gap(discordance) < 0 {
		return 0, false, nil
	}
	lo, hi := 0.0, discordance
	for hi-lo > 1e-12 {
		mid := (lo + hi) / 2
		if gap(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, true, nil
}

// PairedPower returns the power of McNemar's two-sided test at level
// alpha to detect a difference delta in n pairs of which a share
// discordance differ, by Connor's (1987) normal approximation:
// Phi((sqrt(n)|delta| - z_{1-alpha/2} sqrt(psi)) / sqrt(psi - delta^2)).
func PairedPower(n int, delta, discordance, alpha float64) (float64, error) {
	delta = math.Abs(delta)
	if n <= 0 || !(delta > 0 && delta < discordance && discordance <= 1) || !(alpha > 0 && alpha < 1) {
		return 0, ErrBadLevel
	}
	za := NormalQuantile(1 - alpha/2)
	z := (math.Sqrt(float64(n))*delta - za*math.Sqrt(discordance)) / math.Sqrt(discordance-delta*delta)
	return normalCDF(z), nil
}

// IndependentDiscordance returns the share of discordant pairs expected
// when the two runs' outcomes are independent with pass rates p1 and p2:
// p1(1-p2) + p2(1-p1). Real reruns of one suite agree more often than
// that, so it overstates the discordance and the cases needed: a
// conservative default when no earlier comparison measured it.
func IndependentDiscordance(p1, p2 float64) float64 { return p1*(1-p2) + p2*(1-p1) }

// DesignEffect returns 1 + (m-1)*icc, the factor by which clusters of m
// items with intra-cluster correlation icc inflate the variance of a mean
// (Kish 1965, Survey Sampling, section 5.4).
func DesignEffect(m, icc float64) float64 { return 1 + (m-1)*icc }
