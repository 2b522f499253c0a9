package similarity

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/metric"
)

// jsonDiffSpec builds a json_diff grader from its spec.
func jsonDiffSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := JSONDiffOptions{Threshold: o.OptThreshold(), Name: o.Name(),
		PreserveStrings: o.Bool("preserve_strings", false),
		StringScorer:    o.Enum("string_scorer", "levenshtein", stringScorerNames...),
		ExactNumbers:    o.Enum("number_scorer", "numeric_diff", "numeric_diff", "exact") == "exact"}
	if v, ok := o.Value("expected"); ok {
		opts.Expected = &v
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewJSONDiff(opts)
	if err != nil {
		return nil, kit.SpecCause("similarity: ", err)
	}
	return g, nil
}

// numericDiffSpec builds a numeric_diff grader from its spec.
func numericDiffSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := NumericDiffOptions{Threshold: o.OptThreshold(), Name: o.Name()}
	if f, ok := o.OptFloat("expected"); ok {
		opts.Expected = &f
	}
	g, err := NewNumericDiff(opts)
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// listContainsSpec builds a list_contains grader from its spec.
func listContainsSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := ListContainsOptions{Threshold: o.OptThreshold(), Name: o.Name(),
		AllowExtra:   o.Bool("allow_extra", false),
		StringScorer: o.Enum("string_scorer", "levenshtein", stringScorerNames...)}
	if v, ok := o.Value("expected"); ok {
		items, ok := v.([]any)
		if !ok {
			o.Errorf("expected", "want an array of expected items")
		}
		opts.Expected = listStrings(items)
		if opts.Expected == nil {
			opts.Expected = []string{}
		}
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewListContains(opts)
	if err != nil {
		return nil, kit.SpecCause("similarity: ", err)
	}
	return g, nil
}

// stringScorerNames are the string scorers json_diff and list_contains
// take.
var stringScorerNames = []string{"levenshtein", "exact", "fuzzy_match", "jaro", "jaro_winkler", "hamming"}

// errTooLong is returned by a string scorer whose inputs are past the
// edit-distance limit.
var errTooLong = errors.New("strings too long to compare")

// textScorer is a string scorer: its similarity and the most code-point
// pairs it compares (0 or less: no limit).
type textScorer struct {
	sim   func(a, b string) float64
	cells int
}

// newTextScorer returns the named scorer (autoevals' Levenshtein by
// default: 1 - distance / longer length, 1 for two empty strings).
func newTextScorer(name string) (textScorer, error) {
	switch name {
	case "", "levenshtein":
		return textScorer{metric.LevenshteinSimilarity, maxEditCells}, nil
	case "exact":
		return textScorer{func(a, b string) float64 {
			if a == b {
				return 1
			}
			return 0
		}, -1}, nil
	case "fuzzy_match":
		return textScorer{metric.IndelSimilarity, maxEditCells}, nil
	case "jaro":
		return textScorer{metric.JaroSimilarity, maxJaroCells}, nil
	case "jaro_winkler":
		return textScorer{func(a, b string) float64 { return metric.JaroWinklerSimilarity(a, b, jaroWinklerDefaultPrefix) }, maxJaroCells}, nil
	case "hamming":
		return textScorer{metric.HammingSimilarity, -1}, nil
	}
	return textScorer{}, fmt.Errorf("unknown string scorer %q (want one of %s)", name, strings.Join(stringScorerNames, ", "))
}

// fits returns an error wrapping errTooLong when strings of n and m code
// points are past the scorer's limit.
func (s textScorer) fits(n, m int) error {
	if s.cells > 0 && n > 0 && m > s.cells/n {
		return fmt.Errorf("%w: %d and %d code points, over %d pairs", errTooLong, n, m, s.cells)
	}
	return nil
}

