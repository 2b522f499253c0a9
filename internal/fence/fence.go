// Package fence finds the JSON (or code) a model wrapped in Markdown fences
// and prose.
package fence

import (
	"strings"
)

// JSON returns the JSON text in s: the body of the first ```json (or bare
// ```) fence when there is one, otherwise s from its first '{' or '[' on,
// trimmed of surrounding white space. Text after the closing fence, or
// after the JSON value when there is no fence, is left for the parser to
// reject or the caller to trim with [TrimTrailing].
func JSON(s string) string {
	if body, ok := Body(s, "json"); ok {
		return strings.TrimSpace(body)
	}
	t := strings.TrimSpace(s)
	if t == "" || t[0] == '{' || t[0] == '[' {
		return t
	}
	if i := strings.IndexAny(t, "{["); i >= 0 {
		return strings.TrimSpace(t[i:])
	}
	return t
}

// Body returns the body of the first fenced block in s whose info string is
// lang (case-insensitive) or empty, and whether there was one. An unclosed
// fence runs to the end of s.
func Body(s, lang string) (string, bool) {
	rest := s
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			return "", false
		}
		after := rest[i+3:]
		nl := strings.IndexByte(after, '\n')
		if nl < 0 {
			return "", false
		}
		info := strings.TrimSpace(after[:nl])
		body := after[nl+1:]
		end := strings.Index(body, "```")
		if info == "" || strings.EqualFold(info, lang) {
			if end < 0 {
				return body, true
			}
			return body[:end], true
		}
		if end < 0 {
			return "", false
		}
		rest = body[end+3:]
	}
}
