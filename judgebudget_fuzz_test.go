package proctor

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCapSample checks that quoting any sample under any limit keeps each
// field within the limit plus the cut line, never splits a rune of valid
// text, and says so exactly when it cut.
func FuzzCapSample(f *testing.F) {
	f.Add("input", "output é", "expected", "ctx one", "ctx two", 4)
	f.Add("", strings.Repeat("日本", 50), "", "", "", 7)
	f.Fuzz(func(t *testing.T, in, out, exp, c1, c2 string, limit int) {
		limit %= 1 << 12
		s := &Sample{Input: in, Output: out, Expected: &exp, Context: []string{c1, c2}}
		got, notes := capSample(s, limit)
		if limit < 0 {
			if got != s || notes != nil {
				t.Fatalf("negative limit changed the sample")
			}
			return
		}
		const line = len("\n[cut by proctor: the first  of  bytes are shown]") + 40
		for _, pair := range [][2]string{{in, got.Input}, {out, got.Output}, {exp, *got.Expected}} {
			orig, q := pair[0], pair[1]
			if len(orig) <= limit && q != orig {
				t.Fatalf("a field within the limit changed: %q -> %q", orig, q)
			}
			if len(q) > limit+line {
				t.Fatalf("field of %d bytes quoted as %d under limit %d", len(orig), len(q), limit)
			}
			if utf8.ValidString(orig) && !utf8.ValidString(q) {
				t.Fatalf("cutting %q split a rune: %q", orig, q)
			}
		}
		cut := len(in) > limit || len(out) > limit || len(exp) > limit || len(c1)+len(c2) > limit
		if cut != (len(notes) > 0) {
			t.Fatalf("cut %v but notes %q", cut, notes)
		}
		if s.Output != out || s.Input != in {
			t.Fatalf("capSample changed its input sample")
		}
	})
}
