// Package fence finds the JSON (or code) a model wrapped in Markdown fences
// and prose.
//
// Every function returns substrings of its input (or the empty string),
// never modified copies, so callers can map positions back and nothing is
// allocated.
package fence

import (
	"iter"
	"strings"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// maxCandidates bounds how many '{' or '[' positions in prose that do not
// start a valid value [Candidates] tries, and how many fences it reads, so
// that a long text full of brackets or fences costs linear time (each
// candidate costs at most one pass over the text).
const maxCandidates = 16

// Candidates yields the texts in s that may be the JSON a model meant, in
// the order a reader should try them:
//
//  1. s trimmed, whole (an output that parses whole is the value, even a
//     JSON string whose text holds a brace);
//  2. when s, trimmed, starts with '{' or '[' and that value closes before
//     the end, the bracketed value alone (prose after it dropped);
//  3. the body of each ```json (or bare ```) fence, trimmed, in order;
//  4. each bracketed span in the prose, in order: where a valid JSON value
//     starts at a '{' or '[', that value (and the scan resumes after it);
//     where none does, the span up to the matching bracket.
//
// When s, trimmed, starts with '{' or '[', steps 3 and 4 read only what
// follows the bracketed value it starts with (to the end of s when that
// value never closes). A piece of that value is never a candidate: when
// the value is broken, as in `[{"a": 1}` or `{a: {"b": 1}}`, the model
// did not mean the well-formed value nested in it, and when it parses, it
// is the value.
//
// Callers parse each candidate in turn and take the first that parses, so
// that a broken block followed by a corrected one reads as the corrected
// one; a caller may also go on past a candidate that parses, to try every
// JSON value in s. Empty candidates are not yielded.
func Candidates(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		t := strings.TrimSpace(s)
		if t == "" || !yield(t) {
			return
		}
		rest := t
		if n := Span(t); n > 0 {
			if n < len(t) && !yield(t[:n]) {
				return
			}
			rest = t[n:]
		}
		for body := range bodies(rest, "json") {
			if b := strings.TrimSpace(body); b != "" && !yield(b) {
				return
			}
		}
		prose(rest, yield)
	}
}

// prose yields each bracketed span in rest, as step 4 of [Candidates]
// describes, until yield returns false or maxCandidates spans have started
// no valid value.
func prose(rest string, yield func(string) bool) {
	for misses := 0; misses < maxCandidates; {
		i := strings.IndexAny(rest, "{[")
		if i < 0 {
			return
		}
		rest = rest[i:]
		if n := jsonparse.ValidPrefix(rest); n > 0 {
			if !yield(rest[:n]) {
				return
			}
			rest = rest[n:]
			continue
		}
		misses++
		if !yield(rest[:Span(rest)]) {
			return
		}
		rest = rest[1:]
	}
}

// Fallback returns the candidate to report a syntax error in when no
// candidate of s parses: s trimmed when it starts with '{' and ends with '}'
// (or '[' and ']'); the bracketed value that starts s when it starts with
// one but ends otherwise; otherwise the first fence body; otherwise the
// first bracketed span in the prose; otherwise s trimmed.
func Fallback(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return t
	}
	if t[0] == '{' || t[0] == '[' {
		if t[len(t)-1] == t[0]+2 { // '{'+2 is '}', '['+2 is ']'
			return t
		}
		return t[:Span(t)]
	}
	if body, ok := Body(t, "json"); ok {
		return strings.TrimSpace(body)
	}
	if i := strings.IndexAny(t, "{["); i >= 0 {
		return t[i : i+Span(t[i:])]
	}
	return t
}

// JSON returns the JSON text in s: the first of [Candidates] that is one
// valid JSON value (RFC 8259), or, when none is, [Fallback], so that a
// parser reports what is wrong with it. The result is always a substring
// of s.
func JSON(s string) string {
	var p jsonparse.Parser
	for c := range Candidates(s) {
		if p.Valid(c) {
			return c
		}
	}
	return Fallback(s)
}

// Span returns the length of the bracketed value at the start of s: the
// index just past the bracket that closes s[0], skipping brackets inside
// JSON strings. It returns len(s) when the value never closes, and 0 when s
// does not start with '{' or '['. Mismatched bracket kinds are counted
// alike; the parser rejects them.
func Span(s string) int {
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return 0
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			// Skip the string, honouring backslash escapes.
			for i++; i < len(s); i++ {
				if s[i] == '\\' {
					i++
					continue
				}
				if s[i] == '"' {
					break
				}
			}
		}
	}
	return len(s)
}

// Body returns the body of the first fenced block in s whose info string is
// lang (case-insensitive) or empty, and whether there was one. The closing
// fence is a line that starts with ```; an unclosed fence runs to the end
// of s.
func Body(s, lang string) (string, bool) {
	for b := range bodies(s, lang) {
		return b, true
	}
	return "", false
}

// bodies yields the body of each fenced block in s whose info string is
// lang (case-insensitive) or empty, in order, up to maxCandidates fences of
// any language.
func bodies(s, lang string) iter.Seq[string] {
	return func(yield func(string) bool) {
		rest := s
		for range maxCandidates {
			i := strings.Index(rest, "```")
			if i < 0 {
				return
			}
			after := strings.TrimLeft(rest[i+3:], "`")
			nl := strings.IndexByte(after, '\n')
			if nl < 0 {
				return
			}
			info := strings.TrimSpace(after[:nl])
			body := after[nl+1:]
			end, next := closing(body)
			if end < 0 {
				if info == "" || strings.EqualFold(info, lang) {
					yield(body)
				}
				return
			}
			if (info == "" || strings.EqualFold(info, lang)) && !yield(body[:end]) {
				return
			}
			rest = body[next:]
		}
	}
}

// closing finds the fence that closes body: a line that starts with ```
// after optional spaces or tabs. It returns where that line starts and
// where the backticks end, or -1, -1 when there is none.
func closing(body string) (start, after int) {
	for off := 0; off < len(body); {
		j := strings.Index(body[off:], "```")
		if j < 0 {
			return -1, -1
		}
		at := off + j
		// Walk back over the indentation to the start of the line.
		ls := at
		for ls > 0 && (body[ls-1] == ' ' || body[ls-1] == '\t') {
			ls--
		}
		if ls == 0 || body[ls-1] == '\n' {
			return ls, at + 3
		}
		off = at + 3
	}
	return -1, -1
}
