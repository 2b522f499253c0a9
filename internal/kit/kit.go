// Package kit holds the small helpers that the root package and the family
// packages (agent, disclosure, code, ...) share, so that each is written
// once: shortening text for a reason, plural endings, and JSON
// normalisation.
package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ClipRunes returns s cut after n runes, with "…" when it was cut. It stops
// at the cut, so a huge s is not converted whole.
func ClipRunes(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return string([]rune(s[:i])) + "…"
		}
		count++
	}
	return s
}

// CutBytes returns s cut to at most n bytes at the start of a rune, so no
// character is split, and whether it was cut. n below 0 is 0.
func CutBytes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// Plural returns "s" unless n is 1, for "%d call%s".
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// NormJSON round-trips v through JSON so that numbers are float64 and
// structs are maps, as values decoded from JSON are.
func NormJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// MarshalPlain is json.Marshal without HTML escaping: "<", ">" and "&"
// stay as they are, so reports read as the text they quote.
func MarshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Stringify writes v as compact JSON as JavaScript's JSON.stringify does
// for decoded JSON values (no HTML escaping), or with %v when v does not
// encode.
func Stringify(v any) string {
	b, err := MarshalPlain(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// FormatScore formats a score for a reason, with four decimals.
func FormatScore(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) }

// ScoreReason is the reason of a score graded against a threshold:
// "METRIC 0.5000 >= threshold 0.4000", with "(best of N references)" when
// more than one reference was scored.
func ScoreReason(metric string, score, threshold float64, refs int) string {
	cmp := ">="
	if score < threshold {
		cmp = "<"
	}
	reason := metric + " " + FormatScore(score) + " " + cmp + " threshold " + FormatScore(threshold)
	if refs > 1 {
		reason += fmt.Sprintf(" (best of %d references)", refs)
	}
	return reason
}

// Deref returns *p, or def when p is nil.
func Deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// EqualFoldRune reports whether a and b are in the same simple case
// folding orbit.
func EqualFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		l := a | 0x20
		return l == b|0x20 && 'a' <= l && l <= 'z'
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// Quote quotes s for a reason, shortened to 80 runes with "…". It reads no
// further than the cut, so a long output costs no more than a short one.
func Quote(s string) string { return string(AppendQuote(nil, s)) }

// AppendQuote appends Quote(s) to b.
func AppendQuote(b []byte, s string) []byte {
	const n = 80
	cut, runes := len(s), 0
	for i := range s {
		if runes == n {
			cut = i
			break
		}
		runes++
	}
	b = strconv.AppendQuote(b, s[:cut])
	if cut < len(s) {
		b = append(b, "…"...)
	}
	return b
}

// JSONKind names the JSON type of r for messages ("an object", "a
// string", "nothing").
func JSONKind(r json.RawMessage) string {
	r = bytes.TrimSpace(r)
	if len(r) == 0 {
		return "nothing"
	}
	switch r[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// Num formats f as briefly as it reads exactly (0.5, 3, 1e-09).
func Num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// DocValueTemplate is said in the spec reference of options that hold a
// value to compare with: a string value is a template rendered per sample.
const DocValueTemplate = "May hold templates such as {{item.KEY}} (docs/templates.md)."
