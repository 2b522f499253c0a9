package fastschema

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// ExplainText is [Schema.Explain] for JSON text: it gives what Explain
// gives for the decoded text (the same verdict, leaf count and first
// leaf, members taken in name order alike) while reading the text once
// and decoding only what it cannot read in place: a string with escapes
// or invalid UTF-8 that names a member or whose value a keyword looks at
// (decoded alone, and the reading goes on), a value under a subschema
// using "not", "allOf", "anyOf", "oneOf", "if", "format" or
// "dependentRequired" (decoded and explained as a decoded value), and
// the value a const or enum leaf names.
//
// notJSON is true when the reading met text that is not JSON, so that
// the text (surrounding white space allowed) is certainly not one JSON
// value. decided is false where Explain would be undecided, for a member
// name repeated in its object (the reading stops there, so a text broken
// later is not found broken), and for texts of 10,000 bytes or more:
// decode the text and ask Explain. On a valid text it allocates nothing.
func (s *Schema) ExplainText(text string) (e Explanation, decided, notJSON bool) {
	if len(text) >= maxNesting {
		return Explanation{}, false, false
	}
	i := skipWS(text, 0)
	sc := s.scratchSpace()
	x := textExplainer{names: sc.names[:0], p: &sc.p}
	n, end, r := x.value(s.root, text, i, true)
	if cap(x.names) <= maxPooledNames {
		clear(x.names[:cap(x.names)]) // hold no text past the call
		sc.names = x.names[:0]
		s.scratch.Put(sc)
	}
	switch {
	case r == broken:
		return Explanation{}, false, true
	case r != valid:
		return Explanation{}, false, false
	case skipWS(text, end) != len(text):
		return Explanation{}, false, true
	case n > 0 && x.first == nil:
		return Explanation{}, false, false
	}
	return Explanation{Valid: n == 0, Leaves: n, First: x.first}, true, false
}

// maxPooledNames is the largest names slice kept for reuse: one grown
// by an object with thousands of members is left to the collector.
const maxPooledNames = 1024

// scratch is what one ExplainText call reuses from the last.
type scratch struct {
	names []string
	p     jsonparse.Parser
}

// scratchSpace returns scratch space from the pool.
func (s *Schema) scratchSpace() *scratch {
	if sc, ok := s.scratch.Get().(*scratch); ok {
		return sc
	}
	return &scratch{names: make([]string, 0, 32)}
}

// textExplainer is the explainer over text. Its walks return the leaf
// count, the index after the value and a result: valid when the count
// is exact, unknown when it cannot be told here, broken when the text is
// not JSON.
type textExplainer struct {
	explainer
	p     *jsonparse.Parser
	names []string // member names of the objects being walked, a stack
}

// inText reports whether n's own keywords can be checked on text; the
// others are checked on the decoded value.
func (n *node) inText() bool {
	return n.format == nil && n.not == nil && len(n.allOf) == 0 && len(n.anyOf) == 0 &&
		len(n.oneOf) == 0 && n.ifN == nil && n.depReq == nil
}

// decoded decodes the value at i and explains it as [Schema.Explain]
// does.
func (x *textExplainer) decoded(n *node, s string, i int, want bool) (int, int, result) {
	v, end, r := x.decode(s, i)
	if r != valid {
		return 0, 0, r
	}
	c, ok := x.explain(n, v, want)
	if !ok {
		return 0, 0, unknown
	}
	return c, end, valid
}

// decode decodes the value at i and returns it with the index after it.
func (x *textExplainer) decode(s string, i int) (any, int, result) {
	end := skipValue(s, i)
	if end < 0 {
		return nil, 0, broken
	}
	v, err := x.p.Parse(s[i:end])
	if err != nil {
		return nil, 0, broken
	}
	return v, end, valid
}

