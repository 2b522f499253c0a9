// Package nesting measures how deeply a text nests its brackets, in one
// pass and without parsing it, so that a parser or compiler whose work
// grows faster than its input with depth can be refused input nested past
// a limit before it runs.
package nesting

import "strings"

// Depth returns the deepest nesting of the opening bytes in open (each
// closed by the byte at the same index in close) in text, skipping what
// lies inside the quote bytes in quotes, where a backslash escapes the next
// byte. It stops early, returning limit+1, once the nesting passes limit;
// a limit below 0 means none. Unbalanced brackets are not an error: a
// parser reports them; Depth only bounds what that parser will be given.
func Depth(text []byte, open, close, quotes string, limit int) int {
	depth, deepest := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case strings.IndexByte(quotes, c) >= 0:
			for i++; i < len(text) && text[i] != c; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case strings.IndexByte(open, c) >= 0:
			depth++
			if depth > deepest {
				deepest = depth
				if limit >= 0 && deepest > limit {
					return limit + 1
				}
			}
		case strings.IndexByte(close, c) >= 0:
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// JSON is [Depth] for JSON text: objects and arrays, strings in double
// quotes.
func JSON(text []byte, limit int) int { return Depth(text, "{[", "}]", `"`, limit) }
