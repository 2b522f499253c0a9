package proctor

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MatchMode says whether every value must be present (the default) or any
// one of them.
type MatchMode uint8

const (
	// ModeAll requires every value.
	ModeAll MatchMode = iota
	// ModeAny requires at least one value.
	ModeAny
)

// ContainsOptions configure [NewContains] and [NewNotContains]. The zero
// value is case-sensitive and requires every value.
type ContainsOptions struct {
	// Mode is ModeAll (default) or ModeAny.
	Mode MatchMode
	// IgnoreCase compares with Unicode simple case folding.
	IgnoreCase bool
	// Name is shown in results; default "contains" or "not_contains".
	Name string
}

// Contains passes when the output contains the values (every one, or any
// one with [ModeAny]). Safe for concurrent use.
type Contains struct {
	name   string
	values []string
	opts   ContainsOptions
	negate bool
}

var _ Grader = (*Contains)(nil)

// NewContains returns a grader that passes when the output contains values.
// It returns an error when values is empty or holds an empty string.
func NewContains(values []string, opts ContainsOptions) (*Contains, error) {
	return newContains("contains", values, opts, false)
}

// NewNotContains returns a grader that passes when the output contains none
// of values (with ModeAll, the default) or lacks at least one (ModeAny).
func NewNotContains(values []string, opts ContainsOptions) (*Contains, error) {
	return newContains("not_contains", values, opts, true)
}

func newContains(typ string, values []string, opts ContainsOptions, negate bool) (*Contains, error) {
	if len(values) == 0 {
		return nil, fmt.Errorf("proctor: %s needs at least one value", typ)
	}
	for _, v := range values {
		if v == "" {
			return nil, fmt.Errorf("proctor: %s: empty value matches every output", typ)
		}
	}
	return &Contains{name: nameOr(opts.Name, typ), values: values, opts: opts, negate: negate}, nil
}

// Name returns the grader's name.
func (g *Contains) Name() string { return g.name }

// Grade searches s.Output.
func (g *Contains) Grade(_ context.Context, s *Sample) Grade {
	out := s.Output
	if g.negate {
		// not_contains: ModeAll passes when no value is present; ModeAny
		// passes when at least one is absent.
		for _, v := range g.values {
			found := g.has(out, v)
			if g.opts.Mode == ModeAll && found {
				return Failf("output contains %s", clip(v))
			}
			if g.opts.Mode == ModeAny && !found {
				return Pass("")
			}
		}
		if g.opts.Mode == ModeAny {
			return Fail("output contains every value")
		}
		return Pass("")
	}
	for _, v := range g.values {
		found := g.has(out, v)
		if g.opts.Mode == ModeAny && found {
			return Pass("")
		}
		if g.opts.Mode == ModeAll && !found {
			return Failf("output does not contain %s", clip(v))
		}
	}
	if g.opts.Mode == ModeAny {
		return Failf("output contains none of %d values", len(g.values))
	}
	return Pass("")
}

func (g *Contains) has(out, v string) bool {
	if g.opts.IgnoreCase {
		return containsFold(out, v)
	}
	return strings.Contains(out, v)
}

// containsFold reports whether sub is within s under Unicode simple case
// folding, without allocating.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	r0, n0 := utf8.DecodeRuneInString(sub)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == r0 || unicode.SimpleFold(r) == r0 || equalFoldRune(r, r0) {
			if hasPrefixFold(s[i:], sub) {
				return true
			}
		}
		_ = n0
		i += n
	}
	return false
}

