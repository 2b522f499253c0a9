package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/proctorhq/proctor/internal/fastre"
	"github.com/proctorhq/proctor/internal/kit"
)

// Limits of the regex graders (docs/spec.md). They bound the work one sample can
// cost, so that no pattern and no output can hang a run.
const (
	// MaxPatternLen is the longest pattern, in characters, that [NewRegex]
	// and [NewNotRegex] accept; a longer one is [ErrPatternTooLong].
	MaxPatternLen = 1024
	// MaxRegexInput is the longest trimmed output, in bytes, that a regex
	// grader reads; a longer output is failed with a reason naming the limit.
	MaxRegexInput = 64 << 10
	// RegexTimeout is the time budget of one match for patterns that need
	// backtracking (lookaround, backreferences, conditionals, atomic groups,
	// possessive quantifiers); a match that runs out of it
	// is failed with a reason naming the limit. RE2 patterns run in time
	// linear in the output and need no budget.
	RegexTimeout = 250 * time.Millisecond
)

// ErrPatternTooLong is wrapped by the error of [NewRegex] and [NewNotRegex]
// for a pattern over [MaxPatternLen] characters.
var ErrPatternTooLong = errors.New("proctor: pattern too long")

// MatchMode says how much of the trimmed output a pattern must match.
type MatchMode uint8

const (
	// MatchDefault is the grader type's default: MatchFull for regex,
	// MatchSearch for not_regex.
	MatchDefault MatchMode = iota
	// MatchFull requires the pattern to match the whole trimmed output, as
	// ^(?:pattern)$ does.
	MatchFull
	// MatchSearch requires a match anywhere in the trimmed output.
	MatchSearch
)

// String returns the word specs use: "full", "search", or "default".
func (m MatchMode) String() string {
	switch m {
	case MatchFull:
		return "full"
	case MatchSearch:
		return "search"
	case MatchDefault:
		return "default"
	}
	return fmt.Sprintf("match_%d", uint8(m))
}

// RegexOptions configure [NewRegex] and [NewNotRegex]. The zero value is
// the spec's default: case-sensitive, a full match for regex and a search
// for not_regex.
type RegexOptions struct {
	// Match is MatchDefault, MatchFull or MatchSearch.
	Match MatchMode
	// IgnoreCase matches letters case-insensitively (Unicode simple folding).
	IgnoreCase bool
	// Name is shown in results; default "regex" or "not_regex".
	Name string
}

// Regex passes when the trimmed output matches a pattern: the whole of it
// by default ([MatchFull]), or anywhere with [MatchSearch]. Built with
// [NewNotRegex] it is not_regex: it passes when there is no match.
//
// Patterns use Go's RE2 syntax and run in time linear in the output. Only a
// pattern that RE2 refuses because it needs backtracking (lookaround,
// backreferences by number or name, Python's (?P=name), conditionals, atomic
// groups, possessive quantifiers) is run by a backtracking engine
// (github.com/dlclark/regexp2, RE2 compatibility mode) with a
// [RegexTimeout] budget per match; docs/regex.md lists what each engine
// takes and what is refused.
//
// An output over [MaxRegexInput] bytes, or a backtracking match that runs
// out of time, is failed with the reason, for regex and not_regex alike:
// neither ever reads as "no match". An engine error other than a timeout is
// not graded.
//
// A Regex is compiled once, immutable and safe for concurrent use.
type Regex struct {
	name    string
	pattern string
	match   MatchMode // resolved: MatchFull or MatchSearch
	negate  bool
	re      *fastre.Regexp  // RE2 patterns
	bt      *regexp2.Regexp // patterns that need backtracking
	// reasons, built once so that grading allocates nothing.
	noMatch, matched string
}

var _ Grader = (*Regex)(nil)

// NewRegex returns a grader that passes when the trimmed output matches
// pattern (wholly, unless opts.Match is MatchSearch). It returns an error
// when the pattern does not compile or is over [MaxPatternLen] characters
// ([ErrPatternTooLong]).
func NewRegex(pattern string, opts RegexOptions) (*Regex, error) {
	return newRegex("regex", pattern, opts, false)
}

// MustRegex is [NewRegex] for patterns known to be valid; it panics
// otherwise.
func MustRegex(pattern string, opts RegexOptions) *Regex {
	g, err := NewRegex(pattern, opts)
	if err != nil {
		panic(kit.MustFailed("MustRegex", pattern, err))
	}
	return g
}

// NewNotRegex returns a grader that passes when the trimmed output does not
// match pattern (anywhere, unless opts.Match is MatchFull). Errors are as
// for [NewRegex].
func NewNotRegex(pattern string, opts RegexOptions) (*Regex, error) {
	return newRegex("not_regex", pattern, opts, true)
}

// MustNotRegex is [NewNotRegex] for patterns known to be valid; it panics
// otherwise.
func MustNotRegex(pattern string, opts RegexOptions) *Regex {
	g, err := NewNotRegex(pattern, opts)
	if err != nil {
		panic(kit.MustFailed("MustNotRegex", pattern, err))
	}
	return g
}

