// Package termsafe makes text written by a model, a judge endpoint or a
// subject safe to print on a terminal: control characters (C0, DEL, C1),
// bidirectional overrides and isolates, line and paragraph separators and
// invalid UTF-8 are shown as visible escapes (\x1b, \u202e) instead of
// reaching the terminal, so no printed reason can set a title, write the
// clipboard (OSC 52), move the cursor or reorder what is shown.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether r must not reach a terminal as it is. keepLines
// lets newline and tab through, for whole messages rather than one field.
func unsafe(r rune, keepLines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !keepLines
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// String returns s with every character unsafe for a terminal, newline
// and tab included, replaced by its escape; s itself when there is none.
// Use it for one field of a table or line.
func String(s string) string { return escape(s, false) }

// Message is [String] but keeps newlines and tabs, for a whole message
// printed as it is (an error, a subject's stderr).
func Message(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	i := firstUnsafe(s, keepLines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafe(r, keepLines):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

func firstUnsafe(s string, keepLines bool) int {
	for i, r := range s {
		if unsafe(r, keepLines) || r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return i
		}
	}
	return -1
}

// Writer passes what is written to W through [Message]. Each Write is
// escaped on its own, so write whole messages (as fmt.Fprintf does).
type Writer struct {
	W io.Writer
}

// Write escapes p and writes it to w.W. It reports len(p) on success, as
// the escaped text is what p stood for.
func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Message(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Raw returns the writer w escapes into when w is a [Writer], w otherwise:
// for output proctor writes itself that must reach the terminal as it is
// (a progress line redrawn in place).
func Raw(w io.Writer) io.Writer {
	if tw, ok := w.(Writer); ok {
		return tw.W
	}
	return w
}
