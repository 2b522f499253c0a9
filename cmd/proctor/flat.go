package main

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// decodeFlat decodes the commonest line shape, a JSON object whose values
// are all strings without \u escapes ({"id": ..., "output": ...,
// "expected": ...}), into ln, and reports whether the line had that shape.
// It does not decide anything else: on false the caller decodes the line
// another way, so it only has to be right on lines it accepts. b is
// trimmed and starts with '{'.
func decodeFlat(b []byte, ln *line, scratch *[]byte) bool {
	i := skipWS(b, 1)
	if i < len(b) && b[i] == '}' {
		return i == len(b)-1
	}
	// The keys seen, to leave a line that gives one twice to the other
	// decoders (which refuse it); a line with many keys goes there too.
	var seen [8][]byte // as written in b
	nseen := 0
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		key, next, ok := scanString(b, i, scratch)
		if !ok {
			return false
		}
		raw := b[i+1 : next-1]
		if nseen == len(seen) || bytes.IndexByte(raw, '\\') >= 0 {
			return false // many keys, or escapes: compared elsewhere
		}
		for _, k := range seen[:nseen] {
			if bytes.Equal(k, raw) {
				return false
			}
		}
		seen[nseen] = raw
		nseen++
		// Decide on the key before the value is scanned: both may use
		// scratch.
		field, ok := flatField(key)
		if !ok {
			return false
		}
		i = skipWS(b, next)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		if i >= len(b) || b[i] != '"' {
			return false // not a string: the tokenizer decides
		}
		val, next, ok := scanString(b, i, scratch)
		if !ok {
			return false
		}
		ln.setFlat(field, val)
		i = skipWS(b, next)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return i == len(b)-1
		default:
			return false
		}
	}
}

// flatField is the field a flat line's string under key goes to (fNone
// for a key the sample does not read), and false for a key whose value is
// not a string, or that folds to a known key: the other decoders take
// those lines.
func flatField(key []byte) (field int, ok bool) {
	switch string(key) {
	case "id":
		return fID, true
	case "input":
		return fInput, true
	case "output":
		return fOutput, true
	case "expected":
		return fExpected, true
	}
	if _, known := topFields[string(key)]; known || foldsToTopField(string(key)) {
		return fNone, false // a string where something else belongs, or a folded key
	}
	return fNone, true
}

// setFlat stores a flat line's string val in field.
func (ln *line) setFlat(field int, val []byte) {
	switch field {
	case fID:
		ln.sample.ID = string(val)
	case fInput:
		ln.sample.Input = string(val)
	case fOutput:
		ln.sample.Output, ln.hasOutput = string(val), true
	case fExpected:
		e := string(val)
		ln.sample.Expected = &e
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanString decodes the JSON string whose opening quote is at b[i] and
// returns its bytes, valid until the next call (they are in b, or in
// *scratch when the string had escapes), with the index after its closing
// quote. It gives up (ok false) on a \u escape, a bad escape, a control
// character, invalid UTF-8 or a missing closing quote. It reads eight
// bytes at a time to the next quote, backslash or control character, and
// unescapes as it goes.
func scanString(b []byte, i int, scratch *[]byte) (s []byte, next int, ok bool) {
	start := i + 1
	var out []byte // nil until the first escape
	var high uint64
	seg := start
	for p := start; ; {
		k := nextSpecial(b, p, &high)
		if k < 0 {
			return nil, 0, false
		}
		switch c := b[k]; c {
		case '"':
			raw := b[start:k]
			if out != nil {
				raw = append(out, b[seg:k]...)
				if cap(raw) <= maxScratch {
					*scratch = raw
				}
			}
			if high&0x8080808080808080 != 0 && !utf8.Valid(raw) {
				return nil, 0, false
			}
			return raw, k + 1, true
		case '\\':
			if k+1 >= len(b) {
				return nil, 0, false
			}
			if out == nil {
				out = (*scratch)[:0]
			}
			out = append(out, b[seg:k]...)
			e, ok := jsonparse.Unescape(b[k+1])
			if !ok {
				return nil, 0, false // \u and anything invalid
			}
			out = append(out, e)
			p, seg = k+2, k+2
		default:
			return nil, 0, false // a control character
		}
	}
}

// maxScratch is the largest unescaping buffer a decoder keeps between
// lines.
const maxScratch = 1 << 20

// nextSpecial returns the index of the first quote, backslash or byte
// below 0x20 in b at or after p, or -1, and ORs the bytes it passed into
// *high so the caller can tell whether any was above 0x7f. It tests eight
// bytes at a time: the lowest flag of each "has a byte equal to / below"
// test marks a true match (borrows only run upwards), so the lowest flag
// of their union is the first special byte.
func nextSpecial(b []byte, p int, high *uint64) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; p+8 <= len(b); p += 8 {
		x := binary.LittleEndian.Uint64(b[p:])
		q := x ^ ('"' * lo)
		s := x ^ ('\\' * lo)
		m := ((x - 0x20*lo) &^ x) | ((q - lo) &^ q) | ((s - lo) &^ s)
		if m &= hi; m != 0 {
			n := bits.TrailingZeros64(m) / 8
			*high |= x & (1<<(8*n) - 1)
			return p + n
		}
		*high |= x
	}
	for ; p < len(b); p++ {
		c := b[p]
		if c == '"' || c == '\\' || c < 0x20 {
			return p
		}
		*high |= uint64(c)
	}
	return -1
}
