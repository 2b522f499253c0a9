package jsonparse

import (
	"unicode/utf16"
	"unicode/utf8"
)

// str reads a string at p.i (which holds '"'). Without escapes or invalid
// UTF-8 it returns a substring of the input.
func (p *Parser) str() (string, error) {
	start := p.i + 1
	i := start
	ascii := true
	for i < len(p.s) {
		i = plainRun(p.s, i)
		if i >= len(p.s) {
			break
		}
		c := p.s[i]
		switch {
		case c == '"':
			p.i = i + 1
			s := p.s[start:i]
			if !ascii && !utf8.ValidString(s) {
				s = toValidUTF8(s)
			}
			return s, nil
		case c == '\\':
			return p.slowStr(start)
		case c < 0x20:
			p.i = i
			return "", p.errf("control character %s in a string", p.what())
		case c >= 0x80:
			ascii = false
		}
		i++
	}
	p.i = i
	return "", p.errf("unexpected end of input in a string")
}

// plainRun returns the index of the first byte at or after i that is not
// plain string content: a control byte, '"', '\\' or a byte of a
// multi-byte character (or len(s)). It tests eight bytes at a time; a
// block the test flags (it may flag one that holds none) is read byte by
// byte.
func plainRun(s string, i int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for {
		for ; i+8 <= len(s); i += 8 {
			b := s[i : i+8] // one bounds check for the eight loads below
			x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			q := x ^ ('"' * ones)   // zero bytes where x has '"'
			bs := x ^ ('\\' * ones) // zero bytes where x has '\\'
			// A borrow or a high bit: a byte below 0x20, a zero byte
			// of q or bs, or a byte of 0x80 or more in x.
			if ((x-0x20*ones)|(q-ones)|(bs-ones)|x)&highs != 0 {
				break
			}
		}
		end := min(i+8, len(s))
		for i < end && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\' {
			i++
		}
		if i < end || i == len(s) {
			return i
		}
	}
}

// toValidUTF8 replaces each invalid byte with U+FFFD, as encoding/json does
// (one replacement per byte, unlike strings.ToValidUTF8).
func toValidUTF8(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// slowStr decodes a string with escapes, from start (just past '"').
func (p *Parser) slowStr(start int) (string, error) {
	b := make([]byte, 0, 32)
	i := start
	for i < len(p.s) {
		c := p.s[i]
		switch {
		case c == '"':
			p.i = i + 1
			return string(b), nil
		case c < 0x20:
			p.i = i
			return "", p.errf("control character %s in a string", p.what())
		case c == '\\':
			if i+1 >= len(p.s) {
				p.i = i + 1
				return "", p.errf("unexpected end of input in a string escape")
			}
			i++
			if u, ok := Unescape(p.s[i]); ok {
				b = append(b, u)
				i++
				continue
			}
			switch p.s[i] {
			case 'u':
				r, ok := hex4(p.s, i+1)
				if !ok {
					p.i = i
					return "", p.errf("invalid \\u escape")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					// A high surrogate followed by an escaped low one is one
					// rune; anything else is U+FFFD, as in encoding/json.
					if r2, ok := hex4(p.s, i+3); ok && i+2 < len(p.s) && p.s[i+1] == '\\' && p.s[i+2] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							b = utf8.AppendRune(b, d)
							i += 6
							break
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				p.i = i
				return "", p.errf("invalid escape %s", p.what())
			}
			i++
		case c < 0x80:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(p.s[i:])
			if r == utf8.RuneError && n == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, p.s[i:i+n]...)
			}
			i += n
		}
	}
	p.i = i
	return "", p.errf("unexpected end of input in a string")
}

// Unescape returns the byte that the one-letter JSON escape \e stands for
// (\" \\ \/ \b \f \n \r \t), or false for any other letter, \u
// included: that one needs the four hex digits after it ([Parser] reads
// them). It is small enough to inline into a caller's scanning loop.
func Unescape(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// hex4 reads four hex digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// StringEnd returns the index just past the JSON string whose opening
// quote is at s[i], and whether its content holds an escape; end is -1
// when no valid string starts there. It accepts exactly the strings
// [Parser] accepts (invalid UTF-8 included) and allocates nothing.
func StringEnd(s string, i int) (end int, escaped bool) {
	if i >= len(s) || s[i] != '"' {
		return -1, false
	}
	j := i + 1
	for {
		if j = plainRun(s, j); j >= len(s) {
			return -1, false
		}
		switch c := s[j]; {
		case c == '"':
			return j + 1, escaped
		case c == '\\':
			escaped = true
			if j+1 < len(s) {
				if _, ok := Unescape(s[j+1]); ok {
					j += 2
					continue
				}
				if _, ok := hex4(s, j+2); ok && s[j+1] == 'u' {
					j += 6
					continue
				}
			}
			return -1, false
		case c < 0x20:
			return -1, false
		default: // a byte of a multi-byte character
			j++
		}
	}
}
