package proctor

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"sync"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/fifo"
)

// A regex or not_regex pattern may hold template variables
// (docs/templates.md). Each variable's value is inserted as literal text,
// quoted with [regexp.QuoteMeta] in a group, so that data never adds
// pattern syntax: an item value "A+B" becomes (?:A\+B), which matches the
// three characters A+B, and a quantifier after the variable applies to
// the whole value. In the pattern's
// own text a backslash escapes the byte after it for the template as for
// the regular expression, so \{{ is a literal brace followed by an opening
// brace, never a variable.

// regexCacheSize bounds how many rendered patterns one templated regex
// keeps compiled.
const regexCacheSize = 64

// parsePatternTemplate parses pattern as a template whose backslash
// escapes are literal text. It returns nil, nil when the pattern has no
// variable: the pattern is then compiled once, as a literal.
func parsePatternTemplate(pattern string) (*Template, error) {
	t, err := parseTemplate(pattern, true)
	if err != nil || !t.hasVariables() {
		return nil, err
	}
	return t, nil
}

// regexTemplate is a regex or not_regex whose pattern is a template. Each
// sample's rendered pattern is compiled by [NewRegex] or [NewNotRegex], so
// [MaxPatternLen] and every other rule applies to the rendered pattern;
// the last [regexCacheSize] compiled patterns are kept. A variable the
// sample lacks, or a rendered pattern that does not compile, is not
// graded with the reason. Safe for concurrent use.
type regexTemplate struct {
	name   string
	tmpl   *Template
	opts   RegexOptions
	negate bool
	cache  regexCache
}

var _ Grader = (*regexTemplate)(nil)

// newRegexTemplate returns the templated grader of pattern template t. It
// compiles t once with each variable as a placeholder, so that a pattern
// that could never compile (an unbalanced parenthesis) is an error now and
// not on every sample.
func newRegexTemplate(t *Template, opts RegexOptions, negate bool) (*regexTemplate, error) {
	g := &regexTemplate{name: cmp.Or(opts.Name, "regex"), tmpl: t, opts: opts, negate: negate}
	if negate {
		g.name = cmp.Or(opts.Name, "not_regex")
	}
	if _, err := g.compile(t.withPlaceholders(quoteLiteral)); err != nil {
		return nil, fmt.Errorf("pattern %s with each variable as %q: %w", clipPattern(t.String()), placeholder, err)
	}
	return g, nil
}

func (g *regexTemplate) compile(pattern string) (*Regex, error) {
	if g.negate {
		return NewNotRegex(pattern, g.opts)
	}
	return NewRegex(pattern, g.opts)
}

// Name returns the grader's name.
func (g *regexTemplate) Name() string { return g.name }

// Grade renders the pattern against s and matches the trimmed output.
func (g *regexTemplate) Grade(ctx context.Context, s *Sample) Grade {
	pattern, err := g.tmpl.render(s, quoteLiteral)
	if err != nil {
		return ErrorGrade("pattern", err)
	}
	re, err := g.cache.get(pattern, g.compile)
	if err != nil {
		return ErrorGrade("pattern as rendered", err)
	}
	return re.Grade(ctx, s)
}

// quoteLiteral is a variable's value as a pattern that matches exactly
// that text: quoted, and grouped so that what follows applies to all of it.
func quoteLiteral(v string) string { return "(?:" + regexp.QuoteMeta(v) + ")" }

// regexCache keeps up to [regexCacheSize] compiled patterns (or their
// errors), dropping the oldest first. The zero value is empty and ready.
type regexCache struct {
	mu sync.Mutex
	m  *fifo.Map[string, regexEntry]
}

type regexEntry struct {
	re  *Regex
	err error
}

// get returns the compiled pattern, compiling it with compile on a miss.
// It compiles outside the lock, so two goroutines may both compile a new
// pattern; the first result is kept. A pattern too long to be accepted is
// not kept.
func (c *regexCache) get(pattern string, compile func(string) (*Regex, error)) (*Regex, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = fifo.New[string, regexEntry](regexCacheSize)
	}
	e, ok := c.m.Get(pattern)
	c.mu.Unlock()
	if ok {
		return e.re, e.err
	}
	re, err := compile(pattern)
	if len(pattern) <= utf8.UTFMax*MaxPatternLen {
		c.mu.Lock()
		c.m.Put(pattern, regexEntry{re, err})
		c.mu.Unlock()
	}
	return re, err
}
