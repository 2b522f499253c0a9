package proctor

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

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/assign"
	"github.com/proctorhq/proctor/metric"
)

// jsonDiffSpecs registers the spec types json_diff, numeric_diff and
// list_contains (autoevals' JSONDiff, NumericDiff and ListContains).
func jsonDiffSpecs(m map[string]Builder) {
	m["json_diff"] = func(o *SpecOptions) (Grader, error) {
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
		return NewJSONDiff(opts)
	}
	m["numeric_diff"] = func(o *SpecOptions) (Grader, error) {
		opts := NumericDiffOptions{Threshold: o.OptThreshold(), Name: o.Name()}
		if f, ok := o.OptFloat("expected"); ok {
			opts.Expected = &f
		}
		if err := o.Err(); err != nil {
			return nil, err
		}
		return NewNumericDiff(opts), nil
	}
	m["list_contains"] = func(o *SpecOptions) (Grader, error) {
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
		return NewListContains(opts)
	}
}

// stringScorerNames are the string scorers json_diff and list_contains
// take.
var stringScorerNames = []string{"levenshtein", "exact", "fuzzy_match", "jaro", "jaro_winkler", "hamming"}

// errTooLong is returned by a string scorer whose inputs are past the
// edit-distance limit.
var errTooLong = errors.New("strings too long to compare")

// stringScorer returns the named scorer (autoevals' Levenshtein by
// default: 1 - distance / longer length, 1 for two empty strings).
func stringScorer(name string) (func(a, b string) (float64, error), error) {
	var sim func(a, b string) float64
	cells := maxEditCells
	switch name {
	case "", "levenshtein":
		sim = metric.LevenshteinSimilarity
	case "exact":
		return func(a, b string) (float64, error) {
			if a == b {
				return 1, nil
			}
			return 0, nil
		}, nil
	case "fuzzy_match":
		sim = metric.IndelSimilarity
	case "jaro":
		sim, cells = metric.JaroSimilarity, maxJaroCells
	case "jaro_winkler":
		sim, cells = func(a, b string) float64 { return metric.JaroWinklerSimilarity(a, b, jaroWinklerDefaultPrefix) }, maxJaroCells
	case "hamming":
		sim, cells = metric.HammingSimilarity, -1
	default:
		return nil, fmt.Errorf("unknown string scorer %q (want one of %s)", name, strings.Join(stringScorerNames, ", "))
	}
	return func(a, b string) (float64, error) {
		n, m := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
		if cells > 0 && n > 0 && m > cells/n {
			return 0, fmt.Errorf("%w: %d and %d code points, over %d pairs", errTooLong, n, m, cells)
		}
		return sim(a, b), nil
	}, nil
}

// NumericDiffScore returns autoevals' NumericDiff of output against
// expected: 1 when both are 0, else 1 - |expected - output| / (|expected| +
// |output|), which is 0 for numbers of opposite signs. Values too large to
// add are scaled first, so the result is never NaN for finite inputs.
func NumericDiffScore(output, expected float64) float64 {
	if output == 0 && expected == 0 {
		return 1
	}
	d, s := math.Abs(expected-output), math.Abs(expected)+math.Abs(output)
	if math.IsInf(d, 0) || math.IsInf(s, 0) {
		m := max(math.Abs(expected), math.Abs(output))
		e, o := expected/m, output/m
		d, s = math.Abs(e-o), math.Abs(e)+math.Abs(o)
	}
	return 1 - d/s
}

// jsonDiffer holds json_diff's scorers.
type jsonDiffer struct {
	str             func(a, b string) (float64, error)
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
			return d.str(x, y)
		}
	case float64:
		if y, ok := b.(float64); ok {
			if d.exactNumbers {
				if x == y {
					return 1, nil
				}
				return 0, nil
			}
			return NumericDiffScore(x, y), nil
		}
	}
	switch {
	case a == nil && b == nil:
		return 1, nil
	case a == nil || b == nil:
		return 0, nil
	}
	return d.str(kit.Stringify(a), kit.Stringify(b))
}

// JSONDiffOptions configure [NewJSONDiff]. The zero value compares with the
// sample's expected answer, strings by Levenshtein similarity and numbers
// by [NumericDiffScore], passing at 0.5.
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

var _ Grader = (*JSONDiff)(nil)

// NewJSONDiff returns a json_diff grader. It returns an error for an
// unknown string scorer or an expected value that does not encode as
// JSON.
func NewJSONDiff(opts JSONDiffOptions) (*JSONDiff, error) {
	str, err := stringScorer(opts.StringScorer)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_diff: %w", err)
	}
	g := &JSONDiff{name: cmp.Or(opts.Name, "json_diff"), threshold: kit.Deref(opts.Threshold, 0.5),
		d: jsonDiffer{str: str, exactNumbers: opts.ExactNumbers, preserveStrings: opts.PreserveStrings}}
	if opts.Expected != nil {
		v, err := kit.NormJSON(*opts.Expected)
		if err != nil {
			return nil, fmt.Errorf("proctor: json_diff: expected: %w", err)
		}
		g.expected, g.hasExp = v, true
	}
	return g, nil
}

