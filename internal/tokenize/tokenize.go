// Package tokenize holds the tokenisers of the reference implementations
// proctor's similarity metrics are matched against: sacreBLEU's 13a,
// Google rouge-score's, the SQuAD evaluation script's normalisation, and
// Python's str.split and str.lower semantics they all rely on.
package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace is true for r: Unicode
// White_Space plus the separators U+001C..U+001F.
func IsSpace(r rune) bool {
	if r < utf8.RuneSelf {
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
			return true
		}
		return false
	}
	return unicode.IsSpace(r)
}

// Fields appends to dst the fields of s as Python's s.split() returns
// them, and returns the extended slice. The fields share s's memory.
func Fields(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		var sp bool
		n := 1
		if c < utf8.RuneSelf {
			sp = c == ' ' || c-'\t' <= '\r'-'\t' || c-0x1c <= 3
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			sp = unicode.IsSpace(r)
		}
		if sp {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// Lower returns s lower-cased as Python's str.lower does: Unicode simple
// lower-casing, except that U+0130 becomes "i\u0307" and a capital sigma
// ending a word becomes the final sigma.
//
// The final-sigma rule is approximated: Python looks past case-ignorable
// characters, Lower only at the neighbouring runes being letters.
func Lower(s string) string {
	ascii := true
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if ascii {
		if !upper {
			return s
		}
		b := make([]byte, len(s))
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[i] = c
		}
		return string(b)
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	prevLetter := false
	for i, r := range s {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
		case 0x3a3:
			next, _ := utf8.DecodeRuneInString(s[i+len("Σ"):])
			if prevLetter && !(i+len("Σ") < len(s) && unicode.IsLetter(next)) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prevLetter = unicode.IsLetter(r)
	}
	return b.String()
}
