package proctor

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/kit"
)

// Choice passes when the output chooses the expected letter of a
// multiple-choice question.
//
// The letter is read from the forms models write, in this order of
// precedence, the first that finds anything deciding:
//
//  1. an answer marker: "Answer: B", "The answer is **B**", "Final answer:
//     (B)", "the correct option is B", "I choose B";
//  2. a letter opening the output: "B", "(B)", "B.", "**B**", "B) text",
//     "B: text";
//  3. "Option B", "Choice B";
//  4. any standalone capital letter among the choices, as in "It is B".
//
// A capital "A" or "I" followed by a lower-case word ("A good choice is C",
// "I think B") is read as English, not as a letter, unless that word is a
// verb or conjunction that follows a letter ("A is right", "A or C"). Lower-
// case letters count only after a marker or in brackets or bold.
//
// It fails when no letter is found or when the deciding form names two
// different letters (the reason names them), and when the letter is not the
// expected one. With no expected letter, in the options or on the sample, or
// one that is not among the choices, it is not graded.
//
// A Choice is immutable and safe for concurrent use.
type Choice struct {
	name    string
	want    rune // 0: the sample's expected
	choices string
}

// ChoiceOptions configure [NewChoice]. The zero value reads the letters
// A to E and expects the sample's expected letter.
type ChoiceOptions struct {
	// Expected is the right letter; "" takes the sample's expected value.
	Expected string
	// Choices are the letters offered, in order; "" means "ABCDE". They are
	// compared without regard to case.
	Choices string
	// Name is shown in results; default "choice".
	Name string
}

var _ Grader = (*Choice)(nil)

// NewChoice returns a Choice grader. It returns an error when Choices holds
// something other than distinct letters or digits, or Expected is not one
// of them.
func NewChoice(opts ChoiceOptions) (*Choice, error) {
	choices := strings.ToUpper(opts.Choices)
	if choices == "" {
		choices = "ABCDE"
	}
	seen := map[rune]bool{}
	for _, r := range choices {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || seen[r] {
			return nil, fmt.Errorf("proctor: choice: choices %q must be distinct letters or digits", opts.Choices)
		}
		seen[r] = true
	}
	g := &Choice{name: cmp.Or(opts.Name, "choice"), choices: choices}
	if opts.Expected != "" {
		r, ok := choiceLetter(opts.Expected, choices)
		if !ok {
			return nil, fmt.Errorf("proctor: choice: expected %q is not one of the choices %s", opts.Expected, choices)
		}
		g.want = r
	}
	return g, nil
}

// choiceLetter reads an expected value: one letter, optionally in brackets
// or followed by '.' or ')'.
func choiceLetter(s, choices string) (rune, bool) {
	s = strings.Trim(strings.TrimSpace(s), "()[]*.: ")
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || n != len(s) {
		return 0, false
	}
	r = unicode.ToUpper(r)
	return r, strings.ContainsRune(choices, r)
}

// Name returns the grader's name.
func (g *Choice) Name() string { return g.name }

// Grade reads the chosen letter from s.Output and compares it.
func (g *Choice) Grade(_ context.Context, s *Sample) Grade {
	want := g.want
	if want == 0 {
		e, ok := s.ExpectedText()
		if !ok {
			return NotGraded("no expected letter: set expected on the case or the spec")
		}
		r, ok := choiceLetter(e, g.choices)
		if !ok {
			return NotGradedf("expected value %s is not one of the choices %s", kit.Quote(e), g.choices)
		}
		want = r
	}
	got, all := readChoice(s.Output, g.choices)
	switch {
	case len(all) > 1:
		return Failf("the output names several different letters: %s", joinRunes(all))
	case got == 0:
		return Failf("no answer letter (one of %s) found in the output", g.choices)
	case got != want:
		return Failf("chose %c, expected %c", got, want)
	}
	return Passf("chose %c", got)
}

func joinRunes(rs []rune) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

