package reportio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/proctorhq/proctor"
)

// maxDepth is encoding/json's nesting limit, which its Decoder counts
// from the start of each value it decodes.
const maxDepth = 10000

// scanner reads the JSON of a report a value at a time: it finds where
// each value ends (string and escape aware, counting nesting) and checks
// its syntax as encoding/json does, byte by byte in one loop instead of
// through encoding/json's state machine, which is what made splitting the
// cases the slow part of reading a large report. A value comes back as a
// slice of its buffer, good until the next read.
type scanner struct {
	rd  io.Reader
	buf []byte
	pos int  // next byte to read in buf
	eof bool // rd has no more
	err error
}

func newScanner(rd io.Reader) *scanner {
	return &scanner{rd: rd, buf: make([]byte, 0, 256<<10)}
}

// more reads more of rd into buf, keeping buf[keep:] (moved to the front
// of buf; keep is then 0). It reads until the kept bytes at least double
// (or the buffer is full, or rd ends), so a value read in many small
// pieces is scanned again a few times, not once a piece. It reports
// whether it read anything.
func (s *scanner) more(keep int) bool {
	if s.eof {
		return false
	}
	n := copy(s.buf[:cap(s.buf)], s.buf[keep:])
	s.pos -= keep
	if 2*n > cap(s.buf) {
		grown := make([]byte, n, 4*n)
		copy(grown, s.buf[:n])
		s.buf = grown
	}
	s.buf = s.buf[:n]
	target := min(cap(s.buf), max(2*n, 64<<10))
	for len(s.buf) < target && !s.eof {
		k, err := s.rd.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+k]
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			s.eof, s.err = true, err
		}
	}
	return len(s.buf) > n
}

// peek skips white space and returns the next byte without reading it;
// io.EOF at the end of the input.
func (s *scanner) peek() (byte, error) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, nil
			}
		}
		if !s.more(s.pos) {
			if s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		}
	}
}

// value reads the next JSON value and returns its bytes.
func (s *scanner) value() ([]byte, error) {
	if _, err := s.peek(); err != nil {
		return nil, endError(err)
	}
	start := s.pos
	for {
		final := s.eof
		end, err := scanValue(s.buf[start:], final)
		if err == errMore && !final {
			s.more(start) // moves the value to the front of buf
			start = 0
			continue
		}
		if err == errMore {
			if s.err != nil {
				return nil, s.err
			}
			return nil, io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		s.pos = start + end
		return s.buf[start:s.pos], nil
	}
}

// endError is the error for input that ends inside a value.
func endError(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// errMore is scanValue's word that the value goes on past the bytes it
// was given.
var errMore = errors.New("more input needed")

// syntaxError is a syntax error worded as encoding/json words it.
type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return "not valid JSON: " + e.msg }

// badChar words an unexpected byte as encoding/json does.
func badChar(c byte, context string) error {
	return &syntaxError{"invalid character " + quoteChar(c) + " " + context}
}

// quoteChar formats c as encoding/json's errors do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// plain marks the bytes a JSON string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanValue returns the length of the JSON value at the start of b (after
// no white space), checking its syntax as encoding/json does. It returns errMore when b ends inside the value (or,
// unless final, right after a number or literal that more bytes could
// extend).
func scanValue(b []byte, final bool) (int, error) {
	var stack []byte // the open containers: '{' or '['
	i := 0
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return 0, errMore
		}
		var err error
		if c := b[i]; c == '{' || c == '[' {
			var empty bool
			if i, stack, empty, err = scanOpen(b, i, stack); err != nil {
				return 0, err
			}
			if !empty {
				continue
			}
		} else if i, err = scanScalar(b, i, final && len(stack) == 0); err != nil {
			return 0, err
		}
		var done bool
		if i, stack, done, err = scanAfter(b, i, stack); err != nil {
			return 0, err
		}
		if done {
			return i, nil
		}
	}
}

// scanOpen scans the opening of the object or list at b[i]: up to its
// first value (after the first key, for an object), or past its end when
// it is empty.
func scanOpen(b []byte, i int, stack []byte) (int, []byte, bool, error) {
	c := b[i]
	if len(stack) >= maxDepth {
		return 0, nil, false, badChar(c, "exceeded max depth")
	}
	i, err := skipSpace(b, i+1)
	if err != nil {
		return 0, nil, false, err
	}
	if b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
		return i + 1, stack, true, nil
	}
	if c == '{' {
		if i, err = scanKey(b, i); err != nil {
			return 0, nil, false, err
		}
	}
	return i, append(stack, c), false, nil
}

