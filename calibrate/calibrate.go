package calibrate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/proctorhq/proctor"

	"github.com/proctorhq/proctor/metric"
	"golang.org/x/sync/errgroup"
)

// LabelledSample is a sample with a person's verdict on it, for
// [Run].
type LabelledSample struct {
	proctor.Sample
	// Label is the human verdict: [proctor.StatusPassed] or [proctor.StatusFailed].
	Label proctor.Status
}

// ConfusionMatrix counts human labels (rows) against the grader's
// statuses (columns).
//
// Each field is named label first, then status: PassNotGraded counts the
// samples a human passed that the grader did not grade.
type ConfusionMatrix struct {
	PassPassed    int `json:"pass_passed"`
	PassFailed    int `json:"pass_failed"`
	PassNotGraded int `json:"pass_not_graded"`
	FailPassed    int `json:"fail_passed"`
	FailFailed    int `json:"fail_failed"`
	FailNotGraded int `json:"fail_not_graded"`
}

// Result says how well a grader agrees with human labels.
// Agreement and Kappa are computed over the samples the grader passed or
// failed; the ones it did not grade are counted in AbstentionRate, never
// as agreement or disagreement.
type Result struct {
	// Samples is the number of labelled samples graded.
	Samples int `json:"samples"`
	// Graded is how many of them the grader passed or failed; NotGraded
	// how many it did not grade.
	Graded    int `json:"graded"`
	NotGraded int `json:"not_graded"`
	// Agree is how many graded samples got the human label's status.
	Agree int `json:"agree"`
	// Agreement is Agree / Graded; NaN when nothing was graded.
	Agreement float64 `json:"-"`
	// Kappa is Cohen's kappa over the graded samples: agreement corrected
	// for what chance would give with the same pass rates. NaN when
	// nothing was graded or chance agreement is 1 (one label throughout).
	Kappa float64 `json:"-"`
	// AbstentionRate is NotGraded / Samples.
	AbstentionRate float64 `json:"abstention_rate"`
	// Confusion counts labels against statuses, not-graded ones included.
	Confusion ConfusionMatrix `json:"confusion"`
}

// MarshalJSON writes agreement and kappa as numbers, or null where they
// are not defined.
func (c Result) MarshalJSON() ([]byte, error) {
	type plain Result
	num := func(f float64) *float64 {
		if math.IsNaN(f) {
			return nil
		}
		return &f
	}
	return json.Marshal(struct {
		plain
		Agreement *float64 `json:"agreement"`
		Kappa     *float64 `json:"kappa"`
	}{plain(c), num(c.Agreement), num(c.Kappa)})
}

// Run grades every sample with g, at most four at a time, and
// compares the grades with the labels. When ctx is cancelled it returns
// ctx.Err() with the samples graded so far counted.
func Run(ctx context.Context, g proctor.Grader, samples []LabelledSample) (Result, error) {
	got := make([]proctor.Status, len(samples))
	done := make([]bool, len(samples))
	ch := proctor.Check{Grader: g}
	var eg errgroup.Group
	eg.SetLimit(4)
	for i := range samples {
		if ctx.Err() != nil {
			break
		}
		eg.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			gr := ch.Grade(ctx, &samples[i].Sample)
			if ctx.Err() == nil {
				got[i], done[i] = gr.Status, true
			}
			return nil
		})
	}
	_ = eg.Wait()
	var c Result
	for i, s := range samples {
		if done[i] {
			c.add(s.Label, got[i])
		}
	}
	c.finish()
	return c, ctx.Err()
}

// add counts one labelled grade.
func (c *Result) add(label, got proctor.Status) {
	c.Samples++
	m := &c.Confusion
	pass := label == proctor.StatusPassed
	switch got {
	case proctor.StatusPassed:
		c.Graded++
		if pass {
			m.PassPassed++
			c.Agree++
		} else {
			m.FailPassed++
		}
	case proctor.StatusFailed:
		c.Graded++
		if pass {
			m.PassFailed++
		} else {
			m.FailFailed++
			c.Agree++
		}
	default:
		c.NotGraded++
		if pass {
			m.PassNotGraded++
		} else {
			m.FailNotGraded++
		}
	}
}

