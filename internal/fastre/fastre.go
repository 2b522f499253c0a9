// Package fastre matches RE2 patterns faster than a bare regexp.Regexp where
// a cheap analysis of the pattern allows it, with exactly regexp's answer and
// its linear-time guarantee.
//
// Two shortcuts, both decided once at compile time from regexp/syntax:
//
//   - Literal prefilters. Every match of a pattern starts with one of a
//     small set of literal strings (computed conservatively; none when the
//     pattern could start anywhere). A full match therefore needs the text
//     to start with one of them, and a search needs the text to contain one:
//     a strings.HasPrefix or strings.Index rejects most texts without
//     running the regexp.
//   - Suffix matching. A full match of `[\s\S]*R` (or `(?s).*R`) on s holds
//     exactly when R fully matches some suffix s[i:] starting at a rune
//     boundary, because the leading star absorbs any prefix. When R has no
//     empty-width assertions (so its match does not depend on what precedes
//     it) and its matches start with known literals, the candidate starts
//     are the occurrences of those literals, found with strings.Index, and
//     only the short tails after them are run through `\A(?:R)\z`, the last
//     occurrence first. For `.*R` without the s flag the prefix must also be
//     free of newlines. The total length of the tails tried is capped at a
//     small multiple of len(s); past it the plain regexp decides, so the
//     cost stays linear in len(s) whatever the input.
//
// Where neither applies, Regexp is a thin wrapper over regexp.Regexp.
//
// For patterns RE2 refuses, [CompileBacktracking] (dialect.go) translates
// lookaround, backreferences, conditionals, atomic groups and possessive
// quantifiers for the backtracking engine github.com/dlclark/regexp2, so
// that every RE2 construct in them keeps its RE2 meaning.
package fastre

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Limits of the literal analysis: small sets of short strings keep the
// prefilter cheaper than the regexp it saves.
const (
	maxSet      = 16 // strings in a prefix set
	maxLitBytes = 32 // bytes of one prefix string
	maxClass    = 8  // runes of a character class expanded into literals
	maxCands    = 32 // candidate suffix starts tried before falling back
	tailBudget  = 4  // tails tried may total tailBudget*len(s) + tailSlack
	tailSlack   = 1024
)

// Regexp is a compiled pattern that answers MatchString as the plain
// regexp it wraps ([Regexp.Plain]) does. It is immutable and safe for
// concurrent use.
type Regexp struct {
	plain *regexp.Regexp // ^(?:P)$ for a full match, P for a search
	full  bool

	// starts: every match of P starts with one of these; nil when unknown.
	starts []string

	// The suffix path for full matches of STAR R.
	tail       *regexp.Regexp // \A(?:R)\z; nil when the path does not apply
	tailStarts []string       // every match of R starts with one of these
	noNewline  bool           // STAR is .* without s: the prefix holds no '\n'
}

// Compile compiles pattern with regexp's (Perl) syntax. With full set the
// Regexp matches only when the whole text matches, as ^(?:pattern)$ does;
// otherwise it reports whether the text contains a match.
func Compile(pattern string, full bool) (*Regexp, error) {
	// Parse the pattern alone first, so that wrapping it in a group cannot
	// change what it means (a pattern like `a)|(b` fails here).
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, err
	}
	expr := pattern
	if full {
		expr = `^(?:` + pattern + closeQuote(pattern) + `)$`
	}
	plain, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	re := &Regexp{plain: plain, full: full}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return re, nil // cannot happen: regexp parsed it; stay plain
	}
	tree = tree.Simplify()
	if set, ok := usable(prefixSet(tree)); ok {
		re.starts = set
	}
	if full {
		re.compileTail(tree)
	}
	return re, nil
}

// closeQuote returns `\E` when p ends inside a \Q quote, which RE2 lets
// run to the end of the pattern, so that a group wrapped around p still
// closes; otherwise "". A \Q inside a class is an error RE2 has already
// reported, so classes need no care here.
func closeQuote(p string) string {
	for i := 0; i+1 < len(p); i++ {
		if p[i] != '\\' {
			continue
		}
		if p[i+1] == 'Q' {
			end := strings.Index(p[i+2:], `\E`)
			if end < 0 {
				return `\E`
			}
			i += 2 + end
		}
		i++
	}
	return ""
}

// MustCompile is [Compile] for patterns known to be valid; it panics
// otherwise.
func MustCompile(pattern string, full bool) *Regexp {
	re, err := Compile(pattern, full)
	if err != nil {
		panic("fastre: Compile(" + strconvQuote(pattern) + "): " + err.Error())
	}
	return re
}