// score compares a and b, or returns an error when they are too long to.
func (s textScorer) score(a, b string) (float64, error) {
	if s.cells > 0 {
		if err := s.fits(utf8.RuneCountInString(a), utf8.RuneCountInString(b)); err != nil {
			return 0, err
		}
	}
	return s.sim(a, b), nil
}

// fitsAll is fits for every item of a against every item of b, in that
// order; it returns the first pair's error. The limit grows with both
// lengths, so when the two longest items fit every pair does.
func (s textScorer) fitsAll(a, b []string) error {
	if s.cells <= 0 {
		return nil
	}
	longest := func(xs []string) int {
		n := 0
		for _, x := range xs {
			n = max(n, utf8.RuneCountInString(x))
		}
		return n
	}
	if s.fits(longest(a), longest(b)) == nil {
		return nil
	}
	for _, x := range a {
		n := utf8.RuneCountInString(x)
		for _, y := range b {
			if err := s.fits(n, utf8.RuneCountInString(y)); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonDiffer holds json_diff's scorers.
type jsonDiffer struct {
	str             textScorer
	exactNumbers    bool
	preserveStrings bool
}

// isContainerJSON parses s when it is JSON text of an object or array, as
// autoevals' validJSON accepts it.
func isContainerJSON(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return nil, false
	}
	return v, true
}

// diff is autoevals' jsonDiff on decoded JSON values (absent keys are nil,
// like null).
func (d *jsonDiffer) diff(a, b any) (float64, error) {
	if !d.preserveStrings {
		if s, ok := a.(string); ok {
			if v, ok := isContainerJSON(s); ok {
				a = v
			}
		}
		if s, ok := b.(string); ok {
			if v, ok := isContainerJSON(s); ok {
				b = v
			}
		}
	}
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			if len(x) == 0 && len(y) == 0 {
				return 1, nil
			}
			sum, n := 0.0, 0
			for k, v := range x {
				s, err := d.diff(v, y[k])
				if err != nil {
					return 0, err
				}
				sum, n = sum+s, n+1
			}
			for k, v := range y {
				if _, seen := x[k]; seen {
					continue
				}
				s, err := d.diff(nil, v)
				if err != nil {
					return 0, err
				}
				sum, n = sum+s, n+1
			}
			return sum / float64(n), nil
		}
	case []any:
		if y, ok := b.([]any); ok {
			if len(x) == 0 && len(y) == 0 {
				return 1, nil
			}
			sum := 0.0
			for i := range min(len(x), len(y)) {
				s, err := d.diff(x[i], y[i])
				if err != nil {
					return 0, err
				}
				sum += s
			}
			return sum / float64(max(len(x), len(y))), nil
		}
	case string:
		if y, ok := b.(string); ok {
			return d.str.score(x, y)
		}
	case float64:
		if y, ok := b.(float64); ok {
			if d.exactNumbers {
				if x == y {
					return 1, nil
				}
				return 0, nil
			}
			return metric.NumericDiff(x, y), nil
		}
	}
	switch {
	case a == nil && b == nil:
		return 1, nil
	case a == nil || b == nil:
		return 0, nil
	}
	return d.str.score(kit.Stringify(a), kit.Stringify(b))
}

// JSONDiffOptions configure [NewJSONDiff]. The zero value compares with the
// sample's expected answer, strings by Levenshtein similarity and numbers
// by [metric.NumericDiff], passing at 0.5.
type JSONDiffOptions struct {
	// Expected, when not nil, points at the expected value (any decoded
	// JSON value, or a Go value that encodes as JSON) used instead of the
	// sample's expected answer.
	Expected *any
	// StringScorer compares strings: "levenshtein" (default), "exact",
	// "fuzzy_match", "jaro", "jaro_winkler" or "hamming".
	StringScorer string
	// ExactNumbers scores numbers 1 when equal and 0 otherwise instead of
	// by NumericDiff.
	ExactNumbers bool
	// PreserveStrings keeps strings holding JSON objects or arrays as
	// strings instead of parsing them.
	PreserveStrings bool
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "json_diff".
	Name string
}