var choiceMarkers = sync.OnceValue(func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		// Answer markers; group 1 is what opens the letter, group 2 the letter.
		regexp.MustCompile(`(?i)(?:\b(?:(?:final|correct|right|best|my)\s+)?answers?|\bcorrect\s+(?:option|choice|letter)|\bright\s+(?:option|choice)|\bi\s*(?:would|will|'d|'ll|’d|’ll)?\s*(?:choose|pick|select|go\s+with))[*_]*\s*(?:is|would\s+be|should\s+be|=|:|-|–|—)?[*_]*\s*(?:(?:option|choice|letter)\s*)?([*_(\["'“‘\s]*)(\pL|\pN)`),
		// Option markers.
		regexp.MustCompile(`(?i)\b(?:option|choice)\s*([*_(\[\s]*)(\pL|\pN)`),
	}
})

// proseAfterLetter lists words that follow a letter used as a choice ("A is
// right", "A or C"); any other lower-case word after a capital A or I means
// the letter is English.
var proseAfterLetter = []string{"is", "was", "seems", "would", "should", "could", "must", "looks", "appears", "remains", "fits", "matches", "and", "or", "because", "since", "as", "also", "too"}

// markerWords are the words each marker regexp starts from; the regexp
// runs only on a window around each, which keeps reading 1 KB cheap.
var markerWords = [2][]string{
	{"answer", "correct", "right", "choose", "pick", "select", "go with"},
	{"option", "choice"},
}

// readChoice returns the letter the output chooses, or the different
// letters when the deciding form names several (then the first result is
// 0), or neither when none is found.
func readChoice(out, choices string) (rune, []rune) {
	m := choiceMarkers()
	// 1. Answer markers, 2. a letter opening the output, 3. option markers.
	if r, all := markerLetters(m[0], markerWords[0], out, choices); r != 0 || len(all) > 0 {
		return r, all
	}
	if r := leadingLetter(out, choices); r != 0 {
		return r, nil
	}
	if r, all := markerLetters(m[1], markerWords[1], out, choices); r != 0 || len(all) > 0 {
		return r, all
	}
	return standaloneLetters(out, choices)
}

// markerLetters collects the letters re finds after its markers, running
// re on windows around the marker words only.
func markerLetters(re *regexp.Regexp, words []string, out, choices string) (rune, []rune) {
	var found []rune
	forMarkerWindows(out, words, func(ws, we int) {
		for _, loc := range re.FindAllStringSubmatchIndex(out[ws:we], -1) {
			if r, ok := markerLetter(out, ws+loc[2], ws+loc[3], ws+loc[4], choices); ok && !slices.Contains(found, r) {
				found = append(found, r)
			}
		}
	})
	return decide(found)
}

