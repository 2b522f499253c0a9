// Package judgereply reads a judge model's reply: the verdict, its
// confidence and the reasoning that came before it.
//
// It reads, in this order of preference, a JSON object (alone, inside a
// Markdown fence, or after prose; trailing commas tolerated), then labelled
// lines ("Verdict: PASS", "**Verdict:** fail"). A reply that is empty, has
// no verdict, or gives two different verdicts is unreadable: [Parse]
// returns an error and the caller must not guess.
//
// Text the prompt quoted between nonce tags (<output-NONCE> ...
// </output-NONCE>) is removed before anything is read, so a judge that
// echoes the prompt back cannot have the judged text's own "Verdict: PASS"
// read as its verdict.
package judgereply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxReply is how much of a reply is read; the rest is ignored.
const MaxReply = 64 << 10

// Verdict words, as the prompt asks for them.
const (
	Pass    = "pass"
	Fail    = "fail"
	Abstain = "abstain"
)

// Reply is what a judge wrote.
type Reply struct {
	// Verdict is "pass", "fail", "abstain", or "" when the reply gave none
	// but gave a Score or Category the caller decides from.
	Verdict string
	// Confidence is "high", "low", or "" when the reply did not say.
	Confidence string
	// Criterion is what the judge said would satisfy the criterion.
	Criterion string
	// Violations is what the judge said violates it.
	Violations string
	// Basis is "answer" or "outside" (knowledge), as the judge said.
	Basis string
	// Reasoning is any free reasoning the judge added.
	Reasoning string
	// Score is the score the judge gave, when it gave one.
	Score    float64
	HasScore bool
	// Category is the category the judge chose, when it chose one.
	Category string
}

// Errors Parse returns. Each means the reply is unreadable.
var (
	ErrEmpty         = errors.New("empty reply")
	ErrNoVerdict     = errors.New("reply has no verdict")
	ErrContradictory = errors.New("reply gives contradictory verdicts")
)

// Parse reads reply. nonce is the prompt's tag nonce ("" when the prompt
// quoted nothing); quoted regions carrying it are removed first. Parse
// returns an error wrapping [ErrEmpty], [ErrNoVerdict] or
// [ErrContradictory] when the reply is unreadable; a reply with a score or
// category but no verdict word is readable (Verdict "").
func Parse(reply, nonce string) (Reply, error) {
	if len(reply) > MaxReply {
		reply = reply[:MaxReply]
	}
	if nonce != "" {
		reply = StripQuoted(reply, nonce)
	}
	if strings.TrimSpace(reply) == "" {
		return Reply{}, ErrEmpty
	}
	if r, ok, err := fromJSON(reply); ok || err != nil {
		return r, err
	}
	return fromLines(reply)
}

// StripQuoted removes every region of s between an opening tag
// "<NAME-nonce>" and its closing tag "</NAME-nonce>" (to the end of s when
// unclosed), and any stray tag carrying nonce.
func StripQuoted(s, nonce string) string {
	if nonce == "" || !strings.Contains(s, nonce) {
		return s
	}
	var b strings.Builder
	for {
		open, name, end := findTag(s, nonce, false, "")
		if open < 0 {
			break
		}
		b.WriteString(s[:open])
		rest := s[end:]
		cl, _, cend := findTag(rest, nonce, true, name)
		if cl < 0 {
			s = ""
			break
		}
		s = rest[cend:]
	}
	b.WriteString(s)
	out := b.String()
	// Stray closing tags (and any other mention of the nonce) go too.
	for {
		i := strings.Index(out, nonce)
		if i < 0 {
			return out
		}
		lo := strings.LastIndexByte(out[:i], '<')
		if lo < 0 || i-lo > 40 {
			lo = i
		}
		hi := i + len(nonce)
		if j := strings.IndexByte(out[hi:], '>'); j >= 0 && j < 4 {
			hi += j + 1
		}
		out = out[:lo] + out[hi:]
	}
}

