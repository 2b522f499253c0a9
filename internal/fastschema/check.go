package fastschema

import (
	"encoding/json"
	"unicode/utf8"
)

// Decide reports whether v is valid against the schema without counting
// violations (the check [Schema.Explain] uses for "not", the combinators
// and "if"): decided is false when the fast path cannot tell; otherwise
// ok is the verdict.
func (s *Schema) Decide(v any) (ok, decided bool) {
	r := s.root.check(v)
	return r == valid, r != unknown
}

// worse combines two verdicts of keywords that must all hold.
func worse(a, b result) result {
	if a == invalid || b == invalid {
		return invalid
	}
	if a == unknown || b == unknown {
		return unknown
	}
	return valid
}

func (n *node) check(v any) result {
	if n.boolean != 0 {
		if n.boolean > 0 {
			return valid
		}
		return invalid
	}
	r := valid
	if n.types != 0 {
		if t := n.typeCheck(v); t != valid {
			return t
		}
	}
	if n.constV != nil {
		if r = worse(r, equals(v, *n.constV)); r == invalid {
			return r
		}
	}
	if n.enum != nil {
		if r = worse(r, n.enumCheck(v)); r == invalid {
			return r
		}
	}
	if n.format != nil {
		if n.format(v) != nil {
			return invalid
		}
	}
	if n.ref != nil {
		if n.refOnly {
			return worse(r, n.ref.check(v))
		}
		if r = worse(r, n.ref.check(v)); r == invalid {
			return r
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if n.hasObject {
			r = worse(r, n.object(x))
		}
	case []any:
		if n.hasArray {
			r = worse(r, n.array(x))
		}
	case string:
		if n.hasString {
			r = worse(r, n.str(x))
		}
	case json.Number:
		if n.hasNumber {
			r = worse(r, n.number(x))
		}
	case nil, bool:
	default:
		return unknown
	}
	if r == invalid || !n.applies {
		return r
	}
	return n.applicators(v, r)
}

// applicators checks v against not, allOf, anyOf, oneOf and if/then/else,
// given r, the verdict of the node's other keywords.
func (n *node) applicators(v any, r result) result {
	if n.not != nil {
		switch n.not.check(v) {
		case valid:
			return invalid
		case unknown:
			r = unknown
		}
	}
	for _, a := range n.allOf {
		if r = worse(r, a.check(v)); r == invalid {
			return r
		}
	}
	if len(n.anyOf) > 0 {
		some := invalid
		for _, a := range n.anyOf {
			switch a.check(v) {
			case valid:
				some = valid
			case unknown:
				some = unknown
			}
			if some == valid {
				break
			}
		}
		if r = worse(r, some); r == invalid {
			return r
		}
	}
	if len(n.oneOf) > 0 {
		matched, undecided := 0, false
		for _, a := range n.oneOf {
			switch a.check(v) {
			case valid:
				matched++
			case unknown:
				undecided = true
			}
			if matched > 1 {
				return invalid
			}
		}
		switch {
		case undecided:
			r = unknown
		case matched == 0:
			return invalid
		}
	}
	if n.ifN != nil {
		switch n.ifN.check(v) {
		case valid:
			if n.thenN != nil {
				r = worse(r, n.thenN.check(v))
			}
		case invalid:
			if n.elseN != nil {
				r = worse(r, n.elseN.check(v))
			}
		default:
			r = unknown
		}
	}
	return r
}

func (n *node) typeCheck(v any) result {
	var t uint8
	switch x := v.(type) {
	case nil:
		t = tNull
	case bool:
		t = tBoolean
	case string:
		t = tString
	case []any:
		t = tArray
	case map[string]any:
		t = tObject
	case json.Number:
		if n.types&tNumber != 0 {
			return valid
		}
		if n.types&tInteger != 0 && isInteger(x) {
			return valid
		}
		return invalid
	default:
		return unknown
	}
	if n.types&t != 0 {
		return valid
	}
	return invalid
}

func (n *node) enumCheck(v any) result {
	r := invalid
	for _, e := range n.enum {
		switch equals(v, e) {
		case valid:
			return valid
		case unknown:
			r = unknown
		}
	}
	return r
}

func (n *node) object(obj map[string]any) result {
	if n.minProps >= 0 && len(obj) < n.minProps || n.maxProps >= 0 && len(obj) > n.maxProps {
		return invalid
	}
	for _, k := range n.required {
		if _, ok := obj[k]; !ok {
			return invalid
		}
	}
	for _, d := range n.depReq {
		if _, ok := obj[d.prop]; ok {
			for _, k := range d.reqd {
				if _, ok := obj[k]; !ok {
					return invalid
				}
			}
		}
	}
	if n.props == nil && n.patterns == nil && n.addl == nil {
		return valid
	}
	r := valid
	for k, val := range obj {
		evaluated := false
		if p, ok := n.props[k]; ok {
			evaluated = true
			if r = worse(r, p.check(val)); r == invalid {
				return r
			}
		}
		for _, p := range n.patterns {
			if p.re.MatchString(k) {
				evaluated = true
				if r = worse(r, p.n.check(val)); r == invalid {
					return r
				}
			}
		}
		if !evaluated && n.addl != nil {
			if r = worse(r, n.addl.check(val)); r == invalid {
				return r
			}
		}
	}
	return r
}

func (n *node) array(arr []any) result {
	if n.minItems >= 0 && len(arr) < n.minItems || n.maxItems >= 0 && len(arr) > n.maxItems {
		return invalid
	}
	r := valid
	for i, item := range arr {
		var p *node
		if i < len(n.prefix) {
			p = n.prefix[i]
		} else if p = n.rest; p == nil {
			break
		}
		if r = worse(r, p.check(item)); r == invalid {
			return r
		}
	}
	return r
}

func (n *node) str(s string) result {
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return invalid
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		return invalid
	}
	return valid
}
