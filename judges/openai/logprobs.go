package openai

import (
	"math"
	"strings"
)

// tokenLogprob is one token of a reply with its log probability, as
// chat completions return it under choices[].logprobs.content.
type tokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// verdictProbability returns the probability of the token that starts
// the value of the reply's last "verdict" key (the word pass, fail or
// abstain in proctor's JSON reply), and false when the reply has no such
// key, the tokens do not spell the reply, or the log probability is not
// a number at most 0. A probability that underflows is reported as the
// smallest positive float, so that 0 keeps meaning unknown.
func verdictProbability(text string, toks []tokenLogprob) (float64, bool) {
	at := verdictValueAt(text)
	if at < 0 || !spells(text, toks) {
		return 0, false
	}
	pos := 0
	for _, t := range toks {
		if at < pos+len(t.Token) {
			if math.IsNaN(t.Logprob) || t.Logprob > 0 {
				return 0, false
			}
			return max(math.Exp(t.Logprob), math.SmallestNonzeroFloat64), true
		}
		pos += len(t.Token)
	}
	return 0, false
}

// spells reports whether the tokens, joined, are text.
func spells(text string, toks []tokenLogprob) bool {
	for _, t := range toks {
		if !strings.HasPrefix(text, t.Token) {
			return false
		}
		text = text[len(t.Token):]
	}
	return text == ""
}

// verdictValueAt is the byte offset of the first letter of the last
// `"verdict": "word"` value in text, or -1.
func verdictValueAt(text string) int {
	const key = `"verdict"`
	lower := asciiLower(text) // same byte offsets as text
	for end := len(lower); end > 0; {
		i := strings.LastIndex(lower[:end], key)
		if i < 0 {
			return -1
		}
		end = i
		j := skipSpace(lower, i+len(key))
		if j >= len(lower) || lower[j] != ':' {
			continue
		}
		j = skipSpace(lower, j+1)
		if j+1 < len(lower) && lower[j] == '"' && lower[j+1] >= 'a' && lower[j+1] <= 'z' {
			return j + 1
		}
	}
	return -1
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
		i++
	}
	return i
}

// asciiLower lowers A to Z only, keeping every byte offset.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
