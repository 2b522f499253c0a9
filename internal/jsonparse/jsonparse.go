// Package jsonparse decodes JSON text held in a Go string into the generic
// values encoding/json produces with UseNumber: map[string]any, []any,
// string, json.Number, bool and nil. It accepts exactly the texts
// encoding/json accepts (RFC 8259, one value, surrounding white space) and
// yields the same value for them, which the differential tests and the fuzz
// target check.
//
// It exists for speed. Strings without escapes, object keys and numbers are
// substrings of the input, not copies; objects and arrays are allocated at
// their final size. On the benchmark workload's JSON that makes a parse about
// three times cheaper than encoding/json's and cheaper than
// github.com/ohler55/ojg's (which also accepts the number 1. and reads 1e400
// as +Inf). [Parser.Check] validates without building anything, and
// [Parser.Select] builds only the value a singular JSONPath selects. The
// values keep the input alive while they are.
//
// Numbers stay json.Number, so nothing is rounded: JSON Schema's integer
// test, multipleOf and big numbers see the digits as written.
package jsonparse

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// SyntaxError is a JSON syntax error at a byte offset.
type SyntaxError struct {
	Offset int // byte offset in the input where the error was found
	Msg    string
}

// Error reads "invalid JSON at offset N: MSG".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// Parser decodes JSON. Its scratch space is reused between calls, so a
// Parser must not be used concurrently; keep one per goroutine or in a
// sync.Pool. The zero value is ready to use.
type Parser struct {
	// Native makes integers written without a fraction or exponent int64
	// when they fit, other numbers float64 when they have at most 15
	// significant digits and a finite float64 value, and keeps json.Number
	// for the rest (big integers, long decimals, 1e400), so no digit is
	// lost: the number types the JSONPath evaluators' filters compare.
	// The default keeps every number a json.Number.
	Native bool

	s     string
	i     int
	depth int
	quiet bool  // errors are errQuiet: the caller wants no message
	kv    []kv  // pending object members, a stack shared by nested objects
	items []any // pending array items, likewise
	build bool
}

type kv struct {
	k string
	v any
}

// Parse decodes s. The values it returns do not share memory with the
// Parser, which may be reused at once.
func (p *Parser) Parse(s string) (any, error) {
	p.s, p.i, p.depth, p.build = s, 0, 0, true
	v, err := p.top()
	p.reset()
	return v, err
}

// Check returns nil when s is one JSON value, and the *SyntaxError
// otherwise, without building the value.
func (p *Parser) Check(s string) error {
	p.s, p.i, p.depth, p.build = s, 0, 0, false
	_, err := p.top()
	p.reset()
	return err
}

// reset drops what an error left pending, so the input can be collected.
func (p *Parser) reset() {
	p.s = ""
	clear(p.kv)
	p.kv = p.kv[:0]
	clear(p.items)
	p.items = p.items[:0]
}

// Valid reports whether s is one JSON value, as Check does, without
// building the error: it allocates nothing.
func (p *Parser) Valid(s string) bool {
	p.quiet = true
	err := p.Check(s)
	p.quiet = false
	return err == nil
}

// Unquote decodes s, one JSON string with its quotes, as Parse decodes
// it (escapes resolved, invalid UTF-8 replaced), without boxing the
// result in an interface.
func (p *Parser) Unquote(s string) (string, error) {
	if s == "" || s[0] != '"' {
		return "", &SyntaxError{Msg: "not a JSON string"}
	}
	p.s, p.i, p.depth, p.build = s, 0, 0, true
	v, err := p.str()
	if err == nil && p.i != len(s) {
		err = p.errf("unexpected %s after a string", p.what())
	}
	p.reset()
	return v, err
}

// errQuiet is every error of a quiet parser.
var errQuiet = errors.New("not JSON")

// ValidPrefix returns the length of the JSON value that starts s (no
// leading white space), or -1 when s does not start with one. What follows
// the value is not looked at. It allocates nothing.
func ValidPrefix(s string) int {
	p := Parser{s: s, quiet: true}
	if _, err := p.value(); err != nil {
		return -1
	}
	return p.i
}

// Parse decodes s with a new Parser.
func Parse(s string) (any, error) {
	var p Parser
	return p.Parse(s)
}

func (p *Parser) top() (any, error) {
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(p.s) {
		return nil, p.errf("unexpected %s after the top-level value", p.what())
	}
	return v, nil
}

