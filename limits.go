package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/kit"
)

// Length passes when the trimmed output's length is within bounds:
// characters counted as Unicode code points, words as runs of non-space
// characters. Every bound is inclusive. It never returns not graded. A
// Length is immutable and safe for concurrent use.
type Length struct {
	name string
	opts LengthOptions
}

// LengthOptions configure [NewLength]. A nil bound is no bound; at least
// one must be set.
type LengthOptions struct {
	// MinChars and MaxChars bound the trimmed output's length in
	// characters (code points), both inclusive.
	MinChars, MaxChars *int
	// MinWords and MaxWords bound its number of white-space separated
	// words, both inclusive.
	MinWords, MaxWords *int
	// Name is shown in results; default "length".
	Name string
}

var _ Grader = (*Length)(nil)

// NewLength returns a Length grader. It returns an error when no bound is
// set, a bound is negative, or a minimum exceeds its maximum.
func NewLength(opts LengthOptions) (*Length, error) {
	if opts.MinChars == nil && opts.MaxChars == nil && opts.MinWords == nil && opts.MaxWords == nil {
		return nil, errors.New("proctor: length needs at least one of min_chars, max_chars, min_words, max_words")
	}
	for _, b := range []struct {
		name string
		v    *int
	}{{"min_chars", opts.MinChars}, {"max_chars", opts.MaxChars}, {"min_words", opts.MinWords}, {"max_words", opts.MaxWords}} {
		if b.v != nil && *b.v < 0 {
			return nil, fmt.Errorf("proctor: length: %s must be >= 0, got %d", b.name, *b.v)
		}
	}
	if opts.MinChars != nil && opts.MaxChars != nil && *opts.MinChars > *opts.MaxChars {
		return nil, fmt.Errorf("proctor: length: min_chars %d exceeds max_chars %d", *opts.MinChars, *opts.MaxChars)
	}
	if opts.MinWords != nil && opts.MaxWords != nil && *opts.MinWords > *opts.MaxWords {
		return nil, fmt.Errorf("proctor: length: min_words %d exceeds max_words %d", *opts.MinWords, *opts.MaxWords)
	}
	return &Length{name: cmp.Or(opts.Name, "length"), opts: opts}, nil
}

// Name returns the grader's name.
func (g *Length) Name() string { return g.name }

// Grade counts the trimmed output's characters and words.
func (g *Length) Grade(_ context.Context, s *Sample) Grade {
	out := strings.TrimSpace(s.Output)
	if g.opts.MinChars != nil || g.opts.MaxChars != nil {
		n := utf8.RuneCountInString(out)
		if g.opts.MinChars != nil && n < *g.opts.MinChars {
			return Failf("output has %d characters, want at least %d", n, *g.opts.MinChars)
		}
		if g.opts.MaxChars != nil && n > *g.opts.MaxChars {
			return Failf("output has %d characters, want at most %d", n, *g.opts.MaxChars)
		}
	}
	if g.opts.MinWords != nil || g.opts.MaxWords != nil {
		n := countWords(out)
		if g.opts.MinWords != nil && n < *g.opts.MinWords {
			return Failf("output has %d words, want at least %d", n, *g.opts.MinWords)
		}
		if g.opts.MaxWords != nil && n > *g.opts.MaxWords {
			return Failf("output has %d words, want at most %d", n, *g.opts.MaxWords)
		}
	}
	return Pass("")
}

// countWords counts runs of non-space runes, as strings.Fields splits,
// without allocating.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		sp := unicode.IsSpace(r)
		if !sp && !in {
			n++
		}
		in = !sp
	}
	return n
}

// Blocklist fails when the output contains one of its words as a whole
// word: "darn" is found in "Darn it." but not in "The darning needle.".
// Word boundaries are Unicode-aware (a letter, digit, mark or '_' on either
// side continues the word), and a word that begins or ends with another
// character ("c++") has no boundary to check on that side. Case is ignored
// (Unicode simple folding) unless [BlocklistOptions.CaseSensitive]. It
// never returns not graded. A Blocklist is immutable and safe for
// concurrent use.
type Blocklist struct {
	name   string
	re     *regexp.Regexp
	sorted []string // longest first
	fold   bool
}

// BlocklistOptions configure [NewBlocklist]. The zero value ignores case.
type BlocklistOptions struct {
	// CaseSensitive compares case as well.
	CaseSensitive bool
	// Name is shown in results; default "blocklist".
	Name string
}

var _ Grader = (*Blocklist)(nil)

// NewBlocklist returns a Blocklist grader for words. It returns an error
// when words is empty or holds an empty (or all-space) word.
func NewBlocklist(words []string, opts BlocklistOptions) (*Blocklist, error) {
	if len(words) == 0 {
		return nil, errors.New("proctor: blocklist needs at least one word")
	}
	ws := make([]string, len(words))
	for i, w := range words {
		ws[i] = strings.TrimSpace(w)
		if ws[i] == "" {
			return nil, fmt.Errorf("proctor: blocklist: word %d is empty", i)
		}
	}
	// Longest first, so that at one position "darn it" is tried before
	// "darn" and a failed boundary on the short word does not hide the
	// long one.
	sorted := slices.Clone(ws)
	slices.SortStableFunc(sorted, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	alts := make([]string, len(sorted))
	for i, w := range sorted {
		alts[i] = regexp.QuoteMeta(w)
	}
	expr := "(?:" + strings.Join(alts, "|") + ")"
	if !opts.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("proctor: blocklist: %w", err)
	}
	return &Blocklist{name: cmp.Or(opts.Name, "blocklist"), re: re, sorted: sorted, fold: !opts.CaseSensitive}, nil
}

