package fastschema

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// ValidText reports whether text, which the caller has checked is one
// valid JSON value (surrounding white space allowed), is valid against
// the schema, reading the text directly: nothing is decoded or allocated.
// It answers true only when that is certain; false means "ask the tree
// path" ([Schema.Valid] on the decoded value, then the validator). It
// leaves to the tree path what it cannot read without decoding: strings
// with escapes or invalid UTF-8 where their value matters, "not",
// "oneOf", "if", "format", const and enum members other than strings,
// numbers, booleans and null, and minProperties (a repeated member name
// would count twice).
func (s *Schema) ValidText(text string) bool {
	ok, _ := s.DecideText(text)
	return ok
}

// DecideText is ValidText with the third state exposed: decided is true
// when the text was read to a verdict, and then ok false means the text
// breaks the schema as written, so that [Schema.Valid] on its decoded
// value cannot answer true (barring a repeated member name, whose last
// value the decoded object keeps). decided false means ask the tree path.
func (s *Schema) DecideText(text string) (ok, decided bool) {
	r, _ := s.root.text(text, skipWS(text, 0))
	return r == valid, r != unknown
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// strEnd returns the index after the closing quote of the string whose
// opening quote is at i, and whether its content has an escape.
func strEnd(s string, i int) (end int, escaped bool) {
	i++
	for {
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			return len(s), escaped
		}
		b := strings.IndexByte(s[i:i+q], '\\')
		if b < 0 {
			return i + q + 1, escaped
		}
		escaped = true
		i += b + 2
	}
}

// delim holds the bytes that end a number or literal.
var delim = [256]bool{' ': true, '\t': true, '\r': true, '\n': true, ',': true, ']': true, '}': true}