func (p *Parser) errf(format string, args ...any) error {
	if p.quiet {
		return errQuiet
	}
	return &SyntaxError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

// what names the byte at p.i for a message.
func (p *Parser) what() string {
	if p.quiet {
		return ""
	}
	if p.i >= len(p.s) {
		return "end of input"
	}
	return strconv.QuoteRune(rune(p.s[p.i]))
}

// space holds JSON's white space bytes.
var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (p *Parser) ws() {
	i, s := p.i, p.s
	for i < len(s) && space[s[i]] {
		i++
	}
	p.i = i
}

func (p *Parser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errf("unexpected end of input, want a value")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil || !p.build {
			return nil, err
		}
		return s, nil
	case c == '-' || c >= '0' && c <= '9':
		n, err := p.number()
		if err != nil || !p.build {
			return nil, err
		}
		if p.Native {
			return native(n), nil
		}
		return n, nil
	case c == 't':
		return true, p.lit("true")
	case c == 'f':
		return false, p.lit("false")
	case c == 'n':
		return nil, p.lit("null")
	}
	return nil, p.errf("unexpected %s, want a value", p.what())
}

func (p *Parser) lit(w string) error {
	if len(p.s)-p.i >= len(w) && p.s[p.i:p.i+len(w)] == w {
		p.i += len(w)
		return nil
	}
	if p.quiet {
		return errQuiet // before w is boxed for errf
	}
	return p.errf("invalid literal, want %s", w)
}

var errDepth = errors.New("exceeded max depth")

func (p *Parser) object() (any, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, &SyntaxError{Offset: p.i, Msg: errDepth.Error()}
	}
	p.i++ // {
	base := len(p.kv)
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		p.depth--
		if !p.build {
			return nil, nil
		}
		return map[string]any{}, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errf("unexpected %s, want a string key", p.what())
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("unexpected %s after an object key, want ':'", p.what())
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if p.build {
			p.kv = append(p.kv, kv{k, v})
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of input in an object")
		}
		if c := p.s[p.i]; c == ',' {
			p.i++
			p.ws()
			continue
		} else if c != '}' {
			return nil, p.errf("unexpected %s in an object, want ',' or '}'", p.what())
		}
		p.i++
		break
	}
	p.depth--
	if !p.build {
		return nil, nil
	}
	m := make(map[string]any, len(p.kv)-base)
	for _, e := range p.kv[base:] {
		m[e.k] = e.v // a repeated key: the last one wins, as in encoding/json
	}
	clear(p.kv[base:])
	p.kv = p.kv[:base]
	return m, nil
}

func (p *Parser) array() (any, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, &SyntaxError{Offset: p.i, Msg: errDepth.Error()}
	}
	p.i++ // [
	base := len(p.items)
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		p.depth--
		if !p.build {
			return nil, nil
		}
		return []any{}, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if p.build {
			p.items = append(p.items, v)
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of input in an array")
		}
		if c := p.s[p.i]; c == ',' {
			p.i++
			p.ws()
			continue
		} else if c != ']' {
			return nil, p.errf("unexpected %s in an array, want ',' or ']'", p.what())
		}
		p.i++
		break
	}
	p.depth--
	if !p.build {
		return nil, nil
	}
	a := make([]any, len(p.items)-base)
	copy(a, p.items[base:])
	clear(p.items[base:])
	p.items = p.items[:base]
	return a, nil
}

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

// native converts n to int64 or float64 where that keeps its value.
func native(n json.Number) any {
	if !strings.ContainsAny(string(n), ".eE") {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return i
		}
		return n
	}
	if sigDigits(string(n)) > 15 {
		return n // float64 would not keep every digit
	}
	if f, err := strconv.ParseFloat(string(n), 64); err == nil {
		return f
	}
	return n
}

// sigDigits counts the significant digits of a number's mantissa: every
// digit before the exponent but the leading zeros.
func sigDigits(n string) int {
	count, lead := 0, true
	for i := 0; i < len(n); i++ {
		switch c := n[i]; {
		case c == 'e' || c == 'E':
			return count
		case c == '0' && lead:
		case c >= '0' && c <= '9':
			lead = false
			count++
		}
	}
	return count
}

// number reads an RFC 8259 number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *Parser) number() (json.Number, error) {
	s, i := p.s, p.i
	start := i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	default:
		p.i = i
		return "", p.errf("invalid number: want a digit, got %s", p.what())
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			p.i = i
			return "", p.errf("invalid number: want a digit after '.', got %s", p.what())
		}
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			p.i = i
			return "", p.errf("invalid number: want a digit in the exponent, got %s", p.what())
		}
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	p.i = i
	return json.Number(s[start:i]), nil
}

