package proctor

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/kit"
)

// ContainsMode says whether every value must be present (the default) or any
// one of them.
type ContainsMode uint8

const (
	// ContainsAll requires every value.
	ContainsAll ContainsMode = iota
	// ContainsAny requires at least one value.
	ContainsAny
)

// String returns the word specs use: "all" or "any"; an unknown mode prints as
// mode_N.
func (m ContainsMode) String() string {
	switch m {
	case ContainsAll:
		return "all"
	case ContainsAny:
		return "any"
	}
	return "mode_" + strconv.Itoa(int(m))
}

// ContainsOptions configure [NewContains] and [NewNotContains]. The zero
// value is case-sensitive and requires every value.
type ContainsOptions struct {
	// Mode is ContainsAll (default) or ContainsAny.
	Mode ContainsMode
	// IgnoreCase compares with Unicode simple case folding.
	IgnoreCase bool
	// Name is shown in results; default "contains" or "not_contains".
	Name string
}

// Contains passes when the output contains the values (every one, or any
// one with [ContainsAny]) and fails naming the value at fault otherwise; it
// never returns not graded. Matching is case-sensitive unless
// [ContainsOptions.IgnoreCase]. A Contains is immutable and safe for
// concurrent use.
type Contains struct {
	name    string
	values  []string
	reasons []string // the failure reason for each value, built once
	none    string   // the failure reason when no value matched (ContainsAny)
	opts    ContainsOptions
	negate  bool
}

var _ Grader = (*Contains)(nil)

// NewContains returns a grader that passes when the output contains values.
// It returns an error when values is empty or holds an empty string, or
// opts.Mode is not ContainsAll or ContainsAny.
func NewContains(values []string, opts ContainsOptions) (*Contains, error) {
	return newContains("contains", values, opts, false)
}

// NewNotContains returns a grader that passes when the output contains none
// of values (with ContainsAll, the default) or lacks at least one
// (ContainsAny). It returns an error as [NewContains] does.
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
	if opts.Mode > ContainsAny {
		// Grade knows only the two modes; any other would pass everything.
		return nil, fmt.Errorf("proctor: %s: unknown mode %v (want all or any)", typ, opts.Mode)
	}
	g := &Contains{name: cmp.Or(opts.Name, typ), values: values, opts: opts, negate: negate,
		reasons: make([]string, len(values))}
	for i, v := range values {
		if negate {
			g.reasons[i] = "output contains " + kit.Quote(v)
		} else {
			g.reasons[i] = "output does not contain " + kit.Quote(v)
		}
	}
	g.none = fmt.Sprintf("output contains none of %d values", len(values))
	if negate {
		g.none = "output contains every value"
	}
	return g, nil
}

// Name returns the grader's name.
func (g *Contains) Name() string { return g.name }

// Grade searches s.Output.
func (g *Contains) Grade(_ context.Context, s *Sample) Grade {
	out := s.Output
	if g.negate {
		// not_contains: ContainsAll passes when no value is present; ContainsAny
		// passes when at least one is absent.
		for i, v := range g.values {
			found := g.has(out, v)
			if g.opts.Mode == ContainsAll && found {
				return Fail(g.reasons[i])
			}
			if g.opts.Mode == ContainsAny && !found {
				return Pass("")
			}
		}
		if g.opts.Mode == ContainsAny {
			return Fail(g.none)
		}
		return Pass("")
	}
	for i, v := range g.values {
		found := g.has(out, v)
		if g.opts.Mode == ContainsAny && found {
			return Pass("")
		}
		if g.opts.Mode == ContainsAll && !found {
			return Fail(g.reasons[i])
		}
	}
	if g.opts.Mode == ContainsAny {
		return Fail(g.none)
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
// folding, the equivalence strings.EqualFold uses: it is true exactly when
// some run of s with as many runes as sub is EqualFold to sub. It does not
// allocate.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	if asciiFoldSafe(s, sub) {
		return indexFoldASCII(s, sub) >= 0
	}
	r0, _ := utf8.DecodeRuneInString(sub)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if kit.EqualFoldRune(r, r0) && hasPrefixFold(s[i:], sub) {
			return true
		}
		i += n
	}
	return false
}

// The two runes outside ASCII whose simple case folding orbit holds an
// ASCII letter: KELVIN SIGN (k, K) and LATIN SMALL LETTER LONG S (s, S).
const (
	kelvinSign = "\u212a"
	longS      = "\u017f"
)

