package fastre

// Classes in translated patterns: regexp2 knows fewer class names than RE2,
// reads [a-z-[aeiou]] as a subtraction and folds case by lowercasing, so
// every class (and, under (?i), every letter) reaches it as the explicit
// ranges RE2 reads, taken from regexp/syntax.

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// class translates a character class into the explicit ranges RE2 reads
// in it, so that POSIX and Unicode class names, negation and a [ inside
// (which .NET would read as a subtraction) all keep RE2's meaning. A class
// RE2 cannot parse is copied for the skeleton to report.
func (t *translator) class() {
	n := classLen(t.p[t.i:])
	src := t.p[t.i : t.i+n]
	bt, ok := ranges(src, t.mode.fold)
	if !ok {
		bt = src
	}
	t.both(bt, src)
	t.i += n
}

// classLen returns the length of the class at the start of s, to its
// closing ], or len(s) when it is not closed.
func classLen(s string) int {
	i := 1
	if i < len(s) && s[i] == '^' {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++ // a ] first in the class is a literal
	}
	for i < len(s) {
		rest := s[i:]
		switch {
		case rest[0] == ']':
			return i + 1
		case rest[0] == '\\' && len(rest) > 1:
			i += escapeLen(rest)
		case strings.HasPrefix(rest, "[:") && strings.Contains(rest[2:], ":]"):
			i += strings.Index(rest[2:], ":]") + 4
		default:
			i++
		}
	}
	return len(s)
}

// ranges writes the class src (such as [^a-z\pL] or [[:alpha:]], or one
// literal character) as RE2 parses it, case-folded with fold: a class of
// ranges. It reports false when RE2 cannot parse src as one class.
func ranges(src string, fold bool) (string, bool) {
	flags := syntax.Perl
	if fold {
		flags |= syntax.FoldCase
	}
	if !strings.HasPrefix(src, "[") {
		src = "[" + regexp.QuoteMeta(src) + "]"
	}
	neg := strings.HasPrefix(src, "[^")
	inner := src[1:]
	if neg {
		inner = src[2:]
	}
	re, err := syntax.Parse("["+inner, flags)
	if err != nil {
		return "", false
	}
	var rs []rune
	switch re.Op {
	case syntax.OpCharClass:
		rs = re.Rune
	case syntax.OpLiteral:
		rs = []rune{re.Rune[0], re.Rune[0]}
	case syntax.OpAnyChar:
		rs = []rune{0, unicode.MaxRune}
	case syntax.OpAnyCharNotNL:
		rs = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	case syntax.OpNoMatch:
		rs, neg = []rune{0, unicode.MaxRune}, !neg
	default:
		return "", false
	}
	b := []byte("[")
	if neg {
		b = append(b, '^')
	}
	for i := 0; i+1 < len(rs); i += 2 {
		b = appendClassRune(b, rs[i])
		if rs[i+1] != rs[i] {
			b = appendClassRune(append(b, '-'), rs[i+1])
		}
	}
	return string(append(b, ']')), true
}

// appendClassRune writes r for a class: an ASCII letter or digit as it is,
// other printable ASCII escaped with a backslash, anything else as \x{...}.
func appendClassRune(b []byte, r rune) []byte {
	switch {
	case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		return append(b, byte(r))
	case r > ' ' && r < 0x7f:
		return append(b, '\\', byte(r))
	}
	return fmt.Appendf(b, `\x{%x}`, r)
}

// folded returns RE2's case-folded class for the letter r under (?i), when
// r folds beyond what lowercasing joins (s, k, the long s, Greek sigma...).
func (t *translator) folded(r rune) (string, bool) {
	if !t.mode.fold || unicode.SimpleFold(r) == r {
		return "", false
	}
	return ranges(string(r), true)
}