// JSONDiff scores how close the output's JSON is to the expected value as
// autoevals' JSONDiff computes it: objects key by key over the union of
// keys (order-free; a key missing on one side scores 0 unless the other is
// null), arrays position by position over the longer length, strings by
// the string scorer, numbers by NumericDiff, nulls equal, and anything else
// by the string scorer on both values' JSON text. The output is parsed
// when it is a JSON object or array and compared as a string otherwise; so
// is an expected string. It is not graded when there is no expected value
// or two strings are too long to compare. Immutable and safe for
// concurrent use.
type JSONDiff struct {
	name      string
	expected  any
	hasExp    bool
	d         jsonDiffer
	threshold float64
}

var _ proctor.Grader = (*JSONDiff)(nil)

// NewJSONDiff returns a json_diff grader. It returns an error for an
// unknown string scorer, an expected value that does not encode as JSON,
// or a Threshold outside [0, 1] (or NaN).
func NewJSONDiff(opts JSONDiffOptions) (*JSONDiff, error) {
	str, err := newTextScorer(opts.StringScorer)
	if err != nil {
		return nil, fmt.Errorf("similarity: json_diff: %w", err)
	}
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: json_diff %w", err)
	}
	g := &JSONDiff{name: cmp.Or(opts.Name, "json_diff"), threshold: th,
		d: jsonDiffer{str: str, exactNumbers: opts.ExactNumbers, preserveStrings: opts.PreserveStrings}}
	if opts.Expected != nil {
		v, err := kit.NormJSON(*opts.Expected)
		if err != nil {
			return nil, fmt.Errorf("similarity: json_diff: expected: %w", err)
		}
		g.expected, g.hasExp = v, true
	}
	return g, nil
}

// Name returns the grader's name.
func (g *JSONDiff) Name() string { return g.name }

// Grade scores s.Output against the expected value.
func (g *JSONDiff) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	want := g.expected
	if !g.hasExp {
		e, ok := s.ExpectedText()
		if !ok {
			return proctor.NotGraded("no expected value: set expected on the case or the spec")
		}
		want = e
		if s.ExpectedJSON {
			var v any
			if json.Unmarshal([]byte(e), &v) == nil {
				want = v
			}
		}
	}
	score, err := g.d.diff(s.Output, want)
	if err != nil {
		return proctor.ErrorGrade("json_diff", err)
	}
	return scoreGrade("JSON diff", score, g.threshold, 0, nil)
}

// NumericDiffOptions configure [NewNumericDiff]. The zero value compares
// with the sample's expected answer and passes at 0.5.
type NumericDiffOptions struct {
	// Expected, when not nil, is used instead of the sample's expected
	// answer.
	Expected *float64
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "numeric_diff".
	Name string
}

// NumericDiff scores the output number against the expected one with
// autoevals' NumericDiff ([metric.NumericDiff]). The output, trimmed, must be
// a number (Go's strconv syntax, finite); otherwise it fails with score 0.
// It is not graded when there is no expected number. Immutable and safe
// for concurrent use.
type NumericDiff struct {
	name      string
	expected  *float64
	threshold float64
}

var _ proctor.Grader = (*NumericDiff)(nil)

// NewNumericDiff returns a numeric_diff grader. It returns an error for a
// Threshold outside [0, 1] (or NaN), or an Expected that is not finite.
func NewNumericDiff(opts NumericDiffOptions) (*NumericDiff, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: numeric_diff %w", err)
	}
	g := &NumericDiff{name: cmp.Or(opts.Name, "numeric_diff"), threshold: th}
	if opts.Expected != nil {
		e := *opts.Expected
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return nil, fmt.Errorf("similarity: numeric_diff expected %v: want a finite number", e)
		}
		g.expected = &e
	}
	return g, nil
}

// Name returns the grader's name.
func (g *NumericDiff) Name() string { return g.name }

