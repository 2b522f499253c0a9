package proctor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/kit"
)

// ExactMatch passes when the trimmed output equals the expected value,
// ignoring case unless [ExactMatchOptions.CaseSensitive]. An expected JSON
// object or array is compared structurally with the output decoded as JSON
// (fences and prose removed; object keys in any order). With no expected
// value, in the options or on the sample, it is not graded.
//
// An ExactMatch is immutable and safe for concurrent use.
type ExactMatch struct {
	name       string
	want       string
	hasWant    bool
	structural any // decoded expected JSON value when it is an object or array
	opts       ExactMatchOptions
}

// ExactMatchOptions configure [NewExactMatch]. The zero value compares
// case-insensitively with punctuation kept.
type ExactMatchOptions struct {
	// CaseSensitive compares case as well.
	CaseSensitive bool
	// RemovePunctuation drops Unicode punctuation from both sides first.
	RemovePunctuation bool
	// Name is shown in results; default "exact_match".
	Name string
}

var _ Grader = (*ExactMatch)(nil)

// NewExactMatch returns a grader that compares with the sample's expected
// value.
func NewExactMatch(opts ExactMatchOptions) *ExactMatch {
	return &ExactMatch{name: cmp.Or(opts.Name, "exact_match"), opts: opts}
}

// NewExactMatchTo returns a grader that compares with want, whatever the
// sample expects.
func NewExactMatchTo(want string, opts ExactMatchOptions) *ExactMatch {
	g := NewExactMatch(opts)
	g.want, g.hasWant = want, true
	return g
}

// NewExactMatchJSON returns a grader that compares the output, decoded as
// JSON, with want structurally: object keys in any order, numbers by value.
func NewExactMatchJSON(want any, opts ExactMatchOptions) (*ExactMatch, error) {
	b, err := json.Marshal(want)
	if err != nil {
		return nil, fmt.Errorf("proctor: exact_match expected value: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("proctor: exact_match expected value: %w", err)
	}
	g := NewExactMatch(opts)
	g.structural, g.want, g.hasWant = v, string(b), true
	return g, nil
}

// Name returns the grader's name.
func (g *ExactMatch) Name() string { return g.name }

// Grade compares s.Output with the expected value.
func (g *ExactMatch) Grade(_ context.Context, s *Sample) Grade {
	want, ok := g.want, g.hasWant
	if !ok {
		want, ok = s.ExpectedText()
		if !ok {
			return NotGraded("no expected value: set expected on the case or the spec")
		}
		if t := strings.TrimSpace(want); s.ExpectedJSON && len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			var v any
			if json.Unmarshal([]byte(t), &v) == nil {
				return structuralMatch(v, s.Output)
			}
		}
	}
	if g.structural != nil {
		return structuralMatch(g.structural, s.Output)
	}
	got := strings.TrimSpace(s.Output)
	want = strings.TrimSpace(want)
	if g.opts.RemovePunctuation {
		got, want = stripPunct(got), stripPunct(want)
	}
	var eq bool
	if g.opts.CaseSensitive {
		eq = got == want
	} else {
		eq = strings.EqualFold(got, want)
	}
	if eq {
		return Grade{Status: StatusPassed, Score: 1, HasScore: true}
	}
	r := make([]byte, 0, 64+min(len(got), 100)+min(len(want), 100))
	r = kit.AppendQuote(append(r, "output "...), got)
	r = kit.AppendQuote(append(r, " does not equal expected "...), want)
	return Grade{Status: StatusFailed, HasScore: true, Reason: string(r)}
}

// structuralMatch decodes the output (fences removed) and compares it with
// want as JSON values.
func structuralMatch(want any, output string) Grade {
	var got any
	dec := json.NewDecoder(bytes.NewReader([]byte(fence.JSON(output))))
	if err := dec.Decode(&got); err != nil {
		return Failf("output is not JSON, expected a JSON value: %v", err)
	}
	if reflect.DeepEqual(got, want) {
		return Grade{Status: StatusPassed, Score: 1, HasScore: true}
	}
	return Grade{Status: StatusFailed, HasScore: true, Reason: "output JSON differs from the expected value"}
}

func stripPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) {
			return -1
		}
		return r
	}, s)
}

// OneOf passes when the trimmed output equals one of the values, ignoring
// case unless [OneOfOptions.CaseSensitive]. Safe for concurrent use.
type OneOf struct {
	name   string
	values []string
	opts   OneOfOptions
}

// OneOfOptions configure [NewOneOf]. The zero value ignores case.
type OneOfOptions struct {
	// CaseSensitive compares case as well.
	CaseSensitive bool
	// Name is shown in results; default "one_of".
	Name string
}

var _ Grader = (*OneOf)(nil)

// NewOneOf returns a grader that passes when the output is one of values.
// It returns an error when values is empty.
func NewOneOf(values []string, opts OneOfOptions) (*OneOf, error) {
	if len(values) == 0 {
		return nil, fmt.Errorf("proctor: one_of needs at least one value")
	}
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = strings.TrimSpace(v)
	}
	return &OneOf{name: cmp.Or(opts.Name, "one_of"), values: vs, opts: opts}, nil
}

// Name returns the grader's name.
func (g *OneOf) Name() string { return g.name }

// Grade checks s.Output against the values.
func (g *OneOf) Grade(_ context.Context, s *Sample) Grade {
	got := strings.TrimSpace(s.Output)
	for _, v := range g.values {
		if got == v || (!g.opts.CaseSensitive && strings.EqualFold(got, v)) {
			return Pass("")
		}
	}
	return Failf("output %s is not one of %d allowed values", kit.Quote(got), len(g.values))
}
