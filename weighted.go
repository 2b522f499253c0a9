package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
)

// weightedSpec builds a weighted grader from its spec.
func weightedSpec(o *SpecOptions) (Grader, error) {
	cs, keys, ok := o.Checks("graders")
	if !ok {
		// Still read the other options, so that their errors are
		// reported too and Compiler.Options lists them.
		o.Raw("weights")
		o.OptThreshold()
		return nil, o.Err()
	}
	weights := make([]float64, len(cs))
	for i := range weights {
		weights[i] = 1
	}
	if r, ok := o.Raw("weights"); ok {
		switch kit.JSONKind(r) {
		case "an array":
			var ws []float64
			if o.Decode("weights", &ws) && len(ws) != len(cs) {
				o.Errorf("weights", "want %d weights, one per grader, got %d", len(cs), len(ws))
			}
			if len(ws) == len(cs) {
				weights = ws
			}
		case "an object":
			var byName map[string]float64
			if o.Decode("weights", &byName) {
				for _, k := range slices.Sorted(maps.Keys(byName)) { // errors in a fixed order
					i := slices.Index(keys, k)
					switch {
					case i < 0:
						o.Errorf("weights", "no grader named %q (graders: %s)", k, strings.Join(keys, ", "))
					case slices.Index(keys[i+1:], k) >= 0:
						// An array of graders can repeat a name: a weight
						// by name would be ambiguous.
						o.Errorf("weights", "%q names more than one grader: give the weights as an array", k)
					default:
						weights[i] = byName[k]
					}
				}
			}
		default:
			o.Errorf("weights", "want an array of numbers or an object of grader name to number, got %s", kit.JSONKind(r))
		}
	}
	opts := WeightedOptions{Threshold: o.OptThreshold(), Name: o.Name()}
	if err := o.Err(); err != nil {
		CloseChecks(cs) // the children compiled; release what they hold
		return nil, err
	}
	children := make([]WeightedCheck, len(cs))
	for i, c := range cs {
		children[i] = WeightedCheck{Check: c, Weight: weights[i]}
	}
	g, err := NewWeighted(children, opts)
	if err != nil {
		CloseChecks(cs)
		o.Wrap("weights", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// WeightedCheck is one child of a [Weighted] set and its weight.
type WeightedCheck struct {
	// Check is the child grader.
	Check Check
	// Weight is its share of the weighted mean: finite and >= 0; a child
	// of weight 0 runs but does not count.
	Weight float64
}

// WeightedOptions configure [NewWeighted]. The zero value passes when
// every graded child passes.
type WeightedOptions struct {
	// Threshold, when not nil, is the weighted score to reach instead.
	Threshold *float64
	// Name is shown in results; default "weighted".
	Name string
}

// Weighted grades every child and scores the set by the weighted mean of
// their scores, as promptfoo's assert-set and test threshold do: a child's
// score is its Grade's score when it has one, else 1 for passed and 0 for
// failed. Children not graded (or flaky) are left out of the mean, weights
// and all, and the reason names them; a child of weight 0 runs but does
// not count. With a threshold the set passes when the weighted score
// reaches it; without one, when every counted child passed. It is not
// graded when no child with weight counted. Its evidence maps each child
// to its score (nil when left out). Its kind is the most demanding of its
// children's. Safe for concurrent use if its children are.
type Weighted struct {
	name      string
	checks    []Check
	weights   []float64 // weights[i] is checks[i]'s
	threshold *float64
}

var (
	_ Grader    = (*Weighted)(nil)
	_ io.Closer = (*Weighted)(nil)
)

// NewWeighted returns a weighted set. It returns an error when there is no
// child, a weight is negative or not finite, all weights are 0, or
// opts.Threshold lies outside [0, 1] (or is NaN).
func NewWeighted(children []WeightedCheck, opts WeightedOptions) (*Weighted, error) {
	if len(children) == 0 {
		return nil, errors.New("proctor: weighted needs at least one grader")
	}
	total := 0.0
	for i, c := range children {
		if math.IsNaN(c.Weight) || math.IsInf(c.Weight, 0) || c.Weight < 0 {
			return nil, fmt.Errorf("proctor: weighted: weight %d is %v: want a finite number >= 0", i+1, c.Weight)
		}
		total += c.Weight
	}
	if total == 0 {
		return nil, errors.New("proctor: weighted: all weights are 0")
	}
	g := &Weighted{name: cmp.Or(opts.Name, "weighted"), checks: make([]Check, len(children)), weights: make([]float64, len(children))}
	for i, c := range children {
		g.checks[i], g.weights[i] = c.Check, c.Weight
	}
	if opts.Threshold != nil {
		t, err := kit.UnitThreshold(opts.Threshold, 0)
		if err != nil {
			return nil, fmt.Errorf("proctor: weighted %w", err)
		}
		g.threshold = &t
	}
	return g, nil
}

// Name returns the grader's name.
func (g *Weighted) Name() string { return g.name }

// GraderKind returns the most demanding kind among its children.
func (g *Weighted) GraderKind() Kind { return maxKind(g.checks) }

// Close closes the children that hold resources (see [CloseChecks]).
func (g *Weighted) Close() error { return CloseChecks(g.checks) }

// Grade grades every child and combines their scores.
func (g *Weighted) Grade(ctx context.Context, s *Sample) Grade {
	var sum, total float64
	allPassed := true
	var failed, left []string
	ev := make(map[string]any, len(g.checks))
	for i, c := range g.checks {
		w := g.weights[i]
		r := c.Grade(ctx, s)
		var score float64
		switch {
		case r.Status == StatusPassed || r.Status == StatusFailed:
			if r.Status == StatusPassed {
				score = 1
			}
			if r.HasScore {
				score = r.Score
			}
		default:
			left = append(left, fmt.Sprintf("%s (%s: %s)", r.Grader, r.Status, r.Reason))
			ev[r.Grader] = nil
			continue
		}
		ev[r.Grader] = score
		if w == 0 {
			continue
		}
		sum += w * score
		total += w
		if r.Status == StatusFailed {
			allPassed = false
			failed = append(failed, r.Grader)
		}
	}
	var note string
	if len(left) > 0 {
		note = fmt.Sprintf("; left out of the weighted score: %s", strings.Join(left, "; "))
	}
	if total == 0 {
		return NotGraded("no weighted grader was graded" + note)
	}
	score := sum / total
	var gr Grade
	if g.threshold != nil {
		gr = Scored(score, *g.threshold, kit.ScoreReason("weighted score", score, *g.threshold, 0))
	} else {
		gr = Grade{Status: StatusPassed, Reason: "weighted score " + kit.FormatScore(score) + ", every counted grader passed"}.WithScore(score)
		if !allPassed {
			gr.Status = StatusFailed
			gr.Reason = fmt.Sprintf("weighted score %s; failed: %s", kit.FormatScore(score), strings.Join(failed, ", "))
		}
	}
	gr.Reason += note
	gr.Evidence = ev
	return gr
}

// weightedSpecTypes documents the combinators family's spec type weighted,
// for [Compiler.SpecTypes], with its builder.
func weightedSpecTypes() []SpecType {
	return []SpecType{
		{Name: "weighted", Build: weightedSpec, Family: "combinators", Summary: "the weighted mean of the nested specs' scores",
			About: "promptfoo's assert-set with a threshold. A nested spec's score is its own when it has one, else 1 for passed and 0 for failed. Nested specs not graded (or flaky) are left out of the mean with their weights, and the reason names each with its reason; weight 0 runs but does not count. Not graded when no weighted spec was graded. Evidence maps each nested spec's name to its score (null when left out).",
			Options: []SpecOptionDoc{
				{"graders", "spec array, or object of name to spec", "(required)", "The nested specs."},
				{"weights", "number array (one per spec), or object of name to number", "all 1", "Weights >= 0, not all 0."},
				{"threshold", "number in [0, 1]", "none", "The least passing weighted score; without it every counted spec must pass."},
			},
			Example: `{"type": "weighted", "threshold": 0.7, "graders": {"facts": {"type": "contains", "value": "Paris"}, "tone": {"type": "length", "max_words": 80}}, "weights": {"facts": 3, "tone": 1}}`},
	}
}