// Select checks that s is one JSON value, as [Parser.Check] does, and
// builds only the value that a singular path selects: steps are object
// member names (string) and array indexes (int; negative ones count from
// the end). found is false when the path selects nothing. Everything off
// the path is validated but not built, which makes a JSONPath lookup cost
// about what validation does. A repeated member name selects its last
// occurrence, as in Parse.
func (p *Parser) Select(s string, steps []any) (v any, found bool, err error) {
	p.s, p.i, p.depth, p.build = s, 0, 0, false
	p.ws()
	v, found, err = p.selectValue(steps)
	if err == nil {
		p.ws()
		if p.i < len(p.s) {
			err = p.errf("unexpected %s after the top-level value", p.what())
		}
	}
	p.reset()
	if err != nil {
		return nil, false, err
	}
	return v, found, nil
}

// selectValue reads the value at p.i, building it when steps is empty and
// descending along steps otherwise. p.build is false on entry and exit.
func (p *Parser) selectValue(steps []any) (any, bool, error) {
	if len(steps) == 0 {
		p.build = true
		v, err := p.value()
		p.build = false
		return v, err == nil, err
	}
	if p.i < len(p.s) {
		switch name, idx := steps[0], 0; {
		case p.s[p.i] == '{' && isName(name):
			return p.selectMember(name.(string), steps[1:])
		case p.s[p.i] == '[' && isIndex(name, &idx):
			return p.selectItem(idx, steps[1:])
		}
	}
	_, err := p.value() // the path leads nowhere here: validate only
	return nil, false, err
}

func isName(step any) bool { _, ok := step.(string); return ok }

func isIndex(step any, idx *int) bool {
	i, ok := step.(int)
	*idx = i
	return ok
}

func (p *Parser) selectMember(name string, rest []any) (v any, found bool, err error) {
	if p.depth++; p.depth > maxDepth {
		return nil, false, &SyntaxError{Offset: p.i, Msg: errDepth.Error()}
	}
	p.i++ // {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		p.depth--
		return nil, false, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, false, p.errf("unexpected %s, want a string key", p.what())
		}
		k, err := p.str()
		if err != nil {
			return nil, false, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, false, p.errf("unexpected %s after an object key, want ':'", p.what())
		}
		p.i++
		p.ws()
		if k == name {
			// A later member of the same name replaces this one.
			if v, found, err = p.selectValue(rest); err != nil {
				return nil, false, err
			}
		} else if _, err := p.value(); err != nil {
			return nil, false, err
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, false, p.errf("unexpected end of input in an object")
		}
		if c := p.s[p.i]; c == ',' {
			p.i++
			p.ws()
			continue
		} else if c != '}' {
			return nil, false, p.errf("unexpected %s in an object, want ',' or '}'", p.what())
		}
		p.i++
		p.depth--
		return v, found, nil
	}
}

func (p *Parser) selectItem(idx int, rest []any) (v any, found bool, err error) {
	if p.depth++; p.depth > maxDepth {
		return nil, false, &SyntaxError{Offset: p.i, Msg: errDepth.Error()}
	}
	p.i++ // [
	p.ws()
	var starts []int // item offsets, kept for a negative index
	n := 0
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
	} else {
		for {
			if idx < 0 {
				starts = append(starts, p.i)
			}
			if n == idx {
				if v, found, err = p.selectValue(rest); err != nil {
					return nil, false, err
				}
			} else if _, err := p.value(); err != nil {
				return nil, false, err
			}
			n++
			p.ws()
			if p.i >= len(p.s) {
				return nil, false, p.errf("unexpected end of input in an array")
			}
			if c := p.s[p.i]; c == ',' {
				p.i++
				p.ws()
				continue
			} else if c != ']' {
				return nil, false, p.errf("unexpected %s in an array, want ',' or ']'", p.what())
			}
			p.i++
			break
		}
	}
	p.depth--
	if idx < 0 && n+idx >= 0 {
		// Go back to the item, already validated, and select from it.
		end, depth := p.i, p.depth
		p.i, p.depth = starts[n+idx], depth+1
		v, found, err = p.selectValue(rest)
		p.i, p.depth = end, depth
	}
	return v, found, err
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
