package judgereply

import (
	"bytes"
	"encoding/json"
	"strings"
)

// pair is one key and value of a JSON object, in the order written.
type pair struct {
	key string
	val json.RawMessage
}

// decodePairs decodes a JSON object's top-level keys in order, repeated
// keys included (a map would keep only one, at random for the reader).
func decodePairs(b []byte) ([]pair, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []pair
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, pair{k, v})
	}
	return out, true
}

// object reads one JSON object's claims. An object that does not decode
// says nothing.
func (c *claims) object(span string) {
	c.objectAt(span, 0)
}

// maxNest is how deep objects inside objects are read.
const maxNest = 4

// objectAt reads an object nested depth objects deep. JSON that does not
// decode is read once more as a Python dict or JSON with comments would
// be (single quotes, True/False/None, // and /* */ comments), loosely.
func (c *claims) objectAt(span string, depth int) {
	pairs, ok := decodePairs(dropTrailingCommas(span))
	if !ok {
		if pairs, ok = decodePairs(dropTrailingCommas(string(relaxJSON(span)))); !ok {
			return
		}
		c.loose = true
	}
	if c.ranked(pairs) {
		return
	}
	var passKey *bool
	var sc *float64
	for _, p := range pairs {
		k := keyName(p.key)
		v := decodeScalar(p.val)
		switch k {
		case "verdict", "decision", "final_verdict", "final_decision", "judgement", "judgment":
			c.verdictMember(k, v)
		case "pass", "passed", "criteria_met", "correct", "is_correct", "meets_criteria", "meets_criterion":
			if c.passMember(v) && (k == "pass" || k == "passed") {
				b := v.b
				passKey = &b
			}
		case "result", "answer", "final_answer", "grade", "final_grade", "choice", "selection":
			c.resultMember(k, v)
		case "score", "rating", "overall_score", "final_score", "total_score", "overall_rating", "final_rating":
			if plain := c.scoreMember(k, v); plain != nil {
				sc = plain
			}
		case "category", "label", "classification", "class":
			if v.isStr {
				c.categories = append(c.categories, v.s)
			} else {
				c.categories = append(c.categories, string(p.val))
			}
		case "confidence":
			if v.isStr {
				c.labelled("confidence", v.s)
			}
		default:
			if v.isStr {
				c.field(k, v.s)
			} else if k == "steps" {
				c.reasoning = append(c.reasoning, stepsText(p.val))
			} else if depth < maxNest {
				// A verdict object wrapped in another ({"evaluation":
				// {...}}), or a ranking list ({"ordered_models": [...]}).
				c.nested(p.val, depth+1)
			}
		}
	}
	// promptfoo's shape: {"pass": true, "score": 1}. A pass that its own
	// score on [0, 1] contradicts is no verdict.
	if passKey != nil && sc != nil && *sc >= 0 && *sc <= 1 && (*passKey && *sc < 0.5 || !*passKey && *sc > 0.5) {
		c.fail("\"pass\": %v with \"score\": %v", *passKey, *sc)
	}
}

// jsonScalar is a member's value decoded as the string, number or
// boolean its text is, if it is one.
type jsonScalar struct {
	raw                  []byte
	s                    string
	f                    float64
	b                    bool
	isStr, isNum, isBool bool
}

// decodeScalar decodes a member's value text raw.
func decodeScalar(raw []byte) jsonScalar {
	v := jsonScalar{raw: raw}
	switch t := bytes.TrimSpace(raw); {
	case len(t) == 0:
	case t[0] == '"':
		var s string
		v.isStr = json.Unmarshal(t, &s) == nil
		v.s = s
	case t[0] == 't' || t[0] == 'f':
		var b bool
		v.isBool = json.Unmarshal(t, &b) == nil
		v.b = b
	case t[0] == '-' || t[0] >= '0' && t[0] <= '9':
		var f float64
		v.isNum = json.Unmarshal(t, &f) == nil
		v.f = f
	}
	return v
}

// verdictMember reads a member named for the verdict ("verdict",
// "decision", ...): a word, a boolean or 0/1.
func (c *claims) verdictMember(k string, v jsonScalar) {
	switch {
	case v.isStr:
		c.labelled(k, v.s)
	case v.isBool:
		c.verdict(boolVerdict(v.b), true)
	case v.isNum && (v.f == 0 || v.f == 1):
		c.verdict(boolVerdict(v.f == 1), true)
	default:
		c.choices = append(c.choices, string(v.raw))
		c.loose = true
	}
}

// passMember reads a member that says whether the criterion is met
// ("pass", "correct", ...), and reports whether it was a boolean.
func (c *claims) passMember(v jsonScalar) bool {
	switch {
	case v.isBool:
		c.verdict(boolVerdict(v.b), true)
		return true
	case v.isStr:
		c.labelled("final answer", v.s)
	case v.isNum && (v.f == 0 || v.f == 1):
		c.verdict(boolVerdict(v.f == 1), true)
	default:
		c.choices = append(c.choices, string(v.raw))
	}
	return false
}