func strconvQuote(s string) string { return "`" + s + "`" }

// Plain returns the regexp.Regexp whose answers Regexp reproduces:
// ^(?:P)$ for a full match, P for a search.
func (re *Regexp) Plain() *regexp.Regexp { return re.plain }

// Fast reports whether a shortcut applies to the pattern, for tests and
// benchmarks: "suffix" when full matches go through the suffix path,
// "prefix" when only a literal prefilter applies, "" when none does.
func (re *Regexp) Fast() string {
	switch {
	case re.tail != nil:
		return "suffix"
	case re.starts != nil:
		return "prefix"
	}
	return ""
}

// MatchString reports whether s matches: wholly for a full match, anywhere
// for a search. The answer is always plain regexp's.
func (re *Regexp) MatchString(s string) bool {
	if re.starts != nil && !re.startsOK(s) {
		return false
	}
	if re.tail != nil {
		if ok, decided := re.matchTail(s); decided {
			return ok
		}
	}
	return re.plain.MatchString(s)
}

// startsOK applies the literal prefilter.
func (re *Regexp) startsOK(s string) bool {
	for _, p := range re.starts {
		if re.full && strings.HasPrefix(s, p) || !re.full && strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// compileTail sets up the suffix path when tree is STAR R with STAR one of
// [\s\S]*, (?s).* or .*, R free of empty-width assertions, R unable to
// match the empty string, and R's matches starting with known literals.
func (re *Regexp) compileTail(tree *syntax.Regexp) {
	for tree.Op == syntax.OpCapture {
		tree = tree.Sub[0]
	}
	if tree.Op != syntax.OpConcat || len(tree.Sub) < 2 {
		return
	}
	star := tree.Sub[0]
	if star.Op != syntax.OpStar {
		return
	}
	switch anyKind(star.Sub[0]) {
	case anyAll:
	case anyNotNL:
		re.noNewline = true
	default:
		return
	}
	rest := &syntax.Regexp{Op: syntax.OpConcat, Sub: tree.Sub[1:]}
	if len(rest.Sub) == 1 {
		rest = rest.Sub[0]
	}
	if hasAssertion(rest) {
		return
	}
	set, ok := usable(prefixSet(rest))
	if !ok {
		return
	}
	tail, err := regexp.Compile(`\A(?:` + rest.String() + `)\z`)
	if err != nil || tail.MatchString("") {
		return
	}
	re.tail, re.tailStarts = tail, set
}

// matchTail runs the suffix path. decided is false when the candidates or
// the work budget ran out, and the plain regexp must answer.
func (re *Regexp) matchTail(s string) (ok, decided bool) {
	limit := len(s)
	if re.noNewline {
		// The prefix s[:i] must be free of newlines: i <= first '\n'.
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			limit = nl
		}
	}
	var buf [maxCands]int
	cands := buf[:0]
	for _, p := range re.tailStarts {
		// Search for the literal without its leading white space, which is
		// common in text (a '\n' on every line) and would stop
		// strings.Index at each one; check the white space after.
		k := 0
		for k < len(p)-1 && (p[k] == '\n' || p[k] == ' ' || p[k] == '\t' || p[k] == '\r') {
			k++
		}
		head, rest := p[:k], p[k:]
		for off := k; off <= len(s) && off <= limit+k; {
			j := strings.Index(s[off:], rest)
			if j < 0 {
				break
			}
			i := off + j - k
			if i > limit {
				break
			}
			off += j + 1
			if s[i:i+k] != head {
				continue
			}
			if len(cands) == maxCands {
				return false, false
			}
			cands = append(cands, i)
		}
	}
	budget := tailBudget*len(s) + tailSlack
	// Try the last start first: tails are shortest there, and the match a
	// full-match pattern looks for is usually the final line.
	for len(cands) > 0 {
		k := 0
		for j := range cands {
			if cands[j] > cands[k] {
				k = j
			}
		}
		i := cands[k]
		cands[k] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
		budget -= len(s) - i
		if budget < 0 {
			return false, false
		}
		if re.tail.MatchString(s[i:]) {
			return true, true
		}
	}
	return false, true
}

type anyClass uint8

const (
	anyNone  anyClass = iota
	anyAll            // any rune: [\s\S], (?s).
	anyNotNL          // any rune but '\n': .
)

// anyKind says whether re matches one rune of any kind, or any but '\n'.
func anyKind(re *syntax.Regexp) anyClass {
	switch re.Op {
	case syntax.OpAnyChar:
		return anyAll
	case syntax.OpAnyCharNotNL:
		return anyNotNL
	case syntax.OpCharClass:
		r := re.Rune
		switch {
		case len(r) == 2 && r[0] == 0 && r[1] == utf8.MaxRune:
			return anyAll
		case len(r) == 4 && r[0] == 0 && r[1] == '\n'-1 && r[2] == '\n'+1 && r[3] == utf8.MaxRune:
			return anyNotNL
		}
	}
	return anyNone
}

// hasAssertion reports whether re holds an empty-width assertion, whose
// result depends on the text around the match.
func hasAssertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if hasAssertion(sub) {
			return true
		}
	}
	return false
}

