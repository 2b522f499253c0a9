package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// isPunct13a reports whether the 13a tokeniser surrounds c with spaces:
// sacreBLEU's class [\{-\~\[-\` -\&\(-\+\:-\@\/].
func isPunct13a(c byte) bool {
	return '{' <= c && c <= '~' || '[' <= c && c <= '`' || ' ' <= c && c <= '&' ||
		'(' <= c && c <= '+' || ':' <= c && c <= '@' || c == '/'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// RStrip returns s without trailing Python white space.
func RStrip(s string) string {
	return strings.TrimRightFunc(s, IsSpace)
}

// Tok13a appends to buf the segment line tokenised as sacreBLEU's
// Tokenizer13a does (after BLEU's rstrip), with tokens separated by
// spaces (possibly several; split with [Fields]), and returns buf.
//
// The regular expressions of sacreBLEU are applied as passes over bytes
// with the same left-to-right, non-overlapping semantics as Python's
// re.sub; none of their classes matches a byte of a multi-byte UTF-8
// sequence in a way that could differ from matching its code point.
func Tok13a(buf, tmp []byte, line string) ([]byte, []byte) {
	line = RStrip(line)
	if strings.Contains(line, "<skipped>") {
		line = strings.ReplaceAll(line, "<skipped>", "")
	}
	if strings.IndexByte(line, '\n') >= 0 {
		line = strings.ReplaceAll(line, "-\n", "")
		line = strings.ReplaceAll(line, "\n", " ")
	}
	if strings.IndexByte(line, '&') >= 0 {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	// Pass 1: " " + line + " ", with punctuation surrounded by spaces.
	a := tmp[:0]
	a = append(a, ' ')
	for i := 0; i < len(line); i++ {
		c := line[i]
		if isPunct13a(c) {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	a = append(a, ' ')
	// Pass 2: ([^0-9])([\.,]) -> "\1 \2 ".
	b := buf[:0]
	for i := 0; i < len(a); i++ {
		c := a[i]
		if i+1 < len(a) && !isDigit(c) && (a[i+1] == '.' || a[i+1] == ',') {
			b = append(b, c, ' ', a[i+1], ' ')
			i++
			continue
		}
		b = append(b, c)
	}
	// Pass 3: ([\.,])([^0-9]) -> " \1 \2".
	a = a[:0]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if (c == '.' || c == ',') && i+1 < len(b) && !isDigit(b[i+1]) {
			a = append(a, ' ', c, ' ', b[i+1])
			i++
			continue
		}
		a = append(a, c)
	}
	// Pass 4: ([0-9])(-) -> "\1 \2 ".
	b = b[:0]
	for i := 0; i < len(a); i++ {
		c := a[i]
		if isDigit(c) && i+1 < len(a) && a[i+1] == '-' {
			b = append(b, c, ' ', '-', ' ')
			i++
			continue
		}
		b = append(b, c)
	}
	return b, a
}

// Rouge appends to dst the tokens of text as rouge-score's tokenize does
// (Python lower-casing, every run of characters other than [a-z0-9] a
// separator), stemming tokens longer than three characters with stem when
// it is not nil, and returns the extended slice.
func Rouge(dst []string, text string, stem func(string) string) []string {
	b := make([]byte, 0, len(text))
	ends := make([]int, 0, len(text)/4+1)
	if dst == nil {
		dst = make([]string, 0, len(text)/4+1)
	}
	inTok := false
	closeTok := func() {
		if inTok {
			ends = append(ends, len(b))
			inTok = false
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
				b = append(b, c)
				inTok = true
			} else {
				closeTok()
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch r {
		case 0x212a: // KELVIN SIGN lower-cases to k
			b = append(b, 'k')
			inTok = true
		case 0x130: // lower-cases to i + combining dot above
			b = append(b, 'i')
			inTok = true
			closeTok()
		default:
			closeTok()
		}
	}
	closeTok()
	s := string(b)
	start := 0
	for _, e := range ends {
		t := s[start:e]
		start = e
		if stem != nil && len(t) > 3 {
			if t = stem(t); t == "" {
				continue
			}
		}
		dst = append(dst, t)
	}
	return dst
}

// isWord reports whether r is matched by Python's \w in a str pattern.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// isASCIIPunct reports whether c is in Python's string.punctuation.
func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

// SQuAD appends to dst the tokens of s as the official SQuAD v2 evaluation
// script's get_tokens returns them: lower-cased, ASCII punctuation removed,
// the articles a, an and the removed as whole words, split on white space.
func SQuAD(dst []string, s string) []string {
	if s == "" {
		return dst
	}
	s = Lower(s)
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isASCIIPunct(c) {
			b = append(b, c)
		}
	}
	// Replace each maximal \w run equal to a, an or the with a space, in
	// place: the output never outgrows what has been read.
	w := 0
	for i := 0; i < len(b); {
		j := i
		for j < len(b) {
			if c := b[j]; c < utf8.RuneSelf {
				if !isWord(rune(c)) {
					break
				}
				j++
				continue
			}
			r, n := utf8.DecodeRune(b[j:])
			if !isWord(r) {
				break
			}
			j += n
		}
		if j == i { // a non-word rune
			n := 1
			if b[i] >= utf8.RuneSelf {
				_, n = utf8.DecodeRune(b[i:])
			}
			w += copy(b[w:], b[i:i+n])
			i += n
			continue
		}
		if isArticle(b[i:j]) {
			b[w] = ' '
			w++
		} else {
			w += copy(b[w:], b[i:j])
		}
		i = j
	}
	return Fields(dst, string(b[:w]))
}

func isArticle(b []byte) bool {
	switch string(b) {
	case "a", "an", "the":
		return true
	}
	return false
}