// asciiFoldSafe reports whether a byte-wise ASCII case-insensitive search
// for sub in s gives the same answer as full simple folding: sub is ASCII
// and, if it holds a k or an s, s holds neither of the two runes outside
// ASCII that fold to them. (No other rune outside ASCII folds to an ASCII
// one; TestASCIIFoldOrbits checks that against the unicode tables.)
func asciiFoldSafe(s, sub string) bool {
	ks := false
	for i := 0; i < len(sub); i++ {
		c := sub[i]
		if c >= utf8.RuneSelf {
			return false
		}
		c |= 0x20
		ks = ks || c == 'k' || c == 's'
	}
	return !ks || (!strings.Contains(s, kelvinSign) && !strings.Contains(s, longS))
}

// indexFoldASCII returns the index of the first ASCII case-insensitive
// match of the ASCII string sub in s, or -1. Candidates are found with
// strings.IndexByte on both cases of sub's first byte.
func indexFoldASCII(s, sub string) int {
	n := len(sub)
	if n > len(s) {
		return -1
	}
	lo, up := sub[0], sub[0]
	if 'A' <= lo && lo <= 'Z' {
		lo += 'a' - 'A'
	} else if 'a' <= up && up <= 'z' {
		up -= 'a' - 'A'
	}
	last := len(s) - n
	nextLo, nextUp := -1, len(s)
	if lo != up {
		nextUp = -1
	}
	for i := 0; i <= last; {
		if nextLo < i {
			nextLo = indexByteFrom(s[:last+1], lo, i)
		}
		if nextUp < i {
			nextUp = indexByteFrom(s[:last+1], up, i)
		}
		c := min(nextLo, nextUp)
		if c > last {
			return -1
		}
		if equalFoldASCII(s[c+1:c+n], sub[1:]) {
			return c
		}
		i = c + 1
	}
	return -1
}

// indexByteFrom returns the index of the first c in s at or after i, or
// len(s)+1 when there is none.
func indexByteFrom(s string, c byte, i int) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s) + 1
}

// equalFoldASCII reports whether a and b, of equal length and with b
// ASCII, are equal ignoring ASCII case.
func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(b); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if l := x | 0x20; l != y|0x20 || l < 'a' || l > 'z' {
			return false
		}
	}
	return true
}