// scanScalar scans the string, number or literal at b[i]; final is as
// for scanNumber.
func scanScalar(b []byte, i int, final bool) (int, error) {
	switch c := b[i]; {
	case c == '"':
		return scanString(b, i)
	case c == '-' || ('0' <= c && c <= '9'):
		return scanNumber(b, i, final)
	case c == 't':
		return scanLiteral(b, i, "true", final)
	case c == 'f':
		return scanLiteral(b, i, "false", final)
	case c == 'n':
		return scanLiteral(b, i, "null", final)
	default:
		return 0, badChar(c, "looking for beginning of value")
	}
}

// scanAfter scans what follows a value that ends before b[i] in the open
// containers: the closing of any that end there, then the comma (and,
// in an object, the key) before the next value. done is set when the
// outermost value has ended.
func scanAfter(b []byte, i int, stack []byte) (int, []byte, bool, error) {
	var err error
	for len(stack) > 0 {
		if i, err = skipSpace(b, i); err != nil {
			return 0, nil, false, err
		}
		top := stack[len(stack)-1]
		switch c := b[i]; {
		case c == ',':
			if i, err = skipSpace(b, i+1); err != nil {
				return 0, nil, false, err
			}
			if top == '{' {
				i, err = scanKey(b, i)
			}
			return i, stack, false, err
		case c == top+2:
			stack = stack[:len(stack)-1]
			i++
		case top == '{':
			return 0, nil, false, badChar(c, "after object key:value pair")
		default:
			return 0, nil, false, badChar(c, "after array element")
		}
	}
	return i, stack, true, nil
}

// skipSpace returns the index of the first byte at or after i that is not
// white space; errMore when b ends first.
func skipSpace(b []byte, i int) (int, error) {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i, nil
		}
	}
	return 0, errMore
}

// scanKey scans an object key and its colon at b[i] and returns the index
// of the value after them.
func scanKey(b []byte, i int) (int, error) {
	if b[i] != '"' {
		return 0, badChar(b[i], "looking for beginning of object key string")
	}
	i, err := scanString(b, i)
	if err != nil {
		return 0, err
	}
	if i, err = skipSpace(b, i); err != nil {
		return 0, err
	}
	if b[i] != ':' {
		return 0, badChar(b[i], "after object key")
	}
	return skipSpace(b, i+1)
}