func parseFinite(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// Grade scores s.Output.
func (g *NumericDiff) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	var want float64
	if g.expected != nil {
		want = *g.expected
	} else {
		e, ok := s.ExpectedText()
		if !ok {
			return proctor.NotGraded("no expected number: set expected on the case or the spec")
		}
		f, ok := parseFinite(e)
		if !ok {
			return proctor.NotGradedf("expected %q is not a number", kit.ClipRunes(e, 40))
		}
		want = f
	}
	got, ok := parseFinite(s.Output)
	if !ok {
		return proctor.Failf("output %q is not a number", kit.ClipRunes(s.Output, 40)).WithScore(0)
	}
	return scoreGrade(fmt.Sprintf("numeric diff of %v against %v:", got, want), metric.NumericDiff(got, want), g.threshold, 0, nil)
}

// maxListItems bounds list_contains' lists: the assignment takes cubic
// time in the longer list.
const maxListItems = 500

// ListContainsOptions configure [NewListContains]. The zero value compares
// with the sample's expected answer (a JSON array) by Levenshtein
// similarity and passes at 0.5.
type ListContainsOptions struct {
	// Expected, when not nil, is the expected list instead of the
	// sample's.
	Expected []string
	// AllowExtra divides by the expected list's length only, so extra
	// output items cost nothing.
	AllowExtra bool
	// StringScorer compares items, as for [JSONDiffOptions].
	StringScorer string
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "list_contains".
	Name string
}

// ListContains scores the overlap of the output list with the expected
// list as autoevals' ListContains does: every output item is scored
// against every expected item, the one-to-one assignment with the highest
// total is taken, and the total is divided by the longer list's length
// (the expected list's with AllowExtra). Two empty lists score 1, one
// empty list 0. The output must be a JSON array (items that are not
// strings compare as their JSON text); otherwise it fails with score 0.
// It is not graded without an expected list, when a list is longer than
// 500 items, or when two items are too long to compare. Immutable and safe
// for concurrent use.
type ListContains struct {
	name       string
	expected   []string
	allowExtra bool
	str        textScorer
	threshold  float64
}

var _ proctor.Grader = (*ListContains)(nil)

// NewListContains returns a list_contains grader. It returns an error for
// an unknown string scorer or a Threshold outside [0, 1] (or NaN).
func NewListContains(opts ListContainsOptions) (*ListContains, error) {
	str, err := newTextScorer(opts.StringScorer)
	if err != nil {
		return nil, fmt.Errorf("similarity: list_contains: %w", err)
	}
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: list_contains %w", err)
	}
	g := &ListContains{name: cmp.Or(opts.Name, "list_contains"), allowExtra: opts.AllowExtra, str: str,
		threshold: th}
	if opts.Expected != nil {
		g.expected = append([]string{}, opts.Expected...)
	}
	return g, nil
}

// Name returns the grader's name.
func (g *ListContains) Name() string { return g.name }

// listStrings turns decoded JSON items into the strings autoevals compares.
func listStrings(items []any) []string {
	if items == nil {
		return nil
	}
	out := make([]string, len(items))
	for i, it := range items {
		if s, ok := it.(string); ok {
			out[i] = s
		} else {
			out[i] = kit.Stringify(it)
		}
	}
	return out
}

// Grade scores s.Output.
func (g *ListContains) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	want := g.expected
	if want == nil {
		e, ok := s.ExpectedText()
		if !ok {
			return proctor.NotGraded("no expected list: set expected on the case or the spec")
		}
		var items []any
		if json.Unmarshal([]byte(e), &items) != nil || items == nil {
			return proctor.NotGradedf("expected %q is not a JSON array", kit.ClipRunes(e, 40))
		}
		want = listStrings(items)
	}
	var items []any
	if json.Unmarshal([]byte(strings.TrimSpace(s.Output)), &items) != nil || items == nil {
		return proctor.Fail("output is not a JSON array").WithScore(0)
	}
	got := listStrings(items)
	if len(got) > maxListItems || len(want) > maxListItems {
		return proctor.NotGradedf("lists of %d and %d items: the limit is %d", len(got), len(want), maxListItems)
	}
	if err := g.str.fitsAll(got, want); err != nil {
		return proctor.ErrorGrade("list_contains", err)
	}
	score := metric.ListContains(got, want, g.allowExtra, g.str.sim)
	return scoreGrade("list overlap", score, g.threshold, 0, nil)
}

