package metric

import (
	"errors"
	"math"
)

// ErrTooWeak is returned by [RoganGladen] when the grader's sensitivity
// plus specificity is at most 1: its verdicts carry no information about
// the true pass rate (a coin does as well), so no correction is possible.
var ErrTooWeak = errors.New("metric: sensitivity + specificity <= 1: the grader is too weak to correct for")

// Accuracy is a grader's agreement with human labels, as counts: of
// HumanPass items people passed, the grader passed GraderPass; of
// HumanFail items people failed, the grader failed GraderFail.
type Accuracy struct {
	// GraderPass counts the human-passed items the grader passed.
	GraderPass int `json:"true_pass"`
	// HumanPass counts the items people passed that the grader graded.
	HumanPass int `json:"human_pass"`
	// GraderFail counts the human-failed items the grader failed.
	GraderFail int `json:"true_fail"`
	// HumanFail counts the items people failed that the grader graded.
	HumanFail int `json:"human_fail"`
}

// Sensitivity returns GraderPass / HumanPass, NaN with no human pass.
func (a Accuracy) Sensitivity() float64 { return share(a.GraderPass, a.HumanPass) }

// Specificity returns GraderFail / HumanFail, NaN with no human fail.
func (a Accuracy) Specificity() float64 { return share(a.GraderFail, a.HumanFail) }

// share is k / n, NaN when n is not positive.
func share(k, n int) float64 {
	if n <= 0 {
		return math.NaN()
	}
	return float64(k) / float64(n)
}

// Corrected is a pass rate corrected for the grader's own errors.
type Corrected struct {
	// Rate is the Rogan-Gladen estimate of the true pass rate, clamped to
	// [0, 1].
	Rate float64 `json:"rate"`
	// Low and High are Lang and Reiczigel's adjusted interval.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Raw is the pass rate as graded.
	Raw float64 `json:"raw"`
	// Sensitivity and Specificity are the grader's, from the calibration.
	Sensitivity float64 `json:"sensitivity"`
	Specificity float64 `json:"specificity"`
}

// RoganGladen corrects a graded pass rate, passed of n, for a grader with
// the given accuracy against human labels: the Rogan-Gladen estimate
// (p + Sp - 1) / (Se + Sp - 1) (Rogan and Gladen 1978, American Journal
// of Epidemiology 107:71-76), with the adjusted interval at level conf of
// Lang and Reiczigel (2014), "Confidence limits for prevalence of disease
// adjusted for estimated sensitivity and specificity", Preventive
// Veterinary Medicine 113:13-22. Their interval carries the run's
// uncertainty and the calibration's: it adds z^2/2 passes and fails to
// the run and one of each to both calibration samples, and shifts the
// Wald interval of the adjusted estimate by their bias term. It returns
// [ErrTooWeak] when Se + Sp <= 1 and [ErrBadLevel] for counts that do not
// make a rate.
func RoganGladen(passed, n int, acc Accuracy, conf float64) (Corrected, error) {
	if n <= 0 || passed < 0 || passed > n || !(conf > 0 && conf < 1) || !acc.valid() {
		return Corrected{}, ErrBadLevel
	}
	se, sp := acc.Sensitivity(), acc.Specificity()
	c := Corrected{Raw: float64(passed) / float64(n), Sensitivity: se, Specificity: sp}
	if se+sp <= 1 {
		return c, ErrTooWeak
	}
	c.Rate = clamp01((c.Raw + sp - 1) / (se + sp - 1))
	z := NormalQuantile(1 - (1-conf)/2)
	// Adjusted counts: Agresti-Coull for the run, add-one-each for Se, Sp.
	np, ns, nf := float64(n)+z*z, float64(acc.HumanPass)+2, float64(acc.HumanFail)+2
	pa := (float64(passed) + z*z/2) / np
	sea := (float64(acc.GraderPass) + 1) / ns
	spa := (float64(acc.GraderFail) + 1) / nf
	youden := sea + spa - 1
	est := (pa + spa - 1) / youden
	vs, vf := sea*(1-sea)/ns, spa*(1-spa)/nf
	seEst := math.Sqrt(pa*(1-pa)/np+vs*est*est+vf*sq(1-est)) / math.Abs(youden)
	shift := 2 * z * z * (est*vs - (1-est)*vf)
	c.Low = clamp01(est + shift - z*seEst)
	c.High = clamp01(est + shift + z*seEst)
	return c, nil
}

func (a Accuracy) valid() bool {
	return a.HumanPass > 0 && a.HumanFail > 0 && a.GraderPass >= 0 && a.GraderFail >= 0 &&
		a.GraderPass <= a.HumanPass && a.GraderFail <= a.HumanFail
}

func clamp01(x float64) float64 { return min(1, max(0, x)) }
