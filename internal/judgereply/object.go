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
	pairs, ok := decodePairs(dropTrailingCommas(span))
	if !ok {
		return
	}
	var passKey *bool
	var sc *float64
	for _, p := range pairs {
		k := keyName(p.key)
		var s string
		var f float64
		var bl bool
		var isStr, isNum, isBool bool
		switch v := bytes.TrimSpace(p.val); {
		case len(v) == 0:
		case v[0] == '"':
			isStr = json.Unmarshal(v, &s) == nil
		case v[0] == 't' || v[0] == 'f':
			isBool = json.Unmarshal(v, &bl) == nil
		case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
			isNum = json.Unmarshal(v, &f) == nil
		}
		switch k {
		case "verdict", "decision", "final_verdict", "final_decision", "judgement", "judgment":
			switch {
			case isStr:
				c.labelled(k, s)
			case isBool:
				c.verdict(boolVerdict(bl), true)
			case isNum && (f == 0 || f == 1):
				c.verdict(boolVerdict(f == 1), true)
			default:
				c.choices = append(c.choices, string(p.val))
				c.loose = true
			}
		case "pass", "passed", "criteria_met", "correct", "is_correct", "meets_criteria", "meets_criterion":
			switch {
			case isBool:
				c.verdict(boolVerdict(bl), true)
				if k == "pass" || k == "passed" {
					passKey = &bl
				}
			case isStr:
				c.labelled("final answer", s)
			case isNum && (f == 0 || f == 1):
				c.verdict(boolVerdict(f == 1), true)
			default:
				c.choices = append(c.choices, string(p.val))
			}
		case "result", "answer", "final_answer", "grade", "final_grade", "choice", "selection":
			switch {
			case isBool:
				c.verdict(boolVerdict(bl), true)
			case isNum:
				c.scores = append(c.scores, score{v: f})
				c.loose = c.loose || k != "result"
			case isStr:
				if _, ok := verdictWords[strings.ToLower(choiceOf(s))]; ok || k != "result" {
					c.labelled("final answer", s)
				} else if sc, ok := parseScore(s); ok {
					c.scores = append(c.scores, sc)
				} else if ch := choiceOf(s); ch != "" {
					// OpenAI's graders answer {"result": "<label>"}.
					c.choices = append(c.choices, ch)
				}
			}
		case "score", "rating", "overall_score", "final_score", "total_score", "overall_rating", "final_rating":
			var got score
			switch {
			case isNum:
				got = score{v: f}
			case isStr:
				var ok bool
				if got, ok = parseScore(s); !ok {
					c.choices = append(c.choices, s)
					continue
				}
				c.loose = true
			default:
				continue
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
				sc = &got.v
			}
		case "category", "label", "classification", "class":
			if isStr {
				c.categories = append(c.categories, s)
			} else {
				c.categories = append(c.categories, string(p.val))
			}
		case "confidence":
			if isStr {
				c.labelled("confidence", s)
			}
		default:
			if isStr {
				c.field(k, s)
			} else if k == "steps" {
				c.reasoning = append(c.reasoning, stepsText(p.val))
			}
		}
	}
	// promptfoo's shape: {"pass": true, "score": 1}. A pass that its own
	// score on [0, 1] contradicts is no verdict.
	if passKey != nil && sc != nil && *sc >= 0 && *sc <= 1 && (*passKey && *sc < 0.5 || !*passKey && *sc > 0.5) {
		c.fail("\"pass\": %v with \"score\": %v", *passKey, *sc)
	}
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