// Name returns the grader's name.
func (g *JSONDiff) Name() string { return g.name }

// Grade scores s.Output against the expected value.
func (g *JSONDiff) Grade(_ context.Context, s *Sample) Grade {
	want := g.expected
	if !g.hasExp {
		e, ok := s.ExpectedText()
		if !ok {
			return NotGraded("no expected value: set expected on the case or the spec")
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
		return ErrorGrade("json_diff", err)
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
// autoevals' NumericDiff ([NumericDiffScore]). The output, trimmed, must be
// a number (Go's strconv syntax, finite); otherwise it fails with score 0.
// It is not graded when there is no expected number. Immutable and safe
// for concurrent use.
type NumericDiff struct {
	name      string
	expected  *float64
	threshold float64
}

var _ Grader = (*NumericDiff)(nil)

// NewNumericDiff returns a numeric_diff grader.
func NewNumericDiff(opts NumericDiffOptions) *NumericDiff {
	g := &NumericDiff{name: cmp.Or(opts.Name, "numeric_diff"), threshold: kit.Deref(opts.Threshold, 0.5)}
	if opts.Expected != nil {
		e := *opts.Expected
		g.expected = &e
	}
	return g
}

// Name returns the grader's name.
func (g *NumericDiff) Name() string { return g.name }

func parseFinite(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// Grade scores s.Output.
func (g *NumericDiff) Grade(_ context.Context, s *Sample) Grade {
	var want float64
	if g.expected != nil {
		want = *g.expected
	} else {
		e, ok := s.ExpectedText()
		if !ok {
			return NotGraded("no expected number: set expected on the case or the spec")
		}
		f, ok := parseFinite(e)
		if !ok {
			return NotGradedf("expected %q is not a number", kit.ClipRunes(e, 40))
		}
		want = f
	}
	got, ok := parseFinite(s.Output)
	if !ok {
		return Failf("output %q is not a number", kit.ClipRunes(s.Output, 40)).WithScore(0)
	}
	return scoreGrade(fmt.Sprintf("numeric diff of %v against %v:", got, want), NumericDiffScore(got, want), g.threshold, 0, nil)
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
	str        func(a, b string) (float64, error)
	threshold  float64
}

var _ Grader = (*ListContains)(nil)

// NewListContains returns a list_contains grader. It returns an error for
// an unknown string scorer.
func NewListContains(opts ListContainsOptions) (*ListContains, error) {
	str, err := stringScorer(opts.StringScorer)
	if err != nil {
		return nil, fmt.Errorf("proctor: list_contains: %w", err)
	}
	g := &ListContains{name: cmp.Or(opts.Name, "list_contains"), allowExtra: opts.AllowExtra, str: str,
		threshold: kit.Deref(opts.Threshold, 0.5)}
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

// ListContainsScore returns autoevals' ListContains score of output
// against expected under the pairwise scorer sim.
func ListContainsScore(output, expected []string, allowExtra bool, sim func(a, b string) float64) float64 {
	s, _ := listContains(output, expected, allowExtra, func(a, b string) (float64, error) { return sim(a, b), nil })
	return s
}

func listContains(output, expected []string, allowExtra bool, sim func(a, b string) (float64, error)) (float64, error) {
	switch {
	case len(output) == 0 && len(expected) == 0:
		return 1, nil
	case len(output) == 0 || len(expected) == 0:
		return 0, nil
	}
	w := make([][]float64, len(output))
	for i, o := range output {
		w[i] = make([]float64, len(expected))
		for j, e := range expected {
			s, err := sim(o, e)
			if err != nil {
				return 0, err
			}
			w[i][j] = s
		}
	}
	total := 0.0
	for i, j := range assign.Max(w) {
		if j >= 0 {
			total += w[i][j]
		}
	}
	den := max(len(output), len(expected))
	if allowExtra {
		den = len(expected)
	}
	return min(max(total/float64(den), 0), 1), nil
}

// Grade scores s.Output.
func (g *ListContains) Grade(_ context.Context, s *Sample) Grade {
	want := g.expected
	if want == nil {
		e, ok := s.ExpectedText()
		if !ok {
			return NotGraded("no expected list: set expected on the case or the spec")
		}
		var items []any
		if json.Unmarshal([]byte(e), &items) != nil || items == nil {
			return NotGradedf("expected %q is not a JSON array", kit.ClipRunes(e, 40))
		}
		want = listStrings(items)
	}
	var items []any
	if json.Unmarshal([]byte(strings.TrimSpace(s.Output)), &items) != nil || items == nil {
		return Fail("output is not a JSON array").WithScore(0)
	}
	got := listStrings(items)
	if len(got) > maxListItems || len(want) > maxListItems {
		return NotGradedf("lists of %d and %d items: the limit is %d", len(got), len(want), maxListItems)
	}
	score, err := listContains(got, want, g.allowExtra, g.str)
	if err != nil {
		return ErrorGrade("list_contains", err)
	}
	return scoreGrade("list overlap", score, g.threshold, 0, nil)
}