// forMarkerWindows calls f with each window of out around a marker word
// (case-insensitive): from the start of a word up to 24 bytes before it to
// 96 bytes after it, overlapping windows merged.
func forMarkerWindows(out string, words []string, f func(start, end int)) {
	ws, we := -1, -1
	for i := 0; i < len(out); i++ {
		c := out[i] | 0x20
		hit := false
		for _, w := range words {
			if c == w[0] && len(out)-i >= len(w) && asciiEqualFold(out[i:i+len(w)], w) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		start := max(i-24, 0)
		for start > 0 && start < i && isASCIILetter(out[start-1]) {
			start++
		}
		end := min(i+96, len(out))
		for end < len(out) && !utf8.RuneStart(out[end]) {
			end++
		}
		if ws >= 0 && start <= we {
			we = max(we, end)
			continue
		}
		if ws >= 0 {
			f(ws, we)
		}
		ws, we = start, end
	}
	if ws >= 0 {
		f(ws, we)
	}
}

func isASCIILetter(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }

// asciiEqualFold reports whether s equals the lower-case ASCII word w,
// ignoring ASCII case.
func asciiEqualFold(s, w string) bool {
	for i := 0; i < len(w); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// markerLetter judges the letter at out[at:] that a marker regexp found,
// opened by out[os:oe] (brackets, bold, quotes, space).
func markerLetter(out string, os, oe, at int, choices string) (rune, bool) {
	open := out[os:oe]
	r, n := utf8.DecodeRuneInString(out[at:])
	rest := out[at+n:]
	if next, _ := utf8.DecodeRuneInString(rest); rest != "" && (unicode.IsLetter(next) || unicode.IsDigit(next)) {
		return 0, false // part of a word: "Answer: Because ..."
	}
	wrapped := strings.ContainsAny(open, "*_([\"'“‘")
	if !unicode.IsUpper(r) && !unicode.IsDigit(r) && !wrapped && !closesLetter(rest) {
		return 0, false // "the answer is a bit long"
	}
	if unicode.IsUpper(r) && !wrapped && proseWordFollows(r, rest) {
		return 0, false // "my answer: I think ..."
	}
	r = unicode.ToUpper(r)
	return r, strings.ContainsRune(choices, r)
}

// closesLetter reports whether rest, after a lower-case letter, shows it is
// a choice: the end, or ')', ']', '.', ':' or '*' then the end or a space.
func closesLetter(rest string) bool {
	if strings.TrimSpace(rest) == "" {
		return true
	}
	if strings.IndexAny(rest[:1], ")].:*,") != 0 {
		return false
	}
	rest = strings.TrimLeft(rest, ")].:*,")
	return rest == "" || rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\t' || rest[0] == '\r'
}

// proseWordFollows reports whether an "A" or "I" is followed by a lower-case
// word that makes it English rather than a letter.
func proseWordFollows(r rune, rest string) bool {
	if r != 'A' && r != 'I' {
		return false
	}
	if r == 'I' && (strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "’")) {
		return true // I'm, I'd
	}
	t := strings.TrimLeft(rest, " \t")
	if len(t) == len(rest) || t == "" {
		return false
	}
	end := strings.IndexFunc(t, func(c rune) bool { return !unicode.IsLetter(c) })
	if end < 0 {
		end = len(t)
	}
	w := t[:end]
	if w == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLower(first) && !slices.Contains(proseAfterLetter, w)
}

func decide(found []rune) (rune, []rune) {
	switch len(found) {
	case 0:
		return 0, nil
	case 1:
		return found[0], nil
	}
	return 0, found
}

// leadingLetter reads a letter that opens the output: the whole output, or
// followed by ')', ']', '.', ':' or '*' and then a space or the end.
func leadingLetter(out, choices string) rune {
	t := strings.TrimLeft(out, " \t\r\n*_#([")
	r, n := utf8.DecodeRuneInString(t)
	if n == 0 {
		return 0
	}
	up := unicode.ToUpper(r)
	if !strings.ContainsRune(choices, up) {
		return 0
	}
	rest := t[n:]
	if strings.TrimSpace(strings.Trim(rest, "*_)].:")) == "" || closesLetter(rest) {
		return up
	}
	return 0
}

// standaloneLetters collects capital letters among the choices that stand
// alone (no letter or digit either side), skipping English "A" and "I" and
// abbreviations such as "U.S.A.".
func standaloneLetters(out, choices string) (rune, []rune) {
	var found []rune
	var prev, prev2 rune
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		p1, p2 := prev, prev2
		prev2, prev = prev, r
		i += n
		if !unicode.IsUpper(r) || !strings.ContainsRune(choices, r) || isWordRune(p1) {
			continue
		}
		rest := out[i:]
		next, _ := utf8.DecodeRuneInString(rest)
		if rest != "" && isWordRune(next) {
			continue
		}
		if p1 == '.' && unicode.IsLetter(p2) {
			continue // U.S.A.
		}
		if next == '.' && len(rest) > 1 {
			if after, _ := utf8.DecodeRuneInString(rest[1:]); unicode.IsLetter(after) {
				continue // A.B.
			}
		}
		if proseWordFollows(r, rest) {
			continue
		}
		if !slices.Contains(found, r) {
			found = append(found, r)
		}
	}
	return decide(found)
}

func isWordRune(r rune) bool {
	return r != 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || unicode.Is(unicode.Mn, r))
}