// jsonDiffSpecTypes documents the similarity family's spec types json_diff,
// numeric_diff and list_contains, for [SpecTypes], with their
// builders.
func jsonDiffSpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "json_diff", ExpectedTemplate: true, Build: jsonDiffSpec, Family: "similarity", Summary: "partial credit between the output's JSON and the expected value (autoevals' JSONDiff)",
			About: "Objects score the mean over the union of their keys (a key missing on one side scores 0 unless the other side is null), arrays the sum over positions divided by the longer length, strings by string_scorer, numbers by numeric_diff's formula, two nulls 1, mismatched kinds by string_scorer on both sides' JSON text. A string that holds a JSON object or array (the output too) is parsed first; an output that is neither is compared as a string. No references: only expected.",
			Options: []proctor.SpecOptionDoc{
				{Name: "expected", Type: "any JSON value", Default: "the sample's expected", Meaning: "The expected value. A string may hold templates such as {{item.KEY}} (docs/templates.md)."},
				docThreshold("0.5"),
				{Name: "string_scorer", Type: "string", Default: "levenshtein", Meaning: "How strings compare: levenshtein (over code points, as autoevals' Python version), exact, fuzzy_match, jaro, jaro_winkler or hamming."},
				{Name: "number_scorer", Type: "string", Default: "numeric_diff", Meaning: "How numbers compare: numeric_diff or exact."},
				{Name: "preserve_strings", Type: "boolean", Default: "false", Meaning: "Do not parse strings that hold JSON."},
			},
			Example: `{"type": "json_diff", "expected": {"name": "Ada", "born": 1815}, "threshold": 0.9}`},
		{Name: "numeric_diff", ExpectedTemplate: true, Build: numericDiffSpec, Family: "similarity", Summary: "1 - |expected - output| / (|expected| + |output|) (autoevals' NumericDiff)",
			About: "1 when both are 0, so numbers of opposite sign score 0. The trimmed output must be a number, else the grade fails with score 0.",
			Options: []proctor.SpecOptionDoc{
				{Name: "expected", Type: "number, or a template string", Default: "the sample's expected", Meaning: "The expected number. " + kit.DocValueTemplate},
				docThreshold("0.5"),
			},
			Example: `{"type": "numeric_diff", "expected": 42, "threshold": 0.95}`},
		{Name: "list_contains", Build: listContainsSpec, Family: "similarity", Summary: "best one-to-one pairing of the output's items with the expected ones (autoevals' ListContains)",
			About: "Each output item is scored against each expected item, the pairing with the highest total is found (the Hungarian method, as autoevals' linear sum assignment) and the total is divided by the longer list's length (the expected list's with allow_extra). Two empty lists score 1, one empty list 0. The output must be a JSON array (non-string items compare as their JSON text), else the grade fails with score 0. Not graded past 500 items a side.",
			Options: []proctor.SpecOptionDoc{
				{Name: "expected", Type: "array", Default: "the sample's expected (a JSON array)", Meaning: "The expected items."},
				docThreshold("0.5"),
				{Name: "allow_extra", Type: "boolean", Default: "false", Meaning: "Extra output items cost nothing."},
				{Name: "string_scorer", Type: "string", Default: "levenshtein", Meaning: "How items compare, as for json_diff."},
			},
			Example: `{"type": "list_contains", "expected": ["Paris", "Lyon"], "threshold": 0.8}`},
	}
}
