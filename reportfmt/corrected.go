package reportfmt

import (
	"errors"
	"fmt"

	"github.com/proctorhq/proctor/calibrate"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// CorrectedRate is a model-graded check's pass rate over its grades, and
// the same rate corrected for the grader's own errors as a calibration
// against human labels measured them.
type CorrectedRate struct {
	// Grader is the check's name, as its grades carry it.
	Grader string `json:"grader"`
	// Passed and Graded count the check's grades that passed, and that
	// passed or failed, over every attempt.
	Passed int `json:"passed"`
	Graded int `json:"graded"`
	// RawPassRate is Passed / Graded; 0 with nothing graded.
	RawPassRate float64 `json:"raw_pass_rate"`
	// Corrected is the Rogan-Gladen pass rate with Lang and Reiczigel's
	// interval (rate, low, high, sensitivity, specificity); nil when the
	// calibration is too weak or nothing was graded (Note says why).
	Corrected *metric.Corrected `json:"corrected_pass_rate"`
	// Accuracy is the calibration's counts the correction used.
	Accuracy metric.Accuracy `json:"calibration"`
	// Note says why there is no correction.
	Note string `json:"note,omitempty"`
}

// Calibrate asks the summary to correct the pass rate of each calibrated
// grader's check. It may be called before or after the cases are added
// (a reader of a report learns the calibrations from its tail). Grades
// are matched to a calibration by the grader's name.
func (s *Summary) Calibrate(cals ...calibrate.File) {
	if s.calibrated == nil {
		s.calibrated = map[string]*CorrectedRate{}
	}
	for _, c := range cals {
		if _, ok := s.calibrated[c.Grader]; !ok {
			s.calibOrder = append(s.calibOrder, c.Grader)
		}
		s.calibrated[c.Grader] = &CorrectedRate{Grader: c.Grader, Accuracy: c.Result.Accuracy()}
	}
}

// countCalibrated counts the passed and failed grades of every grader in
// c, for the graders calibrated now or later.
func (s *Summary) countCalibrated(c proctor.CaseResult) {
	for _, a := range c.Attempts {
		for _, g := range a.Grades {
			if g.Status != proctor.StatusPassed && g.Status != proctor.StatusFailed {
				continue
			}
			n := s.gradeCounts[g.Grader]
			if n == nil {
				if s.gradeCounts == nil {
					s.gradeCounts = map[string]*[2]int{}
				}
				n = &[2]int{}
				s.gradeCounts[g.Grader] = n
			}
			n[1]++
			if g.Status == proctor.StatusPassed {
				n[0]++
			}
		}
	}
}

// Corrected returns each calibrated grader's raw and corrected pass rate,
// in the order [Summary.Calibrate] was given them.
func (s *Summary) Corrected() []CorrectedRate {
	out := make([]CorrectedRate, 0, len(s.calibOrder))
	for _, name := range s.calibOrder {
		r := *s.calibrated[name]
		r.Corrected, r.Note = nil, ""
		if n := s.gradeCounts[name]; n != nil {
			r.Passed, r.Graded = n[0], n[1]
		}
		if r.Graded == 0 {
			r.Note = "no grade of this check passed or failed"
			out = append(out, r)
			continue
		}
		r.RawPassRate = float64(r.Passed) / float64(r.Graded)
		c, err := metric.RoganGladen(r.Passed, r.Graded, r.Accuracy, 0.95)
		switch {
		case errors.Is(err, metric.ErrTooWeak):
			r.Note = fmt.Sprintf("sensitivity %.2f + specificity %.2f <= 1: the calibration is too weak to correct", c.Sensitivity, c.Specificity)
		case err != nil:
			r.Note = "the calibration has no human pass or no human fail: cannot correct"
		default:
			r.Corrected = &c
		}
		out = append(out, r)
	}
	return out
}

// correctedLine is the terminal and Markdown line for one grader.
func correctedLine(r CorrectedRate) string {
	head := fmt.Sprintf("%s: raw %s of %d grades", r.Grader, pct(r.RawPassRate), r.Graded)
	if r.Corrected == nil {
		return head + "; " + r.Note
	}
	c := r.Corrected
	return fmt.Sprintf("%s -> corrected %s, 95%% CI %s-%s (Rogan-Gladen, Lang-Reiczigel; sensitivity %.2f of %d, specificity %.2f of %d)",
		head, pct(c.Rate), pct(c.Low), pct(c.High), c.Sensitivity, r.Accuracy.HumanPass, c.Specificity, r.Accuracy.HumanFail)
}