func newRegex(typ, pattern string, opts RegexOptions, negate bool) (*Regex, error) {
	if n := utf8.RuneCountInString(pattern); n > MaxPatternLen {
		return nil, fmt.Errorf("%w: %s: %d characters, the limit is %d", ErrPatternTooLong, typ, n, MaxPatternLen)
	}
	match := opts.Match
	if match == MatchDefault {
		match = MatchFull
		if negate {
			match = MatchSearch
		}
	}
	if match != MatchFull && match != MatchSearch {
		return nil, fmt.Errorf("proctor: %s: invalid match mode %v", typ, opts.Match)
	}
	g := &Regex{name: cmp.Or(opts.Name, typ), pattern: pattern, match: match, negate: negate}
	expr := pattern
	if opts.IgnoreCase {
		expr = "(?i)" + pattern
	}
	re, err := fastre.Compile(expr, match == MatchFull)
	if err == nil {
		g.re = re
	} else {
		// RE2 refused it: the backtracking dialect may take it (docs/regex.md).
		g.bt, err = fastre.CompileBacktracking(pattern, fastre.BacktrackOptions{
			Full: match == MatchFull, IgnoreCase: opts.IgnoreCase, Timeout: RegexTimeout})
		if err != nil {
			return nil, fmt.Errorf("proctor: %s: pattern %q: %w", typ, pattern, err)
		}
	}
	q := clipPattern(pattern)
	if match == MatchFull {
		g.noMatch = "output does not match " + q + " as a whole"
		g.matched = "output matches " + q + " as a whole"
	} else {
		g.noMatch = "output has no match for " + q
		g.matched = "output has a match for " + q
	}
	return g, nil
}

// Name returns the grader's name.
func (g *Regex) Name() string { return g.name }

// Pattern returns the pattern as given.
func (g *Regex) Pattern() string { return g.pattern }

// Grade matches the trimmed s.Output.
func (g *Regex) Grade(_ context.Context, s *Sample) Grade {
	out := strings.TrimSpace(s.Output)
	if len(out) > MaxRegexInput {
		return Failf("output is %d bytes, over the %d-byte (64 KiB) limit for regex matching", len(out), MaxRegexInput)
	}
	var matched bool
	if g.re != nil {
		matched = g.re.MatchString(out)
	} else {
		var err error
		matched, err = g.bt.MatchString(out)
		if err != nil {
			if isTimeout(err) {
				return Failf("pattern %s ran out of its %v match time budget", clipPattern(g.pattern), RegexTimeout)
			}
			return ErrorGrade("regex engine error", err)
		}
	}
	switch {
	case matched && g.negate:
		return Fail(g.matched)
	case !matched && !g.negate:
		return Fail(g.noMatch)
	}
	return Pass("")
}

// isTimeout reports whether err is regexp2's match timeout, which it
// returns as an unexported error whose text starts "match timeout".
func isTimeout(err error) bool {
	return strings.HasPrefix(err.Error(), "match timeout")
}

// clipPattern quotes a pattern for a reason as its author wrote it:
// backslashes and quotes are kept as they are (a\d+, not a\\d+), only
// control characters are escaped, and it is cut after 80 characters as
// [kit.Quote] cuts text.
func clipPattern(p string) string {
	const n = 80
	b := make([]byte, 0, len(p)+2)
	b = append(b, '"')
	runes := 0
	for _, r := range p {
		if runes == n {
			return string(append(b, `"…`...))
		}
		runes++
		if r < 0x20 || r == 0x7f {
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return string(append(b, '"'))
}

// regexSpec is the builder of regex, or of not_regex when negate is set.
func regexSpec(negate bool) Builder {
	return func(o *SpecOptions) (Grader, error) {
		pattern := o.RequireString("pattern")
		def := "full"
		if negate {
			def = "search"
		}
		match := o.Enum("match", def, "full", "search")
		cs := o.Bool("case_sensitive", true)
		if err := o.Err(); err != nil {
			return nil, err
		}
		opts := RegexOptions{Match: MatchFull, IgnoreCase: !cs, Name: o.Name()}
		if match == "search" {
			opts.Match = MatchSearch
		}
		var g Grader
		t, err := parsePatternTemplate(pattern)
		switch {
		case err != nil:
			o.Wrap("pattern", "bad template", err)
			return nil, o.Err()
		case t != nil:
			g, err = newRegexTemplate(t, opts, negate)
		default:
			g, err = newRegex(o.Type(), pattern, opts, negate)
		}
		if err != nil {
			msg := "does not compile"
			if errors.Is(err, ErrPatternTooLong) {
				msg = fmt.Sprintf("want at most %d characters", MaxPatternLen)
			}
			o.Wrap("pattern", msg, err)
			return nil, o.Err()
		}
		return g, nil
	}
}

// regexSpecTypes documents the text family's spec types regex and not_regex,
// for [Compiler.SpecTypes], with their builders.
func regexSpecTypes() []SpecType {
	return []SpecType{
		{Name: "regex", Build: regexSpec(false), Family: "text", Summary: "the output matches a regular expression",
			About: "A candidate over 64 KiB, or a match that runs past 250 ms, fails with the reason; it never hangs. " +
				"RE2 runs the pattern when it can; lookaround, backreferences (Python's (?P=name) too), conditionals, atomic groups and " +
				"possessive quantifiers run on a backtracking engine with the 250 ms budget per match. [docs/regex.md](regex.md) says what each engine takes and what is refused.",
			Options: docRegexOptions("full"), Example: `{"type": "regex", "pattern": "(?s).*Final answer: [A-D]\\.?"}`},
		{Name: "not_regex", Build: regexSpec(true), Family: "text", Summary: "the output does not match a regular expression",
			About:   "Patterns are read as for regex; a match that runs past 250 ms fails, never passes.",
			Options: docRegexOptions("search"), Example: `{"type": "not_regex", "pattern": "(?i)lorem ipsum"}`},
	}
}
