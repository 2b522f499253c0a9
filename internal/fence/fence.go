// Package fence finds the JSON (or code) a model wrapped in Markdown fences
// and prose.
//
// Every function returns a substring of its input (or the empty string),
// never a modified copy, so callers can map positions back and nothing is
// allocated.
package fence

import (
	"strings"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// maxCandidates bounds how many '{' or '[' positions [JSON] tries in prose
// before giving up, so that a long text full of brackets costs linear time.
const maxCandidates = 16

// JSON returns the JSON text in s:
//
//   - when s, trimmed, starts with '{' and ends with '}' (or '[' and ']'),
//     s trimmed, left to the parser to accept or reject whole;
//   - when s, trimmed, starts with '{' or '[' but ends otherwise, the value
//     that starts there (text after its closing bracket is dropped);
//   - otherwise the body of the first ```json (or bare ```) fence, trimmed;
//   - otherwise the first bracketed span in the prose that is valid JSON,
//     or failing that the first bracketed span, so that the parser reports
//     what is wrong with it;
//   - otherwise s trimmed.
//
// An unclosed bracket runs to the end of s. The result is always a
// substring of s.
func JSON(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return t
	}
	if t[0] == '{' || t[0] == '[' {
		if last := t[len(t)-1]; last == t[0]+2 {
			// The common case: the whole output is one value ('{'+2 is
			// '}', '['+2 is ']'). The parser decides whether it is valid.
			return t
		}
		return t[:Span(t)]
	}
	if body, ok := Body(s, "json"); ok {
		return strings.TrimSpace(body)
	}
	first := ""
	rest := t
	for range maxCandidates {
		i := strings.IndexAny(rest, "{[")
		if i < 0 {
			break
		}
		rest = rest[i:]
		if n := jsonparse.ValidPrefix(rest); n > 0 {
			return rest[:n]
		}
		if first == "" {
			first = rest[:Span(rest)]
		}
		rest = rest[1:]
	}
	if first != "" {
		return first
	}
	return t
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
	rest := s
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			return "", false
		}
		after := strings.TrimLeft(rest[i+3:], "`")
		nl := strings.IndexByte(after, '\n')
		if nl < 0 {
			return "", false
		}
		info := strings.TrimSpace(after[:nl])
		body := after[nl+1:]
		end, next := closing(body)
		if info == "" || strings.EqualFold(info, lang) {
			if end < 0 {
				return body, true
			}
			return body[:end], true
		}
		if end < 0 {
			return "", false
		}
		rest = body[next:]
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