// usable turns a prefix set into a prefilter: none when unknown or when
// one of the strings is empty (every text would pass).
func usable(set []string, _ bool, ok bool) ([]string, bool) {
	if !ok || len(set) == 0 {
		return nil, false
	}
	for _, s := range set {
		if s == "" {
			return nil, false
		}
	}
	return set, true
}

// prefixSet returns a set of strings such that every match of re starts
// with one of them; exact when every match is one of them, whole. ok is
// false when nothing is known. The set over-approximates: it is only ever
// used as a necessary condition.
//
// Literals that ignore case are not expanded, and a rune that the input
// could spell otherwise is refused: regexp reads each invalid UTF-8 byte as
// U+FFFD, which strings.Index would not find as the bytes EF BF BD.
func prefixSet(re *syntax.Regexp) (set []string, exact, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		// Assertions match the empty string (or nothing): {""} covers them.
		return []string{""}, true, true
	case syntax.OpLiteral:
		return literalPrefix(re)
	case syntax.OpCharClass:
		return classPrefix(re)
	case syntax.OpCapture:
		return prefixSet(re.Sub[0])
	case syntax.OpPlus:
		set, _, ok = prefixSet(re.Sub[0])
		return set, false, ok
	case syntax.OpRepeat:
		if re.Min == 0 {
			return []string{""}, false, true
		}
		set, _, ok = prefixSet(re.Sub[0])
		return set, false, ok
	case syntax.OpStar, syntax.OpQuest:
		return []string{""}, false, true
	case syntax.OpAlternate:
		exact = true
		for _, sub := range re.Sub {
			s, e, o := prefixSet(sub)
			if !o || len(set)+len(s) > maxSet {
				return nil, false, false
			}
			set = append(set, s...)
			exact = exact && e
		}
		return set, exact, true
	case syntax.OpConcat:
		return concatPrefix(re)
	}
	return nil, false, false
}

// literalPrefix is the prefix set of a literal: itself, truncated when
// long; nothing for one that ignores case or has a rune the input could
// spell otherwise.
func literalPrefix(re *syntax.Regexp) (set []string, exact, ok bool) {
	if re.Flags&syntax.FoldCase != 0 {
		return nil, false, false
	}
	for _, r := range re.Rune {
		if !plainRune(r) {
			return nil, false, false
		}
	}
	s := string(re.Rune)
	if len(s) > maxLitBytes {
		return []string{truncate(s)}, false, true
	}
	return []string{s}, true, true
}

// classPrefix is the prefix set of a small character class: each of its
// runes.
func classPrefix(re *syntax.Regexp) (set []string, exact, ok bool) {
	n := 0
	for i := 0; i < len(re.Rune); i += 2 {
		n += int(re.Rune[i+1]-re.Rune[i]) + 1
		if n > maxClass {
			return nil, false, false
		}
	}
	for i := 0; i < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			if !plainRune(r) {
				return nil, false, false
			}
			set = append(set, string(r))
		}
	}
	return set, true, len(set) > 0
}

// concatPrefix is the prefix set of a concatenation: the products of its
// parts' sets, as far as they are exact and the product stays small.
func concatPrefix(re *syntax.Regexp) (set []string, exact, ok bool) {
	set, exact = []string{""}, true
	for _, sub := range re.Sub {
		s, e, o := prefixSet(sub)
		if !o || len(set)*len(s) > maxSet {
			return set, false, true
		}
		next := make([]string, 0, len(set)*len(s))
		trunc := false
		for _, a := range set {
			for _, b := range s {
				c := a + b
				if len(c) > maxLitBytes {
					c, trunc = truncate(c), true
				}
				next = append(next, c)
			}
		}
		set = next
		if !e || trunc {
			return set, false, true
		}
	}
	return set, exact, true
}

// plainRune reports whether r is spelt in the input only as its own UTF-8
// bytes.
func plainRune(r rune) bool {
	return r != utf8.RuneError && utf8.ValidRune(r)
}

// truncate cuts s to at most maxLitBytes at a rune boundary.
func truncate(s string) string {
	n := maxLitBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