// textTypeName is the validator's name for the JSON type of the value
// whose first byte is c.
func textTypeName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// value explains the value at i (its first byte) against n, in the
// keyword order of [explainer.explain].
func (x *textExplainer) value(n *node, s string, i int, want bool) (int, int, result) {
	x.steps++
	if !n.inText() {
		return x.decoded(n, s, i, want)
	}
	c := at(s, i)
	end, str, ok := x.scalar(n, s, i)
	if !ok {
		return 0, 0, broken
	}
	// boolean, type, const and enum end the check at their first failure.
	var k jsonschema.ErrorKind // the leaf that ends it, when one is wanted
	ends := true
	switch {
	case n.boolean > 0:
		return x.end(0, s, i, end)
	case n.boolean < 0:
		if x.wants(want) {
			k = &kind.FalseSchema{}
		}
	case n.types != 0 && !n.textType(s, i, end):
		if x.wants(want) {
			k = &kind.Type{Got: textTypeName(c), Want: n.typeNames}
		}
	case n.constV != nil || n.enum != nil:
		if end < 0 {
			if end = skipValue(s, i); end < 0 {
				return 0, 0, broken
			}
		}
		var r result
		if k, r = x.constEnum(n, s, i, end, str, want); r == unknown {
			return x.decoded(n, s, i, want)
		}
		ends = r == invalid
	default:
		ends = false
	}
	if ends {
		if k != nil {
			x.set(k)
		}
		return x.end(1, s, i, end)
	}
	count := 0
	if n.ref != nil {
		cnt, e, r := x.value(n.ref, s, i, want)
		if r != valid || n.refOnly {
			return cnt, e, r
		}
		count, end = cnt, e
	}
	var cnt int
	switch {
	case c == '{' && n.hasObject:
		var r result
		if cnt, end, r = x.object(n, s, i, want); r != valid {
			return 0, 0, r
		}
	case c == '[' && n.hasArray:
		var r result
		if cnt, end, r = x.array(n, s, i, want); r != valid {
			return 0, 0, r
		}
	case c == '"' && n.hasString:
		cnt = x.str(n, str, want)
	case (c == '-' || c >= '0' && c <= '9') && n.hasNumber:
		var ok bool
		if cnt, ok = x.number(n, json.Number(s[i:end]), want); !ok {
			return 0, 0, unknown
		}
	}
	return x.end(count+cnt, s, i, end)
}

// scalar finds where the value at i ends when it is a scalar (-1 for an
// object or array: the walks find their end) and the content of a string
// n reads; false when the text is not JSON.
func (x *textExplainer) scalar(n *node, s string, i int) (end int, str string, ok bool) {
	switch at(s, i) {
	case '{', '[':
		return -1, "", true
	case '"':
		end, esc := strEnd(s, i)
		if end < 0 {
			return 0, "", false
		}
		str, plain := plainString(s[i+1:end-1], esc)
		if !plain && (n.hasString || n.constV != nil || n.enum != nil) {
			var err error
			if str, err = x.p.Unquote(s[i:end]); err != nil {
				return 0, "", false
			}
		}
		return end, str, true
	}
	end = skipValue(s, i)
	return end, "", end >= 0
}

// constEnum checks const and enum on the scalar s[i:end] (str the content
// of a string), with the leaf of a failure when want asks for it.
func (x *textExplainer) constEnum(n *node, s string, i, end int, str string, want bool) (jsonschema.ErrorKind, result) {
	r := valid
	if n.constV != nil {
		r = scalarEquals(s[i:end], str, true, *n.constV)
	}
	var k jsonschema.ErrorKind
	if r == valid && n.enum != nil {
		r = invalid
		for _, e := range n.enum {
			if re := scalarEquals(s[i:end], str, true, e); re != invalid {
				if r = re; re == valid {
					break
				}
			}
		}
		if r == invalid && x.wants(want) {
			v, _, _ := x.decode(s, i)
			k = &kind.Enum{Got: v, Want: n.enum}
		}
	} else if r == invalid && x.wants(want) {
		v, _, _ := x.decode(s, i)
		k = &kind.Const{Got: v, Want: *n.constV}
	}
	return k, r
}

// end returns count and the index after the value at i: end when known
// (not -1), else found by reading the value, which is broken when it is
// not JSON.
func (x *textExplainer) end(count int, s string, i, end int) (int, int, result) {
	if end < 0 {
		if end = skipValue(s, i); end < 0 {
			return 0, 0, broken
		}
	}
	return count, end, valid
}

// textType reports whether the value at i (ending at end, when known)
// has a type n allows, as [node.typeCheck] decides it.
func (n *node) textType(s string, i, end int) bool {
	var t uint8
	switch at(s, i) {
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
		return n.types&tNumber != 0 || n.types&tInteger != 0 && isInteger(json.Number(s[i:end]))
	}
	return n.types&t != 0
}

// object walks the members of the object at i once, counting their
// leaves without recording any, then records the object's leaves in the
// keyword order of [explainer.object]: minProperties, maxProperties,
// required, the failing member whose name sorts first (walked again to
// record its leaf), additionalProperties.
func (x *textExplainer) object(n *node, s string, i int, want bool) (int, int, result) {
	base := len(x.names)
	defer func() { x.names = x.names[:base] }()
	var hashes uint64 // a bit per member name hash, to find repeats cheaply
	count, extra := 0, 0
	var extraNames []string
	// Each member records its own first leaf, as in explainer.members;
	// the one kept is set after the object's own leaves.
	record := x.wants(want)
	var best *jsonschema.ValidationError
	bestKey := ""
	if i = skipWS(s, i+1); at(s, i) != '}' {
		for {
			if at(s, i) != '"' {
				return 0, 0, broken
			}
			kEnd, esc := strEnd(s, i)
			if kEnd < 0 {
				return 0, 0, broken
			}
			key, ok := plainString(s[i+1:kEnd-1], esc)
			if !ok { // escapes or invalid UTF-8: the name as decoded
				var err error
				if key, err = x.p.Unquote(s[i:kEnd]); err != nil {
					return 0, 0, broken
				}
			}
			if h := nameBit(key); hashes&h != 0 {
				for _, k := range x.names[base:] {
					if k == key {
						return 0, 0, unknown
					}
				}
			} else {
				hashes |= h
			}
			x.names = append(x.names, key)
			if i = skipWS(s, kEnd); at(s, i) != ':' {
				return 0, 0, broken
			}
			i = skipWS(s, i+1)
			c, isExtra, end, r := x.member(n, key, s, i, record)
			if r != valid {
				return 0, 0, r
			}
			if record {
				if best, bestKey, ok = x.keep(c, best, bestKey, key); !ok {
					return 0, 0, unknown
				}
				if isExtra {
					extraNames = append(extraNames, key)
				}
			}
			if isExtra {
				extra++
			}
			count += c
			next, done, sepOK := separator(s, end, '}')
			if !sepOK {
				return 0, 0, broken
			}
			if i = next; done {
				break
			}
		}
	}
	end := i + 1
	names := x.names[base:]
	total := x.objectLeaves(n, len(names), func(k string) bool { return slices.Contains(names, k) }, want)
	return total + count + x.membersEnd(best, extra, extraNames, want), end, valid
}

