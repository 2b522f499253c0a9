package similarity

import (
	"cmp"
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/metric"
)

// LocalizationF1Options configure [NewLocalizationF1]. The zero value reads
// the expected locations from the sample's expected answer and passes at
// 0.5.
type LocalizationF1Options struct {
	// Expected, when not nil, are the locations compared with instead of
	// the sample's expected answer.
	Expected metric.Locations
	// Threshold is the score to reach; nil means 0.5. A score of 0 fails
	// even at threshold 0.
	Threshold *float64
	// Name is shown in results; default "localization_f1".
	Name string
}

// LocalizationF1 passes when the locations the output cites (see
// [metric.ParseLocations]) match the expected ones well enough: the
// [metric.LocalizationScore] reaches the threshold. An output that cites nothing
// or cannot be read, or scores 0, fails even at threshold 0. It is not
// graded when there are no expected locations or the sample's cannot be
// read. Its evidence is the [metric.LocalizationScore]. A LocalizationF1 is
// immutable and safe for concurrent use.
type LocalizationF1 struct {
	name      string
	want      metric.Locations
	threshold float64
}

var _ proctor.Grader = (*LocalizationF1)(nil)

// NewLocalizationF1 returns a localization grader. It returns an error for
// a Threshold outside [0, 1] (or NaN).
func NewLocalizationF1(opts LocalizationF1Options) (*LocalizationF1, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: localization_f1 %w", err)
	}
	return &LocalizationF1{name: cmp.Or(opts.Name, "localization_f1"), want: opts.Expected, threshold: th}, nil
}

// Name returns the grader's name.
func (g *LocalizationF1) Name() string { return g.name }

// Grade scores the locations s.Output cites.
func (g *LocalizationF1) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	want := g.want
	if want == nil {
		e, ok := s.ExpectedText()
		if !ok {
			return proctor.NotGraded("no expected locations: set expected on the case or the spec")
		}
		w, err := metric.ParseLocations(e)
		if err != nil {
			return proctor.ErrorGrade("expected locations unreadable", err)
		}
		want = w
	}
	got, err := metric.ParseLocations(s.Output)
	if err != nil {
		return proctor.Fail("output cites no readable locations: " + err.Error()).WithScore(0)
	}
	sc := metric.Localization(got, want)
	if sc.Score == 0 {
		gr := proctor.Fail("no cited location matches the expected ones").WithScore(0)
		gr.Evidence = sc
		return gr
	}
	return scoreGrade("localization F1", sc.Score, g.threshold, 0, sc)
}

func localizationSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := LocalizationF1Options{Threshold: o.OptThreshold(), Name: o.Name()}
	if r, ok := o.Raw("expected"); ok {
		var text string
		switch kit.JSONKind(r) {
		case "a string":
			text = o.String("expected", "")
		case "an object":
			text = string(r)
		default:
			o.Errorf("expected", "want a string of path:start-end citations or an object of file -> ranges, got %s", kit.JSONKind(r))
		}
		if o.Err() == nil {
			locs, err := metric.ParseLocations(text)
			if err != nil {
				o.Wrap("expected", "unreadable locations", err)
			}
			opts.Expected = locs
		}
	}
	g, err := NewLocalizationF1(opts)
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}