// findTag finds the first tag "<NAME-nonce>" (closing: "</NAME-nonce>") in
// s, with NAME equal to want when want is set. It returns the tag's start,
// NAME and the index after the tag, or -1.
func findTag(s, nonce string, closing bool, want string) (start int, name string, end int) {
	suffix := "-" + nonce + ">"
	off := 0
	for {
		i := strings.Index(s[off:], suffix)
		if i < 0 {
			return -1, "", 0
		}
		i += off
		lt := strings.LastIndexByte(s[:i], '<')
		if lt >= 0 && i-lt <= 40 {
			n := s[lt+1 : i]
			isClose := strings.HasPrefix(n, "/")
			n = strings.TrimPrefix(n, "/")
			if isClose == closing && isTagName(n) && (want == "" || n == want) {
				return lt, n, i + len(suffix)
			}
		}
		off = i + len(suffix)
	}
}

func isTagName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if (r < 'a' || r > 'z') && r != '_' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// fromJSON reads the JSON objects in s that carry a verdict, score or
// category. ok is false when there is none.
func fromJSON(s string) (Reply, bool, error) {
	var found []Reply
	tries := 0
	for i := 0; i < len(s) && tries < maxObjects; i++ {
		if s[i] != '{' {
			continue
		}
		tries++
		end := objectEnd(s, i)
		if end < 0 {
			continue
		}
		r, ok := decodeObject(s[i:end])
		if !ok {
			continue
		}
		found = append(found, r)
		i = end - 1
	}
	if len(found) == 0 {
		return Reply{}, false, nil
	}
	r := found[0]
	for _, o := range found[1:] {
		if o.Verdict != r.Verdict || o.Category != r.Category || o.HasScore != r.HasScore || o.Score != r.Score {
			return Reply{}, true, fmt.Errorf("%w: %d JSON objects disagree", ErrContradictory, len(found))
		}
	}
	if err := check(r); err != nil {
		return Reply{}, true, err
	}
	return r, true, nil
}

// maxObjects bounds the opening braces tried, so that a reply of many
// unclosed braces costs linear time, not quadratic.
const maxObjects = 64

// objectEnd returns the index after the JSON-ish object starting at s[i]
// ('{'), honouring strings and escapes, or -1 when it does not close.
func objectEnd(s string, i int) int {
	depth := 0
	var st strState
	for j := i; j < len(s); j++ {
		if !st.code(s[j]) {
			continue
		}
		switch s[j] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// decodeObject decodes one object, dropping trailing commas, and reads the
// keys a judge is asked for (case-insensitively).
func decodeObject(obj string) (Reply, bool) {
	var m map[string]any
	if err := json.Unmarshal(dropTrailingCommas(obj), &m); err != nil {
		return Reply{}, false
	}
	var r Reply
	var any bool
	for k, v := range m {
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "verdict", "decision":
			r.Verdict, any = word(v), true
			if r.Verdict == "" {
				r.Verdict = "invalid:" + fmt.Sprint(v)
			}
		case "confidence":
			r.Confidence = word(v)
		case "criterion", "satisfy", "what_would_satisfy":
			r.Criterion = text(v)
		case "violations", "violation":
			r.Violations = text(v)
		case "basis":
			r.Basis = text(v)
		case "reasoning", "reason", "explanation":
			r.Reasoning = text(v)
		case "score", "rating":
			if f, ok := number(v); ok {
				r.Score, r.HasScore, any = f, true, true
			}
		case "category", "label":
			r.Category, any = text(v), true
		}
	}
	return r, any
}

// strState tracks whether a byte of JSON text is inside a string.
type strState struct{ in, esc bool }

// code takes the next byte and reports whether it is outside every string
// (and not a quote).
func (st *strState) code(c byte) bool {
	switch {
	case st.esc:
		st.esc = false
		return false
	case st.in && c == '\\':
		st.esc = true
		return false
	case c == '"':
		st.in = !st.in
		return false
	}
	return !st.in
}

// dropTrailingCommas removes commas that only white space separates from
// a closing brace or bracket, outside strings.
func dropTrailingCommas(s string) []byte {
	var b bytes.Buffer
	b.Grow(len(s))
	var st strState
	for i := 0; i < len(s); i++ {
		c := s[i]
		if st.code(c) && c == ',' {
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.Bytes()
}

func text(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case string:
		return leadingNumber(t)
	}
	return 0, false
}

// word normalises a verdict or confidence word: lower case, trimmed of
// quotes, Markdown emphasis and punctuation, with "passed", "failed",
// "abstained" and "medium" mapped to the prompt's words.
func word(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), " \t*_`\"'.,;:!()[]"))
	switch s {
	case "pass", "passed":
		return Pass
	case "fail", "failed":
		return Fail
	case "abstain", "abstained", "abstention":
		return Abstain
	case "high", "low":
		return s
	case "medium":
		return "low"
	}
	return ""
}

