package judgereply

import "strings"

// choiceOf trims decoration, parentheses and closing punctuation from an
// answer: "**(B)**." is "B".
func choiceOf(s string) string {
	s = strings.TrimSpace(s)
	for {
		t := strings.TrimFunc(s, isDecoration)
		t = strings.TrimRight(t, ".,;:!")
		if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')') {
			t = t[1 : len(t)-1]
		}
		t = strings.TrimSpace(t)
		if t == s {
			return s
		}
		s = t
	}
}

// NormLabel is the form labels compare in: lower case, decoration and
// closing punctuation trimmed, underscores and hyphens read as spaces,
// runs of spaces as one.
func NormLabel(s string) string {
	s = strings.ToLower(choiceOf(s))
	s = strings.NewReplacer("_", " ", "-", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// SameLabel reports whether a and b are the same label by [NormLabel].
func SameLabel(a, b string) bool { return NormLabel(a) == NormLabel(b) }

// Negated reports whether the word ending just before text[at:] turns
// what follows around ("not factual", "isn't relevant").
func Negated(text string, at int) bool {
	ws := words(text[:at])
	return len(ws) > 0 && negators[ws[len(ws)-1]]
}

// VerdictWord maps a verdict word or synonym ("PASS", "yes", "Y",
// "incorrect", "true") to "pass", "fail" or "abstain".
func VerdictWord(s string) (string, bool) {
	vw, ok := verdictWords[strings.ToLower(choiceOf(s))]
	return vw.v, ok
}

// cutExplanation cuts an answer's explanation: "C - the submission is
// right" is "C".
func cutExplanation(s string) string {
	for _, sep := range [...]string{" - ", " — ", " – ", " (", ": ", ". ", ", "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return s
}