// Name returns the grader's name.
func (g *Blocklist) Name() string { return g.name }

// Grade searches s.Output for the words.
func (g *Blocklist) Grade(_ context.Context, s *Sample) Grade {
	if w, ok := g.find(s.Output); ok {
		return Failf("output contains the blocked word %s", kit.Quote(w))
	}
	return Pass("")
}

// find returns the first whole-word occurrence of a word in s.
func (g *Blocklist) find(s string) (string, bool) {
	for pos := 0; pos <= len(s); {
		loc := g.re.FindStringIndex(s[pos:])
		if loc == nil {
			return "", false
		}
		start, end := pos+loc[0], pos+loc[1]
		if wholeWord(s, start, end) {
			return s[start:end], true
		}
		// A shorter word may still stand whole at start ("a" in "a bc"
		// when "a b" did not).
		for _, w := range g.sorted {
			if n, ok := g.prefixLen(s[start:], w); ok && start+n != end && wholeWord(s, start, start+n) {
				return s[start : start+n], true
			}
		}
		_, n := utf8.DecodeRuneInString(s[start:])
		pos = start + max(n, 1)
	}
	return "", false
}

// prefixLen reports whether s starts with w (folding case unless the
// list is case-sensitive) and how many bytes of s that takes.
func (g *Blocklist) prefixLen(s, w string) (int, bool) {
	if !g.fold {
		return len(w), strings.HasPrefix(s, w)
	}
	n := 0
	for w != "" {
		if n >= len(s) {
			return 0, false
		}
		a, na := utf8.DecodeRuneInString(s[n:])
		b, nb := utf8.DecodeRuneInString(w)
		if a != b && !kit.EqualFoldRune(a, b) {
			return 0, false
		}
		n, w = n+na, w[nb:]
	}
	return n, true
}

// wholeWord reports whether s[start:end] is not glued to word runes on a
// side where the match itself begins or ends with a word rune.
func wholeWord(s string, start, end int) bool {
	first, _ := utf8.DecodeRuneInString(s[start:end])
	last, _ := utf8.DecodeLastRuneInString(s[start:end])
	if isWordRune(first) && start > 0 {
		if before, _ := utf8.DecodeLastRuneInString(s[:start]); isWordRune(before) {
			return false
		}
	}
	if isWordRune(last) && end < len(s) {
		if after, _ := utf8.DecodeRuneInString(s[end:]); isWordRune(after) {
			return false
		}
	}
	return true
}

// lengthSpec builds a length grader from its spec.
func lengthSpec(o *SpecOptions) (Grader, error) {
	opts := LengthOptions{Name: o.Name()}
	for _, b := range []struct {
		key string
		dst **int
	}{{"min_chars", &opts.MinChars}, {"max_chars", &opts.MaxChars}, {"min_words", &opts.MinWords}, {"max_words", &opts.MaxWords}} {
		if n, ok := o.OptInt(b.key); ok {
			if n < 0 {
				o.Errorf(b.key, "want an integer >= 0, got %d", n)
			}
			*b.dst = Ptr(n)
		}
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	switch {
	case opts.MinChars == nil && opts.MaxChars == nil && opts.MinWords == nil && opts.MaxWords == nil:
		o.Errorf("", "length needs at least one of min_chars, max_chars, min_words, max_words")
	case opts.MinChars != nil && opts.MaxChars != nil && *opts.MinChars > *opts.MaxChars:
		o.Errorf("min_chars", "%d exceeds max_chars %d", *opts.MinChars, *opts.MaxChars)
	case opts.MinWords != nil && opts.MaxWords != nil && *opts.MinWords > *opts.MaxWords:
		o.Errorf("min_words", "%d exceeds max_words %d", *opts.MinWords, *opts.MaxWords)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewLength(opts)
}

// blocklistSpec builds a blocklist grader from its spec.
func blocklistSpec(o *SpecOptions) (Grader, error) {
	words, ok := o.OptStrings("words")
	if !ok && o.Err() == nil {
		o.Errorf("words", "missing: blocklist needs an array of strings")
	}
	cs := o.Bool("case_sensitive", false)
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewBlocklist(words, BlocklistOptions{CaseSensitive: cs, Name: o.Name()})
	if err != nil {
		o.Wrap("words", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// limitSpecTypes documents the text family's spec types blocklist and
// length, for [Compiler.SpecTypes], with their builders.
func limitSpecTypes() []SpecType {
	return []SpecType{
		{Name: "blocklist", Build: blocklistSpec, Family: "text", Summary: "the output uses none of the listed words, as whole words",
			Options: []SpecOptionDoc{{"words", "string array", "(required)", "The words (or phrases) that must not appear."}, {"case_sensitive", "boolean", "false", "Compare letter case."}},
			Example: `{"type": "blocklist", "words": ["guarantee", "risk-free"]}`},
		{Name: "length", Build: lengthSpec, Family: "text", Summary: "the output's length in characters or words is within bounds",
			About: "Give at least one bound; bounds are inclusive. Characters are Unicode code points; words are runs of non-space.",
			Options: []SpecOptionDoc{
				{"min_chars", "integer >= 0", "none", "Fewest characters."},
				{"max_chars", "integer >= 0", "none", "Most characters."},
				{"min_words", "integer >= 0", "none", "Fewest words."},
				{"max_words", "integer >= 0", "none", "Most words."},
			},
			Example: `{"type": "length", "max_words": 120}`},
	}
}