func equalFoldRune(a, b rune) bool {
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s starts with prefix under simple folding.
func hasPrefixFold(s, prefix string) bool {
	for prefix != "" {
		if s == "" {
			return false
		}
		a, na := utf8.DecodeRuneInString(s)
		b, nb := utf8.DecodeRuneInString(prefix)
		if a != b && !equalFoldRune(a, b) {
			return false
		}
		s, prefix = s[na:], prefix[nb:]
	}
	return true
}

// hasSuffixFold reports whether s ends with suffix under simple folding.
func hasSuffixFold(s, suffix string) bool {
	for suffix != "" {
		if s == "" {
			return false
		}
		a, na := utf8.DecodeLastRuneInString(s)
		b, nb := utf8.DecodeLastRuneInString(suffix)
		if a != b && !equalFoldRune(a, b) {
			return false
		}
		s, suffix = s[:len(s)-na], suffix[:len(suffix)-nb]
	}
	return true
}

// AffixOptions configure [NewStartsWith] and [NewEndsWith]. The zero value
// is case-sensitive.
type AffixOptions struct {
	IgnoreCase bool
	// Name is shown in results; default "starts_with" or "ends_with".
	Name string
}

// Affix passes when the trimmed output starts (or ends) with a value. Safe
// for concurrent use.
type Affix struct {
	name   string
	value  string
	suffix bool
	opts   AffixOptions
}

var _ Grader = (*Affix)(nil)

// NewStartsWith returns a grader that passes when the trimmed output starts
// with value.
func NewStartsWith(value string, opts AffixOptions) *Affix {
	return &Affix{name: nameOr(opts.Name, "starts_with"), value: value, opts: opts}
}

// NewEndsWith returns a grader that passes when the trimmed output ends with
// value.
func NewEndsWith(value string, opts AffixOptions) *Affix {
	return &Affix{name: nameOr(opts.Name, "ends_with"), value: value, suffix: true, opts: opts}
}

// Name returns the grader's name.
func (g *Affix) Name() string { return g.name }

// Grade checks the start or end of the trimmed output.
func (g *Affix) Grade(_ context.Context, s *Sample) Grade {
	out := strings.TrimSpace(s.Output)
	var ok bool
	switch {
	case g.suffix && g.opts.IgnoreCase:
		ok = hasSuffixFold(out, g.value)
	case g.suffix:
		ok = strings.HasSuffix(out, g.value)
	case g.opts.IgnoreCase:
		ok = hasPrefixFold(out, g.value)
	default:
		ok = strings.HasPrefix(out, g.value)
	}
	if ok {
		return Pass("")
	}
	if g.suffix {
		return Failf("output does not end with %s", clip(g.value))
	}
	return Failf("output does not start with %s", clip(g.value))
}

// textSpecs registers the text graders' spec types.
func textSpecs(m map[string]Builder) {
	m["exact_match"] = func(o *SpecOptions) (Grader, error) {
		opts := ExactMatchOptions{
			CaseSensitive:     o.Bool("case_sensitive", false),
			RemovePunctuation: o.Bool("remove_punctuation", false),
			Name:              o.Name(),
		}
		if err := o.Err(); err != nil {
			return nil, err
		}
		r, ok := o.Raw("expected")
		if !ok || isNull(r) {
			return NewExactMatch(opts), nil
		}
		switch jsonKind(r) {
		case "a string":
			return NewExactMatchTo(o.String("expected", ""), opts), nil
		case "an object", "an array":
			v, _ := o.Value("expected")
			return NewExactMatchJSON(v, opts)
		default:
			// Numbers and booleans compare as their JSON text.
			return NewExactMatchTo(string(r), opts), nil
		}
	}
	m["one_of"] = func(o *SpecOptions) (Grader, error) {
		vals, ok := o.OptStrings("values")
		if !ok && o.Err() == nil {
			o.Errorf("values", "missing: one_of needs an array of strings")
		}
		cs := o.Bool("case_sensitive", false)
		if err := o.Err(); err != nil {
			return nil, err
		}
		g, err := NewOneOf(vals, OneOfOptions{CaseSensitive: cs, Name: o.Name()})
		if err != nil {
			o.Wrap("values", "invalid", err)
		}
		return g, err
	}
	containsSpec := func(neg bool) Builder {
		return func(o *SpecOptions) (Grader, error) {
			vals := containsValues(o)
			mode := o.Enum("mode", "all", "all", "any")
			cs := o.Bool("case_sensitive", true)
			if err := o.Err(); err != nil {
				return nil, err
			}
			opts := ContainsOptions{IgnoreCase: !cs, Name: o.Name()}
			if mode == "any" {
				opts.Mode = ModeAny
			}
			g, err := newContains(o.Type(), vals, opts, neg)
			if err != nil {
				o.Wrap("values", "invalid", err)
				return nil, o.Err()
			}
			return g, nil
		}
	}
	m["contains"] = containsSpec(false)
	m["not_contains"] = containsSpec(true)
	affixSpec := func(suffix bool) Builder {
		return func(o *SpecOptions) (Grader, error) {
			v := o.RequireString("value")
			cs := o.Bool("case_sensitive", true)
			if err := o.Err(); err != nil {
				return nil, err
			}
			opts := AffixOptions{IgnoreCase: !cs, Name: o.Name()}
			if suffix {
				return NewEndsWith(v, opts), nil
			}
			return NewStartsWith(v, opts), nil
		}
	}
	m["starts_with"] = affixSpec(false)
	m["ends_with"] = affixSpec(true)
}

// containsValues reads `value` or `values` (exactly one of them).
func containsValues(o *SpecOptions) []string {
	v, hasV := o.OptString("value")
	vs, hasVs := o.OptStrings("values")
	switch {
	case hasV && hasVs:
		o.Errorf("values", "give value or values, not both")
	case hasV:
		return []string{v}
	case hasVs:
		return vs
	case o.Err() == nil:
		o.Errorf("value", "missing: %s needs value (string) or values (array of strings)", o.Type())
	}
	return nil
}
