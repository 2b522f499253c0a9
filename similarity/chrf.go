package similarity

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/metric"
)

// chrfSpec builds a chrf grader from its spec.
func chrfSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := ChrFOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
	opts.CharOrder = o.Int("char_order", 0)
	opts.WordOrder = o.Int("word_order", 0)
	opts.Beta = o.Int("beta", 0)
	opts.Lowercase = o.Bool("lowercase", false)
	opts.Whitespace = o.Bool("whitespace", false)
	opts.EpsSmoothing = o.Bool("eps_smoothing", false)
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewChrF(opts)
	if err != nil {
		var ce *metric.ChrFSettingError
		key := "char_order"
		if errors.As(err, &ce) {
			key = ce.Setting
		}
		o.Wrap(key, "invalid chrF setting", kit.SpecCause("similarity: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// ChrFConfig is [metric.ChrFConfig]: the sacreBLEU CHRF arguments a
// [ChrF] grader takes. The zero value is sacreBLEU's default, chrF2.
type ChrFConfig = metric.ChrFConfig

// chrfSettingError is a [metric.ChrFSettingError] in the root's words.
type chrfSettingError struct{ *metric.ChrFSettingError }

func (e chrfSettingError) Error() string { return "similarity: chrF " + e.Setting + ": " + e.Reason }

func (e chrfSettingError) Unwrap() error { return e.ChrFSettingError }

// ChrFOptions configure [NewChrF]. The zero value is sacreBLEU's chrF2
// against the sample's references (else its expected answer), passing at
// 0.5.
type ChrFOptions struct {
	ChrFConfig
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the score (0-1) to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "chrf".
	Name string
}

// ChrF passes when the output's sentence chrF ([metric.SentenceChrF])
// against the references reaches the threshold; with WordOrder 2 it is
// chrF++. It is not graded when there is no reference, or when the output
// or a reference is longer than [MaxNGramText]. Its work is linear in the
// text lengths. A ChrF is immutable and safe for concurrent use.
type ChrF struct {
	name      string
	cfg       ChrFConfig
	label     string // "chrF2", "chrF2++": the metric's name in reasons
	refs      []string
	threshold float64
}

var _ proctor.Grader = (*ChrF)(nil)

// NewChrF returns a chrF grader, or an error when an order or beta is out
// of range (orders up to 32, beta up to 1000, none negative) or Threshold
// lies outside [0, 1] (or is NaN).
func NewChrF(opts ChrFOptions) (*ChrF, error) {
	if err := opts.ChrFConfig.Check(); err != nil {
		var ce *metric.ChrFSettingError
		if errors.As(err, &ce) {
			err = chrfSettingError{ce}
		}
		return nil, err
	}
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: chrf %w", err)
	}
	return &ChrF{name: cmp.Or(opts.Name, "chrf"), cfg: opts.ChrFConfig, label: opts.ChrFConfig.Name(),
		refs: opts.References, threshold: th}, nil
}

// Name returns the grader's name.
func (g *ChrF) Name() string { return g.name }

// Grade scores s.Output.
func (g *ChrF) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := multiRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	if tl, over := overNGramLimit("chrf", s.Output, refs); over {
		return tl
	}
	score, err := metric.SentenceChrF(s.Output, refs, g.cfg)
	if err != nil {
		return proctor.ErrorGrade("chrf", err)
	}
	return scoreGrade(g.label, score, g.threshold, 0, nil)
}

// chrfSpecTypes documents the similarity family's spec type chrf, for
// [proctor.Compiler.SpecTypes], with its builder.
func chrfSpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "chrf", ReferenceTemplates: true, Build: chrfSpec, Family: "similarity", Summary: "sentence chrF (or chrF++) against the references, on a 0-1 scale",
			About: "Computed as sacreBLEU's sentence chrF, divided by 100; with several references the one with the best F-score decides, as in sacreBLEU. word_order 2 is chrF++. Not graded when the output or a reference is over 256 KiB (262,144 bytes).",
			Options: append(docSimilarity("0.5"),
				proctor.SpecOptionDoc{Name: "char_order", Type: "integer, 1 to 32", Default: "6", Meaning: "The highest character n-gram order."},
				proctor.SpecOptionDoc{Name: "word_order", Type: "integer, 0 to 32", Default: "0", Meaning: "The highest word n-gram order; 2 is chrF++."},
				proctor.SpecOptionDoc{Name: "beta", Type: "integer, 1 to 1000", Default: "2", Meaning: "Recall weighs beta times precision."},
				proctor.SpecOptionDoc{Name: "lowercase", Type: "boolean", Default: "false", Meaning: "Compare case-insensitively."},
				proctor.SpecOptionDoc{Name: "whitespace", Type: "boolean", Default: "false", Meaning: "Keep white space in character n-grams."},
				proctor.SpecOptionDoc{Name: "eps_smoothing", Type: "boolean", Default: "false", Meaning: "Average every order's F-score (chrF++.py, NLTK) instead of sacreBLEU's effective order."}),
			Example: `{"type": "chrf", "word_order": 2, "threshold": 0.6}`},
	}
}