// scanString scans the string whose quote is b[i] and returns the index
// after its closing quote.
func scanString(b []byte, i int) (int, error) {
	for i++; ; i++ {
		for i < len(b) && plain[b[i]] {
			i++
		}
		if i >= len(b) {
			return 0, errMore
		}
		switch c := b[i]; c {
		case '"':
			return i + 1, nil
		case '\\':
			i++
			if i >= len(b) {
				return 0, errMore
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(b) {
						return 0, errMore
					}
					if !isHex(b[i+k]) {
						return 0, badChar(b[i+k], "in \\u hexadecimal character escape")
					}
				}
				i += 4
			default:
				return 0, badChar(b[i], "in string escape code")
			}
		default:
			return 0, badChar(c, "in string literal")
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scanNumber scans the number at b[i] and returns the index after it. A
// number at the end of b is complete only when final.
func scanNumber(b []byte, i int, final bool) (int, error) {
	digits := func(i int, context string) (int, error) {
		if i >= len(b) {
			return 0, errMore
		}
		if b[i] < '0' || b[i] > '9' {
			return 0, badChar(b[i], context)
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i, nil
	}
	var err error
	if b[i] == '-' {
		i++
		if i >= len(b) {
			return 0, errMore
		}
		if b[i] < '0' || b[i] > '9' {
			return 0, badChar(b[i], "in numeric literal")
		}
	}
	if b[i] == '0' {
		i++
	} else if i, err = digits(i, "in numeric literal"); err != nil {
		return 0, err
	}
	if i < len(b) && b[i] == '.' {
		if i, err = digits(i+1, "after decimal point in numeric literal"); err != nil {
			return 0, err
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, err = digits(i, "in exponent of numeric literal"); err != nil {
			return 0, err
		}
	}
	if i >= len(b) && !final {
		return 0, errMore
	}
	return i, nil
}

// scanLiteral scans true, false or null (word) at b[i].
func scanLiteral(b []byte, i int, word string, final bool) (int, error) {
	for k := 1; k < len(word); k++ {
		if i+k >= len(b) {
			return 0, errMore
		}
		if b[i+k] != word[k] {
			return 0, badChar(b[i+k], fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k])))
		}
	}
	if i+len(word) >= len(b) && !final {
		return 0, errMore
	}
	return i + len(word), nil
}

// unquote returns the text of the JSON string s (as scanned).
func unquote(s []byte) (string, error) {
	for _, c := range s[1 : len(s)-1] {
		if c == '\\' || c >= 0x80 {
			var out string
			err := json.Unmarshal(s, &out)
			return out, err
		}
	}
	return string(s[1 : len(s)-1]), nil
}

// IDVerdict returns the id of a case given as its JSON (as
// [Reader.NextRaw] returns it) and whether its verdict is passed, as
// decoding it into a [Verdict] would give them; see [DecodeVerdict].
func IDVerdict(raw json.RawMessage) (id string, passed bool, err error) {
	v, err := DecodeVerdict(raw)
	return v.ID, v.Verdict == proctor.StatusPassed, err
}

// DecodeVerdict decodes a case's JSON (as [Reader.NextRaw] returns it)
// into a [Verdict] as encoding/json would, without decoding the rest: the
// top-level keys are scanned and the fields' values read, and anything
// less plain (an escaped or non-ASCII string, a key matching a field only
// case-blind, a value not a string) is left to encoding/json, for its
// result or its error.
func DecodeVerdict(raw json.RawMessage) (Verdict, error) {
	var v Verdict
	if plainVerdict(raw, &v) {
		return v, nil
	}
	v = Verdict{}
	err := json.Unmarshal(raw, &v)
	return v, err
}

// verdictKeys are the JSON names of Verdict's fields.
var verdictKeys = [...]string{"id", "verdict", "severity", "split", "cluster"}

// plainVerdict is DecodeVerdict's fast path; false when raw needs
// encoding/json.
func plainVerdict(b []byte, v *Verdict) bool {
	i, err := skipSpace(b, 0)
	if err != nil || b[i] != '{' {
		return false
	}
	for i++; ; {
		if i, err = skipSpace(b, i); err != nil {
			return false
		}
		switch b[i] {
		case '}':
			return true
		case ',':
			if i, err = skipSpace(b, i+1); err != nil {
				return false
			}
		}
		k := i
		if b[i] != '"' {
			return false
		}
		if i, err = scanString(b, i); err != nil {
			return false
		}
		key := b[k+1 : i-1]
		if i, err = skipSpace(b, i); err != nil || b[i] != ':' {
			return false
		}
		if i, err = skipSpace(b, i+1); err != nil {
			return false
		}
		start := i
		n, err := scanValue(b[i:], true)
		if err != nil {
			return false
		}
		i += n
		if !plainKey(key) {
			return false
		}
		if !setVerdictField(v, key, b[start:i]) {
			return false
		}
	}
}

// setVerdictField sets v's field of JSON name key from its value val;
// false when encoding/json must: the key matches a field only
// case-blind, or the value is not a plain string, or not a valid one.
func setVerdictField(v *Verdict, key, val []byte) bool {
	field := -1
	for f, name := range verdictKeys {
		if string(key) == name {
			field = f
		} else if bytes.EqualFold(key, []byte(name)) {
			return false
		}
	}
	if field < 0 || string(val) == "null" {
		return true // not a field, or null: encoding/json leaves it
	}
	text := plainString(val)
	if text == nil {
		return false
	}
	switch field {
	case 0:
		v.ID = string(text)
	case 1:
		return v.Verdict.UnmarshalText(text) == nil
	case 2:
		return v.Severity.UnmarshalText(text) == nil
	case 3:
		v.Split = string(text)
	case 4:
		v.Cluster = string(text)
	}
	return true
}

// plainString returns the text of the JSON string s when it is plain
// ASCII without escapes; nil otherwise.
func plainString(s []byte) []byte {
	if len(s) < 2 || s[0] != '"' {
		return nil
	}
	if len(s) == 2 {
		return []byte{}
	}
	t := s[1 : len(s)-1]
	for _, c := range t {
		if c == '\\' || c >= 0x80 {
			return nil
		}
	}
	return t
}

// plainKey reports whether an object key is ASCII without escapes, so
// that it matches a field name case-blind only as bytes.EqualFold says.
func plainKey(k []byte) bool {
	for _, c := range k {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}