// finish computes the rates.
func (c *Result) finish() {
	c.Agreement, c.Kappa = math.NaN(), math.NaN()
	if c.Samples > 0 {
		c.AbstentionRate = float64(c.NotGraded) / float64(c.Samples)
	}
	if c.Graded == 0 {
		return
	}
	n := float64(c.Graded)
	m := c.Confusion
	po := float64(c.Agree) / n
	humanPass := float64(m.PassPassed + m.PassFailed)
	gradPass := float64(m.PassPassed + m.FailPassed)
	pe := (humanPass*gradPass + (n-humanPass)*(n-gradPass)) / (n * n)
	c.Agreement = po
	if pe < 1 {
		c.Kappa = (po - pe) / (1 - pe)
	}
}

// ReadLabelled reads labelled samples as JSON lines: a sample object as
// `proctor grade` reads it, plus "label": "pass" or "fail". Blank lines are
// skipped; a line that does not decode, or has no valid label, is an error
// naming the line.
func ReadLabelled(r io.Reader) ([]LabelledSample, error) {
	var out []LabelledSample
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var ls LabelledSample
		if err := json.Unmarshal(line, &ls.Sample); err != nil {
			return nil, fmt.Errorf("calibrate: labelled samples line %d: %w", n, err)
		}
		var l struct {
			Label *string `json:"label"`
		}
		_ = json.Unmarshal(line, &l)
		switch {
		case l.Label == nil:
			return nil, fmt.Errorf("calibrate: labelled samples line %d: no \"label\" (want pass or fail)", n)
		case *l.Label == "pass" || *l.Label == "passed":
			ls.Label = proctor.StatusPassed
		case *l.Label == "fail" || *l.Label == "failed":
			ls.Label = proctor.StatusFailed
		default:
			return nil, fmt.Errorf("calibrate: labelled samples line %d: label %q (want pass or fail)", n, *l.Label)
		}
		out = append(out, ls)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("calibrate: labelled samples: %w", err)
	}
	return out, nil
}

// File is what `proctor calibrate --json` writes: the
// grader's name (the spec's name, as grades carry it) and its
// calibration against human labels.
type File struct {
	// Grader is the name of the calibrated grader.
	Grader string
	// Result is its agreement with the labels.
	Result Result
}

// Accuracy returns the grader's sensitivity and specificity as counts,
// over the labelled samples it passed or failed: of those people passed,
// how many it passed; of those people failed, how many it failed.
func (c Result) Accuracy() metric.Accuracy {
	m := c.Confusion
	return metric.Accuracy{GraderPass: m.PassPassed, HumanPass: m.PassPassed + m.PassFailed,
		GraderFail: m.FailFailed, HumanFail: m.FailFailed + m.FailPassed}
}

// ErrFormat is returned by [Parse] for a file that is not
// a calibration.
var ErrFormat = errors.New("calibrate: not a proctor calibrate --json file")

// Parse reads the JSON `proctor calibrate --json` writes. It
// needs the grader's name and the confusion matrix; agreement and kappa
// are recomputed from the counts, not trusted. A negative or huge count
// is an [ErrFormat].
func Parse(b []byte) (File, error) {
	var w struct {
		Grader    *string          `json:"grader"`
		Confusion *ConfusionMatrix `json:"confusion"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return File{}, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if w.Grader == nil || *w.Grader == "" || w.Confusion == nil {
		return File{}, fmt.Errorf("%w: want \"grader\" and \"confusion\" (rerun proctor calibrate --json)", ErrFormat)
	}
	m := *w.Confusion
	for _, n := range []int{m.PassPassed, m.PassFailed, m.PassNotGraded, m.FailPassed, m.FailFailed, m.FailNotGraded} {
		if n < 0 || n > 1<<40 {
			return File{}, fmt.Errorf("%w: count %d out of range", ErrFormat, n)
		}
	}
	c := Result{Confusion: m, Graded: m.PassPassed + m.PassFailed + m.FailPassed + m.FailFailed,
		NotGraded: m.PassNotGraded + m.FailNotGraded, Agree: m.PassPassed + m.FailFailed}
	c.Samples = c.Graded + c.NotGraded
	c.finish()
	return File{Grader: *w.Grader, Result: c}, nil
}