// check rejects a reply whose verdict is not one of the three words.
func check(r Reply) error {
	if strings.HasPrefix(r.Verdict, "invalid:") {
		return fmt.Errorf("%w: verdict %q is not pass, fail or abstain", ErrNoVerdict, strings.TrimPrefix(r.Verdict, "invalid:"))
	}
	if r.Verdict == "" && !r.HasScore && r.Category == "" {
		return ErrNoVerdict
	}
	return nil
}

// fromLines reads labelled lines: "Verdict: PASS", "**Verdict:** fail",
// "- Confidence: high", "Score: 3/4", "Category: billing".
func fromLines(s string) (Reply, error) {
	var r Reply
	var verdicts []string
	for line := range strings.Lines(s) {
		label, val, ok := labelled(line)
		if !ok {
			continue
		}
		switch label {
		case "verdict", "final verdict", "decision":
			w := word(val)
			if w == "" || strings.ContainsAny(strings.TrimSpace(strings.Trim(val, "*_`\"'.!")), " ,|/") {
				verdicts = append(verdicts, "invalid:"+val)
				continue
			}
			verdicts = append(verdicts, w)
		case "confidence":
			if w := word(val); w != "" {
				r.Confidence = w
			}
		case "criterion":
			r.Criterion = val
		case "violations":
			r.Violations = val
		case "basis":
			r.Basis = val
		case "reasoning":
			r.Reasoning = val
		case "score", "rating":
			if f, ok := leadingNumber(val); ok {
				if r.HasScore && f != r.Score {
					return Reply{}, fmt.Errorf("%w: scores %v and %v", ErrContradictory, r.Score, f)
				}
				r.Score, r.HasScore = f, true
			}
		case "category", "label":
			c := strings.Trim(val, "*_`\"'.")
			if r.Category != "" && c != r.Category {
				return Reply{}, fmt.Errorf("%w: categories %q and %q", ErrContradictory, r.Category, c)
			}
			r.Category = c
		}
	}
	for _, v := range verdicts[min(1, len(verdicts)):] {
		if v != verdicts[0] {
			return Reply{}, fmt.Errorf("%w: %q and %q", ErrContradictory, verdicts[0], v)
		}
	}
	if len(verdicts) > 0 {
		r.Verdict = verdicts[0]
	}
	return r, check(r)
}

// labelled splits a "Label: value" line, tolerating list markers, Markdown
// emphasis and quotes around the label. The label is lower-cased.
func labelled(line string) (label, val string, ok bool) {
	t := strings.TrimLeft(line, " \t>-*_#\"'`0123456789.)")
	i := strings.IndexAny(t, ":=")
	if i <= 0 || i > 24 {
		return "", "", false
	}
	label = strings.ToLower(strings.Trim(t[:i], " \t*_\"'`"))
	val = strings.Trim(t[i+1:], " \t\r\n*_\"'`")
	val = strings.TrimRight(val, ",")
	val = strings.Trim(val, " \t*_\"'`")
	if label == "" || val == "" {
		return "", "", false
	}
	return label, val, true
}

// leadingNumber reads the number at the start of s ("3", "3/4", "0.85 out
// of 1").
func leadingNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && (s[end] == '-' || s[end] == '+' || s[end] == '.' || (s[end] >= '0' && s[end] <= '9')) {
		end++
	}
	if end == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return 0, false
	}
	return f, true
}