// nameBit is a bit for a member name, from its length and its first
// and last bytes: two names with different bits differ.
func nameBit(key string) uint64 {
	h := uint(len(key)) * 7
	if len(key) > 0 {
		h ^= uint(key[0]) ^ uint(key[len(key)-1])<<1
	}
	return 1 << (h % 64)
}

// member is [explainer.member] for the value at i: its leaves, whether
// "additionalProperties": false refuses it, and the index after it.
func (x *textExplainer) member(n *node, key, s string, i int, want bool) (count int, extra bool, end int, r result) {
	if x.wants(want) {
		// The name joins the location of a leaf recorded below only
		// then, at this depth: members that pass cost nothing, and the
		// enclosing members insert theirs before it on the way out.
		depth := len(x.loc)
		defer func() {
			if x.first != nil {
				x.first.InstanceLocation = slices.Insert(x.first.InstanceLocation, depth, key)
			}
		}()
	}
	evaluated := false
	end = -1
	if p, found := n.props[key]; found {
		evaluated = true
		var c int
		if c, end, r = x.value(p, s, i, want); r != valid {
			return 0, false, 0, r
		}
		count += c
	}
	for _, p := range n.patterns {
		if p.re.MatchString(key) {
			evaluated = true
			var c int
			if c, end, r = x.value(p.n, s, i, want); r != valid {
				return 0, false, 0, r
			}
			count += c
		}
	}
	switch {
	case evaluated || n.addl == nil:
	case n.addl == falseNode:
		extra = true
	default:
		if count, end, r = x.value(n.addl, s, i, want); r != valid {
			return 0, false, 0, r
		}
	}
	if end < 0 {
		if end = skipValue(s, i); end < 0 {
			return 0, false, 0, broken
		}
	}
	return count, extra, end, valid
}

// array walks the items of the array at i once, recording the first
// failing item's leaf aside, then records the array's leaves in the
// keyword order of [explainer.array]: minItems, maxItems, then that
// item's leaf or the one for the items "additionalItems": false refuses.
func (x *textExplainer) array(n *node, s string, i int, want bool) (int, int, result) {
	items, count := 0, 0
	record := x.wants(want)
	var first *jsonschema.ValidationError // the first failing item's leaf
	refused := -1                         // the first item "additionalItems": false refuses
	checking := true                      // until an item has no schema or a false one
	if i = skipWS(s, i+1); at(s, i) != ']' {
		for {
			var p *node
			if checking {
				if p = n.rest; items < len(n.prefix) {
					p = n.prefix[items]
				}
				switch p {
				case nil:
					checking = false
				case falseNode:
					refused, checking = items, false
				}
			}
			end := -1
			if checking {
				rec := record && first == nil
				depth := len(x.loc)
				c, e, r := x.value(p, s, i, rec)
				if r != valid {
					return 0, 0, r
				}
				if rec && c > 0 {
					if first = x.first; first == nil {
						return 0, 0, unknown
					}
					x.first = nil
					// The item's index joins the location only now, so
					// that items that pass cost no index text.
					first.InstanceLocation = slices.Insert(first.InstanceLocation, depth, strconv.Itoa(items))
				}
				count, end = count+c, e
			} else if end = skipValue(s, i); end < 0 {
				return 0, 0, broken
			}
			items++
			next, done, ok := separator(s, end, ']')
			if !ok {
				return 0, 0, broken
			}
			if i = next; done {
				break
			}
		}
	}
	end := i + 1
	total := x.itemLeaves(n, items, want) + count
	if first != nil && x.first == nil {
		x.first = first
	}
	if refused >= 0 {
		total++
		if x.wants(want) {
			x.set(&kind.AdditionalItems{Count: items - refused})
		}
	}
	return total, end, valid
}