// resultMember reads a member that holds the answer ("result", "grade",
// "choice", ...): a verdict, a score or a label.
func (c *claims) resultMember(k string, v jsonScalar) {
	switch {
	case v.isBool:
		c.verdict(boolVerdict(v.b), true)
	case v.isNum:
		c.scores = append(c.scores, score{v: v.f})
		c.loose = c.loose || k != "result"
	case v.isStr:
		if _, ok := verdictWords[strings.ToLower(choiceOf(v.s))]; ok || k != "result" {
			c.labelled("final answer", v.s)
		} else if sc, ok := parseScore(v.s); ok {
			c.scores = append(c.scores, sc)
		} else if ch := choiceOf(v.s); ch != "" {
			// OpenAI's graders answer {"result": "<label>"}.
			c.choices = append(c.choices, ch)
		}
	}
}

// scoreMember reads a member named for the score ("score", "rating",
// "final_score", ...), and returns the score when it is a plain number
// (no scale, not a percentage).
func (c *claims) scoreMember(k string, v jsonScalar) *float64 {
	var got score
	switch {
	case v.isNum:
		got = score{v: v.f}
	case v.isStr:
		var ok bool
		if got, ok = parseScore(v.s); !ok {
			c.choices = append(c.choices, v.s)
			return nil
		}
		c.loose = true
	default:
		return nil
	}
	if k != "score" {
		c.loose = true
	}
	if strings.HasPrefix(k, "final") || strings.HasPrefix(k, "overall") {
		c.finalScores = append(c.finalScores, got)
	} else {
		c.scores = append(c.scores, got)
	}
	if got.of == 0 && !got.pct {
		return &got.v
	}
	return nil
}

func boolVerdict(b bool) string {
	if b {
		return Pass
	}
	return Fail
}

// stepsText joins OpenAI's score_model steps ([{description, conclusion}]
// or strings).
func stepsText(raw json.RawMessage) string {
	var steps []json.RawMessage
	if json.Unmarshal(raw, &steps) != nil {
		return ""
	}
	parts := make([]string, 0, len(steps))
	for _, st := range steps {
		var s string
		var o struct{ Description, Conclusion string }
		switch {
		case json.Unmarshal(st, &s) == nil:
			parts = append(parts, s)
		case json.Unmarshal(st, &o) == nil:
			parts = append(parts, strings.TrimSpace(o.Description+" "+o.Conclusion))
		}
	}
	return strings.Join(parts, " | ")
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

// keyName is a JSON key as the reader compares it: trimmed, lower case,
// spaces and hyphens as underscores.
func keyName(k string) string {
	b := []byte(strings.TrimSpace(k))
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == ' ' || c == '-':
			b[i] = '_'
		}
	}
	return string(b)
}

// nested reads the objects of a value: an object, or a list of objects.
func (c *claims) nested(v json.RawMessage, depth int) {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) > 0 && v[0] == '{':
		c.objectAt(string(v), depth)
	case len(v) > 0 && v[0] == '[':
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return
		}
		for _, it := range items {
			if it = bytes.TrimSpace(it); len(it) > 0 && it[0] == '{' {
				c.objectAt(string(it), depth)
			}
		}
	}
}

// ranked reads one entry of a ranking, {"model": NAME, "rank": N}, and
// reports whether pairs was one.
func (c *claims) ranked(pairs []pair) bool {
	if len(pairs) != 2 {
		return false
	}
	var name string
	var rank float64
	var okName, okRank bool
	for _, p := range pairs {
		switch keyName(p.key) {
		case "model", "name", "answer", "response":
			okName = json.Unmarshal(p.val, &name) == nil
		case "rank":
			okRank = json.Unmarshal(p.val, &rank) == nil
		}
	}
	if !okName || !okRank {
		return false
	}
	c.ranks = append(c.ranks, Ranked{Name: name, Rank: rank})
	c.loose = true
	return true
}

// relaxJSON rewrites what a Python dict or JSON with comments writes
// differently from JSON: single-quoted strings, True, False and None,
// and // or /* */ comments outside strings. The result may still not
// decode.
func relaxJSON(s string) []byte {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '"' || ch == '\'':
			j := quotedEnd(s, i)
			b = appendQuoted(b, s[i+1:j], ch)
			i = j
		case ch == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i--
		case ch == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b
			}
			i += end + 3
		case isWordStart(s, i, "True"):
			b, i = append(b, "true"...), i+3
		case isWordStart(s, i, "False"):
			b, i = append(b, "false"...), i+4
		case isWordStart(s, i, "None"):
			b, i = append(b, "null"...), i+3
		default:
			b = append(b, ch)
		}
	}
	return b
}

// quotedEnd returns the index of the quote closing the string that opens
// at s[i], or len(s)-1.
func quotedEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return len(s) - 1
}

// appendQuoted appends body, a string's content quoted by q, as a JSON
// string.
func appendQuoted(b []byte, body string, q byte) []byte {
	b = append(b, '"')
	for i := 0; i < len(body); i++ {
		switch ch := body[i]; {
		case ch == '\\' && i+1 < len(body) && body[i+1] == '\'':
			b = append(b, '\'')
			i++
		case ch == '\\' && i+1 < len(body):
			b = append(b, ch, body[i+1])
			i++
		case ch == '"' && q == '\'':
			b = append(b, '\\', '"')
		case ch == '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, ch)
		}
	}
	return append(b, '"')
}

// isWordStart reports whether the word w starts at s[i] and stands alone.
func isWordStart(s string, i int, w string) bool {
	if !strings.HasPrefix(s[i:], w) {
		return false
	}
	letter := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return (i == 0 || !letter(s[i-1])) && (i+len(w) == len(s) || !letter(s[i+len(w)]))
}
