package fastschema

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// ReadText reports (ok) whether text is one JSON value (surrounding white
// space allowed) that encoding/json accepts and that is valid against the
// schema, reading the text once: its syntax is checked as it is read and
// nothing is decoded or allocated. ok is true only when both are certain.
// notJSON is true when the reading met text that is not JSON, so that the
// text is certainly not one JSON value (a parser would refuse it). Both
// false mean invalid or not decided here: parse the text and ask
// [Schema.Explain]. The reading leaves to the decoded path what it cannot
// read without decoding: strings with escapes or invalid UTF-8 where their
// value matters, "not", "oneOf", "if", "format", const and enum members
// other than strings, numbers, booleans and null, and minProperties (a
// repeated member name would count twice).
func (s *Schema) ReadText(text string) (ok, notJSON bool) {
	i := skipWS(text, 0)
	if len(text) >= maxNesting {
		// The members skipped unread are checked on their own, each
		// within the nesting limit; a text this long could exceed it in
		// sum, so it is checked whole first.
		if n := jsonparse.ValidPrefix(text[i:]); n < 0 || skipWS(text, i+n) != len(text) {
			return false, true
		}
	}
	r, end := s.root.text(text, i)
	switch {
	case r == broken:
		return false, true
	case r != valid:
		return false, false
	case skipWS(text, end) != len(text):
		return false, true
	}
	return true, false
}

// maxNesting is encoding/json's nesting limit: a text shorter than it
// cannot nest deeper.
const maxNesting = 10000

// at returns s[i], or 0 (which no JSON text holds outside a string) past
// the end.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index after the JSON value at i, or -1 when no
// valid value starts there.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	n := jsonparse.ValidPrefix(s[i:])
	if n < 0 {
		return -1
	}
	return i + n
}

// strEnd returns the index after the string at i (which holds '"'), or -1
// when it is not a valid JSON string, and whether its content has an
// escape.
func strEnd(s string, i int) (end int, escaped bool) {
	return jsonparse.StringEnd(s, i)
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
// the text alone cannot tell, or where it is not JSON) and, when valid,
// the index after the value.
func (n *node) text(s string, i int) (result, int) {
	c := at(s, i)
	// end is where the value ends: found at once for scalars, by the
	// container walks below, or by skip when no walk happens.
	end := -1
	var str string
	var strOK bool
	switch c {
	case '{', '[':
	case '"':
		var esc bool
		if end, esc = strEnd(s, i); end < 0 {
			return broken, 0
		}
		str, strOK = plainString(s[i+1:end-1], esc)
	default:
		if end = skipValue(s, i); end < 0 {
			return broken, 0
		}
	}
	if n.boolean != 0 {
		return n.skip(verdict(n.boolean > 0), s, i, end)
	}
	if n.not != nil || len(n.oneOf) > 0 || n.ifN != nil || n.format != nil || n.minProps > 0 {
		return unknown, 0
	}
	// type, const, enum on the scalar's text.
	if n.types != 0 && !n.textType(s, i, end) {
		return invalid, 0
	}
	if n.constV != nil || n.enum != nil {
		if end < 0 {
			if end = skipValue(s, i); end < 0 {
				return broken, 0
			}
		}
		if r := n.constEnumText(s[i:end], str, strOK); r != valid {
			return r, 0
		}
	}
	if n.ref != nil {
		r, e := n.ref.text(s, i)
		if r != valid {
			return r, 0
		}
		if end = e; n.refOnly {
			return valid, end
		}
	}
	var r result
	switch {
	case c == '{' && n.hasObject:
		if r, end = n.objectText(s, i); r != valid {
			return r, 0
		}
	case c == '[' && n.hasArray:
		if r, end = n.arrayText(s, i); r != valid {
			return r, 0
		}
	case c == '"' && n.hasString:
		if !strOK {
			return unknown, 0
		}
		if r = n.str(str); r != valid {
			return r, 0
		}
	case (c == '-' || c >= '0' && c <= '9') && n.hasNumber:
		if r = n.number(json.Number(s[i:end])); r != valid {
			return r, 0
		}
	}
	if len(n.allOf) > 0 || len(n.anyOf) > 0 {
		if r, end = n.combinedText(s, i, end); r != valid {
			return r, 0
		}
	}
	return n.skip(valid, s, i, end)
}

// constEnumText checks const and enum on a scalar's text (a string's
// content in str when strOK).
func (n *node) constEnumText(text, str string, strOK bool) result {
	if n.constV != nil {
		if r := scalarEquals(text, str, strOK, *n.constV); r != valid {
			return r
		}
	}
	if n.enum != nil {
		some := invalid // or unknown once a member cannot be compared
		for _, e := range n.enum {
			r := scalarEquals(text, str, strOK, e)
			if r == valid {
				some = valid
				break
			}
			some = max(some, r)
		}
		return some
	}
	return valid
}

// combinedText checks allOf and anyOf on the value at i, whose end is
// end when known (not -1); when valid, it returns the end the branches
// found.
func (n *node) combinedText(s string, i, end int) (result, int) {
	for _, a := range n.allOf {
		r, e := a.text(s, i)
		if r != valid {
			return r, 0
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
			return some, 0
		}
	}
	return valid, end
}

// skip returns r and the end of the value at i: end when known (not -1),
// else found by reading the value; a value that is not JSON is broken.
func (n *node) skip(r result, s string, i, end int) (result, int) {
	if end < 0 {
		if end = skipValue(s, i); end < 0 {
			return broken, 0
		}
	}
	return r, end
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
	if i = skipWS(s, i+1); at(s, i) == '}' {
		return verdict(len(n.required) == 0), i + 1
	}
	for {
		if at(s, i) != '"' {
			return broken, 0
		}
		kEnd, esc := strEnd(s, i)
		if kEnd < 0 {
			return broken, 0
		}
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
		if i = skipWS(s, kEnd); at(s, i) != ':' {
			return broken, 0
		}
		i = skipWS(s, i+1)
		evaluated := false
		end := -1
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
		if end < 0 {
			if end = skipValue(s, i); end < 0 {
				return broken, 0
			}
		}
		next, done, sepOK := separator(s, end, '}')
		if !sepOK {
			return broken, 0
		}
		if i = next; done {
			break
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
	if i = skipWS(s, i+1); at(s, i) != ']' {
		for {
			p := n.rest
			if count < len(n.prefix) {
				p = n.prefix[count]
			}
			count++
			end := -1
			if p != nil {
				var r result
				if r, end = p.text(s, i); r != valid {
					return r, 0
				}
			} else if end = skipValue(s, i); end < 0 {
				return broken, 0
			}
			next, done, ok := separator(s, end, ']')
			if !ok {
				return broken, 0
			}
			if i = next; done {
				break
			}
		}
	}
	return verdict((n.minItems < 0 || count >= n.minItems) && (n.maxItems < 0 || count <= n.maxItems)), i + 1
}

// separator reads what follows a member or an item ending at end: the
// closing byte (done, i at it), or a comma and the white space after it
// (i at the next member or item); ok is false for anything else.
func separator(s string, end int, closing byte) (i int, done, ok bool) {
	i = skipWS(s, end)
	switch at(s, i) {
	case closing:
		return i, true, true
	case ',':
		return skipWS(s, i+1), false, true
	}
	return 0, false, false
}