// hasPrefixFold reports whether s starts with prefix under simple folding.
func hasPrefixFold(s, prefix string) bool {
	for prefix != "" {
		if s == "" {
			return false
		}
		a, na := utf8.DecodeRuneInString(s)
		b, nb := utf8.DecodeRuneInString(prefix)
		if a != b && !kit.EqualFoldRune(a, b) {
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
		if a != b && !kit.EqualFoldRune(a, b) {
			return false
		}
		s, suffix = s[:len(s)-na], suffix[:len(suffix)-nb]
	}
	return true
}

// AffixOptions configure [NewStartsWith] and [NewEndsWith]. The zero value
// is case-sensitive.
type AffixOptions struct {
	// IgnoreCase compares with Unicode simple case folding.
	IgnoreCase bool
	// Name is shown in results; default "starts_with" or "ends_with".
	Name string
}

// Affix passes when the trimmed output starts (or ends) with a value and
// fails otherwise; it never returns not graded. An Affix is immutable and
// safe for concurrent use.
type Affix struct {
	name   string
	value  string
	reason string // the failure reason, built once
	suffix bool
	opts   AffixOptions
}

var _ Grader = (*Affix)(nil)

// NewStartsWith returns a grader that passes when the trimmed output starts
// with value.
func NewStartsWith(value string, opts AffixOptions) *Affix {
	return &Affix{name: cmp.Or(opts.Name, "starts_with"), value: value, opts: opts,
		reason: "output does not start with " + kit.Quote(value)}
}

// NewEndsWith returns a grader that passes when the trimmed output ends with
// value.
func NewEndsWith(value string, opts AffixOptions) *Affix {
	return &Affix{name: cmp.Or(opts.Name, "ends_with"), value: value, suffix: true, opts: opts,
		reason: "output does not end with " + kit.Quote(value)}
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
	return Fail(g.reason)
}

func exactMatchSpec(o *SpecOptions) (Grader, error) {
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
	switch kit.JSONKind(r) {
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

func oneOfSpec(o *SpecOptions) (Grader, error) {
	vals, ok := o.OptStrings("values")
	if !ok && o.Err() == nil {
		o.Errorf("values", "missing: one_of needs an array of strings")
	}
	cs := o.Bool("case_sensitive", false)
	if err := o.Err(); err != nil {
		return nil, err
	}
	opts := OneOfOptions{CaseSensitive: cs, Name: o.Name()}
	g, err := withValues(o, "values", vals, func(vs []string) (Grader, error) {
		return NewOneOf(vs, opts)
	})
	if err != nil && o.Err() == nil {
		o.Wrap("values", "invalid", err)
	}
	return g, err
}

// containsSpec builds contains, or not_contains when neg.
func containsSpec(neg bool) Builder {
	return func(o *SpecOptions) (Grader, error) {
		vals := containsValues(o)
		mode := o.Enum("mode", "all", "all", "any")
		cs := o.Bool("case_sensitive", true)
		if err := o.Err(); err != nil {
			return nil, err
		}
		opts := ContainsOptions{IgnoreCase: !cs, Name: o.Name()}
		if mode == "any" {
			opts.Mode = ContainsAny
		}
		key, typ := "values", o.Type()
		if o.Has("value") {
			key = "value"
		}
		g, err := withValues(o, key, vals, func(vs []string) (Grader, error) {
			return newContains(typ, vs, opts, neg)
		})
		if err != nil {
			if o.Err() == nil {
				o.Wrap("values", "invalid", err)
			}
			return nil, o.Err()
		}
		return g, nil
	}
}

// affixSpec builds starts_with, or ends_with when suffix.
func affixSpec(suffix bool) Builder {
	return func(o *SpecOptions) (Grader, error) {
		v := o.RequireString("value")
		cs := o.Bool("case_sensitive", true)
		if err := o.Err(); err != nil {
			return nil, err
		}
		opts := AffixOptions{IgnoreCase: !cs, Name: o.Name()}
		return withValues(o, "value", []string{v}, func(vs []string) (Grader, error) {
			if suffix {
				return NewEndsWith(vs[0], opts), nil
			}
			return NewStartsWith(vs[0], opts), nil
		})
	}
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

// textSpecTypes documents the text family's spec types exact_match, one_of,
// contains, not_contains, starts_with and ends_with, for
// [Compiler.SpecTypes], with their builders.
func textSpecTypes() []SpecType {
	return []SpecType{
		{Name: "exact_match", ExpectedTemplate: true, Build: exactMatchSpec, Family: "text", Summary: "the output equals the expected answer",
			About: "A JSON object or array as expected is compared structurally with the output decoded as JSON (fences removed), keys in any order. A number or boolean compares as its JSON text.",
			Options: []SpecOptionDoc{
				{"expected", "string or any JSON value", "the sample's expected", "The answer to match. " + docValueTemplate},
				{"case_sensitive", "boolean", "false", "Compare letter case."},
				{"remove_punctuation", "boolean", "false", "Drop punctuation from both sides first."},
			},
			Example: `{"type": "exact_match", "expected": "Paris"}`},
		{Name: "one_of", Build: oneOfSpec, Family: "text", Summary: "the output equals one of several answers",
			Options: []SpecOptionDoc{
				{"values", "string array", "(required)", "The accepted answers. " + docValueTemplate},
				{"case_sensitive", "boolean", "false", "Compare letter case."},
			},
			Example: `{"type": "one_of", "values": ["yes", "y"]}`},
		{Name: "contains", Build: containsSpec(false), Family: "text", Summary: "the output contains a text (or all or any of several)",
			Options: docContainsOptions(), Example: `{"type": "contains", "values": ["refund", "order"], "mode": "any"}`},
		{Name: "not_contains", Build: containsSpec(true), Family: "text", Summary: "the output does not contain a text (or none of several)",
			Options: docContainsOptions(), Example: `{"type": "not_contains", "value": "As an AI"}`},
		{Name: "starts_with", Build: affixSpec(false), Family: "text", Summary: "the output begins with a text",
			Options: []SpecOptionDoc{{"value", "string", "(required)", "The prefix. " + docValueTemplate}, {"case_sensitive", "boolean", "true", "Compare letter case."}},
			Example: `{"type": "starts_with", "value": "Dear"}`},
		{Name: "ends_with", Build: affixSpec(true), Family: "text", Summary: "the output ends with a text",
			Options: []SpecOptionDoc{{"value", "string", "(required)", "The suffix. " + docValueTemplate}, {"case_sensitive", "boolean", "true", "Compare letter case."}},
			Example: `{"type": "ends_with", "value": "Best regards."}`},
	}
}
