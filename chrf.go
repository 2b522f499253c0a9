package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/chrf"
)

// chrfSpecs registers the spec type chrf (chrF, and chrF++ with
// word_order 2).
func chrfSpecs(m map[string]Builder) {
	m["chrf"] = func(o *SpecOptions) (Grader, error) {
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
			var ce *chrfConfigError
			key := "char_order"
			if errors.As(err, &ce) {
				key = ce.key
			}
			o.Wrap(key, "invalid chrF setting", err)
			return nil, o.Err()
		}
		return g, nil
	}
}

// ChrFConfig holds the sacreBLEU CHRF arguments that change a chrF score.
// The zero value is sacreBLEU's default, chrF2: character n-grams up to 6,
// no word n-grams, beta 2, case kept, white space dropped, effective-order
// averaging.
type ChrFConfig struct {
	// CharOrder is the highest character n-gram order; 0 means 6.
	CharOrder int
	// WordOrder is the highest word n-gram order; 0 means none, 2 gives
	// chrF++.
	WordOrder int
	// Beta weighs recall beta times as much as precision; 0 means 2.
	Beta int
	// Lowercase compares case-insensitively (Python's str.lower).
	Lowercase bool
	// Whitespace keeps white space inside character n-grams.
	Whitespace bool
	// EpsSmoothing averages the F-scores of all orders, an order without
	// n-grams counting as 0 (chrF++.py, Moses and NLTK), instead of
	// sacreBLEU's default: precision and recall averaged over the orders
	// both sides have, then one F-score.
	EpsSmoothing bool
}

// chrfConfigError names the option a bad setting came from.
type chrfConfigError struct {
	key string
	msg string
}

func (e *chrfConfigError) Error() string { return "proctor: chrF " + e.key + ": " + e.msg }

// maxChrFOrder bounds CharOrder and WordOrder: far past any published use
// (6 and 2), it keeps a spec from asking for thousands of n-gram maps.
const maxChrFOrder = 32

func (c ChrFConfig) internal() (chrf.Config, error) {
	out := chrf.Config{CharOrder: c.CharOrder, WordOrder: c.WordOrder, Beta: c.Beta,
		Lowercase: c.Lowercase, Whitespace: c.Whitespace, EpsSmoothing: c.EpsSmoothing}
	if out.CharOrder == 0 {
		out.CharOrder = 6
	}
	if out.Beta == 0 {
		out.Beta = 2
	}
	switch {
	case out.CharOrder < 0 || out.CharOrder > maxChrFOrder:
		return out, &chrfConfigError{"char_order", fmt.Sprintf("want 1..%d, got %d", maxChrFOrder, c.CharOrder)}
	case out.WordOrder < 0 || out.WordOrder > maxChrFOrder:
		return out, &chrfConfigError{"word_order", fmt.Sprintf("want 0..%d, got %d", maxChrFOrder, c.WordOrder)}
	case out.Beta < 0 || out.Beta > 1000:
		return out, &chrfConfigError{"beta", fmt.Sprintf("want 1..1000, got %d", c.Beta)}
	}
	return out, nil
}

// SentenceChrF returns hyp's chrF against refs on a 0-1 scale, as
// sacreBLEU's sentence_chrf computes it (divided by 100): the statistics of
// the reference with the best F-score decide. It returns 0 with no
// references and an error for an invalid cfg.
func SentenceChrF(hyp string, refs []string, cfg ChrFConfig) (float64, error) {
	c, err := cfg.internal()
	if err != nil {
		return 0, err
	}
	st := c.Segment(hyp, refs)
	if st == nil {
		return 0, nil
	}
	return c.Score(st) / 100, nil
}

// CorpusChrF returns the chrF of a corpus on a 0-1 scale, as sacreBLEU's
// corpus_chrf computes it: each segment's statistics (against its best
// reference) are summed before the score is taken. refs[i] holds the
// references of hyps[i]. It returns an error when the lengths differ, a
// segment has no reference, or cfg is invalid.
func CorpusChrF(hyps []string, refs [][]string, cfg ChrFConfig) (float64, error) {
	c, err := cfg.internal()
	if err != nil {
		return 0, err
	}
	if len(hyps) != len(refs) {
		return 0, errors.New("proctor: CorpusChrF needs one list of references per hypothesis")
	}
	sum := make([]int, 3*c.Order())
	for i, h := range hyps {
		st := c.Segment(h, refs[i])
		if st == nil {
			return 0, fmt.Errorf("proctor: CorpusChrF: hypothesis %d has no reference", i)
		}
		for j, v := range st {
			sum[j] += v
		}
	}
	return c.Score(sum) / 100, nil
}

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

// ChrF passes when the output's sentence chrF ([SentenceChrF]) against the
// references reaches the threshold; with WordOrder 2 it is chrF++. It is
// not graded when there is no reference, or when the output or a
// reference is longer than [MaxNGramText]. Its work is linear in the text
// lengths. A ChrF is immutable and safe for concurrent use.
type ChrF struct {
	name      string
	cfg       chrf.Config
	label     string // "chrF2", "chrF2++": the metric's name in reasons
	refs      []string
	threshold float64
}

var _ Grader = (*ChrF)(nil)

// NewChrF returns a chrF grader, or an error when an order or beta is out
// of range (orders up to 32, beta up to 1000, none negative).
func NewChrF(opts ChrFOptions) (*ChrF, error) {
	c, err := opts.ChrFConfig.internal()
	if err != nil {
		return nil, err
	}
	return &ChrF{name: cmp.Or(opts.Name, "chrf"), cfg: c, label: fmt.Sprintf("chrF%d", c.Beta) + strings.Repeat("+", c.WordOrder),
		refs: opts.References, threshold: kit.Deref(opts.Threshold, 0.5)}, nil
}

// Name returns the grader's name.
func (g *ChrF) Name() string { return g.name }

// Grade scores s.Output.
func (g *ChrF) Grade(_ context.Context, s *Sample) Grade {
	refs, ok := multiRefs(g.refs, s)
	if !ok {
		return NotGraded(noReference)
	}
	if tl, over := overNGramLimit("chrf", s.Output, refs); over {
		return tl
	}
	score := g.cfg.Score(g.cfg.Segment(s.Output, refs)) / 100
	return scoreGrade(g.label, score, g.threshold, 0, nil)
}