// skipValue returns the index after the value at i.
func skipValue(s string, i int) int {
	switch s[i] {
	case '"':
		e, _ := strEnd(s, i)
		return e
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i, _ = strEnd(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	j := i
	for j < len(s) && !delim[s[j]] {
		j++
	}
	return j
}

// plainString is a string's content when it reads as itself: no escapes
// and valid UTF-8.
func plainString(raw string, escaped bool) (string, bool) {
	if escaped {
		return "", false
	}
	for k := 0; k < len(raw); k++ {
		if raw[k] >= utf8.RuneSelf {
			return raw, utf8.ValidString(raw)
		}
	}
	return raw, true
}

// text validates the value at i; it returns its verdict (unknown where
// the text alone cannot tell) and, when valid, the index after the value.
func (n *node) text(s string, i int) (result, int) {
	c := s[i]
	// end is where the value ends: found at once for scalars, by the
	// container walks below, or by skipValue when no walk happens.
	end := -1
	var str string
	var strOK bool
	switch {
	case c == '"':
		var esc bool
		end, esc = strEnd(s, i)
		str, strOK = plainString(s[i+1:end-1], esc)
	case c != '{' && c != '[':
		end = skipValue(s, i)
	}
	if n.boolean != 0 {
		return verdict(n.boolean > 0), n.skip(s, i, end)
	}
	if n.not != nil || len(n.oneOf) > 0 || n.ifN != nil || n.format != nil || n.minProps > 0 {
		return unknown, end
	}
	// type, const, enum on the scalar's text.
	if n.types != 0 {
		var t uint8
		switch c {
		case '"':
			t = tString
		case '{':
			t = tObject
		case '[':
			t = tArray
		case 't', 'f':
			t = tBoolean
		case 'n':
			t = tNull
		default:
			if n.types&tNumber == 0 && (n.types&tInteger == 0 || !isInteger(json.Number(s[i:end]))) {
				return invalid, end
			}
			t = tNumber | tInteger
		}
		if n.types&t == 0 {
			return invalid, end
		}
	}
	if n.constV != nil || n.enum != nil {
		end = n.skip(s, i, end)
		if n.constV != nil {
			if r := scalarEquals(s[i:end], str, strOK, *n.constV); r != valid {
				return r, end
			}
		}
		if n.enum != nil {
			some := invalid // or unknown once a member cannot be compared
			for _, e := range n.enum {
				r := scalarEquals(s[i:end], str, strOK, e)
				if r == valid {
					some = valid
					break
				}
				some = max(some, r)
			}
			if some != valid {
				return some, end
			}
		}
	}
	if n.ref != nil {
		r, e := n.ref.text(s, i)
		if r != valid {
			return r, end
		}
		end = e
		if n.refOnly {
			return valid, end
		}
	}
	switch {
	case c == '{' && n.hasObject:
		r, e := n.objectText(s, i)
		if r != valid {
			return r, end
		}
		end = e
	case c == '[' && n.hasArray:
		r, e := n.arrayText(s, i)
		if r != valid {
			return r, end
		}
		end = e
	case c == '"' && n.hasString:
		if !strOK {
			return unknown, end
		}
		if r := n.str(str); r != valid {
			return r, end
		}
	case (c == '-' || c >= '0' && c <= '9') && n.hasNumber:
		if r := n.number(json.Number(s[i:end])); r != valid {
			return r, end
		}
	}
	for _, a := range n.allOf {
		r, e := a.text(s, i)
		if r != valid {
			return r, end
		}
		end = e
	}
	if len(n.anyOf) > 0 {
		some := invalid // or unknown once a branch cannot tell
		for _, a := range n.anyOf {
			r, e := a.text(s, i)
			if r == valid {
				some, end = valid, e
				break
			}
			some = max(some, r)
		}
		if some != valid {
			return some, end
		}
	}
	return valid, n.skip(s, i, end)
}

// skip returns end when known (not -1), else the end of the value at i.
func (n *node) skip(s string, i, end int) int {
	if end >= 0 {
		return end
	}
	return skipValue(s, i)
}

// scalarEquals compares the value text (a string's content in str when
// strOK) with want: valid when equal, invalid when not, unknown when the
// text alone cannot tell.
func scalarEquals(text, str string, strOK bool, want any) result {
	switch w := want.(type) {
	case string:
		switch {
		case text[0] != '"':
			return invalid
		case !strOK:
			return unknown
		}
		return verdict(str == w)
	case json.Number:
		if c := text[0]; c != '-' && (c < '0' || c > '9') {
			return invalid
		}
		return numEqual(json.Number(text), w)
	case bool:
		return verdict(w && text == "true" || !w && text == "false")
	case nil:
		return verdict(text == "null")
	}
	return unknown
}

// objectText validates the object at i; it returns its verdict and, when
// valid, the index after it.
func (n *node) objectText(s string, i int) (result, int) {
	var seen uint64
	if len(n.required) > 64 || n.depReq != nil {
		return unknown, 0
	}
	count := 0
	i = skipWS(s, i+1)
	for s[i] != '}' {
		kEnd, esc := strEnd(s, i)
		key, ok := plainString(s[i+1:kEnd-1], esc)
		if !ok {
			return unknown, 0
		}
		count++
		for r, k := range n.required {
			if k == key {
				seen |= 1 << r
			}
		}
		i = skipWS(s, kEnd)
		i = skipWS(s, i+1) // ':'
		evaluated := false
		end := 0
		var r result
		if p, ok := n.props[key]; ok {
			evaluated = true
			if r, end = p.text(s, i); r != valid {
				return r, 0
			}
		}
		for _, p := range n.patterns {
			if p.re.MatchString(key) {
				evaluated = true
				if r, end = p.n.text(s, i); r != valid {
					return r, 0
				}
			}
		}
		if !evaluated && n.addl != nil {
			if r, end = n.addl.text(s, i); r != valid {
				return r, 0
			}
		}
		if end == 0 {
			end = skipValue(s, i)
		}
		if i = skipWS(s, end); s[i] == ',' {
			i = skipWS(s, i+1)
		}
	}
	if n.maxProps >= 0 && count > n.maxProps {
		return invalid, 0
	}
	return verdict(seen == 1<<len(n.required)-1), i + 1
}

// arrayText validates the array at i; it returns its verdict and, when
// valid, the index after it.
func (n *node) arrayText(s string, i int) (result, int) {
	count := 0
	i = skipWS(s, i+1)
	if s[i] != ']' {
		for {
			var p *node
			if count < len(n.prefix) {
				p = n.prefix[count]
			} else {
				p = n.rest
			}
			count++
			end := 0
			if p != nil {
				var r result
				if r, end = p.text(s, i); r != valid {
					return r, 0
				}
			} else {
				end = skipValue(s, i)
			}
			i = skipWS(s, end)
			if s[i] == ']' {
				break
			}
			i = skipWS(s, i+1)
		}
	}
	return verdict((n.minItems < 0 || count >= n.minItems) && (n.maxItems < 0 || count <= n.maxItems)), i + 1
}
