package termsafe

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text, ünïcode ✓", "plain text, ünïcode ✓"},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"\x1b]52;c;ZXZpbA==\x1b\\", `\x1b]52;c;ZXZpbA==\x1b\`},
		{"a\u009b31mb", `a\u009b31mb`},
		{"x\u202eevil\u202c", `x\u202eevil\u202c`},
		{"\u2066iso\u2069\u200f", `\u2066iso\u2069\u200f`},
		{"line\nnext\tcol\r", `line\nnext\tcol\r`},
		{"del\x7f", `del\x7f`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"kept \uFFFD replacement", "kept \uFFFD replacement"},
	}
	for _, c := range cases {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Message("a\nb\tc\x1b"); got != "a\nb\tc\\x1b" {
		t.Errorf("Message kept the wrong characters: %q", got)
	}
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := Writer{W: &buf}
	n, err := w.Write([]byte("err: \x1b[2J\n"))
	if err != nil || n != 10 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if buf.String() != "err: \\x1b[2J\n" {
		t.Errorf("wrote %q", buf.String())
	}
	if Raw(w) != &buf || Raw(&buf) != &buf {
		t.Error("Raw did not unwrap")
	}
}

// FuzzString checks that nothing String returns can drive a terminal.
func FuzzString(f *testing.F) {
	for _, s := range []string{"\x1b]0;t\x07", "\u202e", "\xc2\x9b", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{String(s), Message(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if r != '\n' && r != '\t' && unsafe(r, true) {
					t.Fatalf("%q left %U in %q", s, r, out)
				}
			}
		}
		if String(s) != s && firstUnsafe(s, false) < 0 {
			t.Fatalf("String changed safe text %q", s)
		}
	})
}
