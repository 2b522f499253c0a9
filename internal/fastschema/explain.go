package fastschema

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Explanation is the fast path's account of a decoded value: whether it
// is valid and, when it is not, the violations the validator would
// report.
type Explanation struct {
	// Valid is the verdict.
	Valid bool
	// Leaves counts the leaf errors of the validator's error tree for the
	// value (the violations its message lists); 0 when Valid.
	Leaves int
	// First is the first of those leaves: its instance location and error
	// kind, built with the validator's own kind types, so its Error method
	// prints what the validator would print for it. Where the validator
	// visits object members in Go map order (so its first leaf varies
	// between runs), members are taken in name order here; the names an
	// "additionalProperties": false leaf lists are in name order too. The
	// leaf's SchemaURL is not set. Nil when Valid.
	First *jsonschema.ValidationError
}

// Explain validates v, a decoded JSON value, and describes its violations
// as the validator would: the same verdict, the same number of leaf
// errors, and a first leaf that is one of the validator's leaves. decided
// is false when the fast path cannot tell exactly (a number it cannot
// compare, a value of a type JSON does not produce): ask the validator.
// On a valid value it allocates at most the instance location it walks.
func (s *Schema) Explain(v any) (e Explanation, decided bool) {
	var x explainer
	n, ok := x.explain(s.root, v, true)
	if !ok || n > 0 && x.first == nil {
		return Explanation{}, false
	}
	return Explanation{Valid: n == 0, Leaves: n, First: x.first}, true
}

// explainer walks a value in the validator's keyword order, counting leaf
// errors and recording the first.
type explainer struct {
	loc   []string
	first *jsonschema.ValidationError
	steps int // values visited, for tests that the walk stays linear
}

// wants reports whether a leaf met now is the first one.
func (x *explainer) wants(want bool) bool { return want && x.first == nil }

func (x *explainer) pop() { x.loc = x.loc[:len(x.loc)-1] }

func (x *explainer) set(k jsonschema.ErrorKind) {
	x.first = &jsonschema.ValidationError{InstanceLocation: slices.Clone(x.loc), ErrorKind: k}
}

// explain returns the number of leaf errors of v against n (0: valid) and
// false when it cannot tell. With want set, the first leaf met is
// recorded (unless one already was).
func (x *explainer) explain(n *node, v any, want bool) (int, bool) {
	x.steps++
	if n.boolean != 0 {
		if n.boolean > 0 {
			return 0, true
		}
		if x.wants(want) {
			x.set(&kind.FalseSchema{})
		}
		return 1, true
	}
	// type, const, enum and format end the check at their first failure.
	if c, ok, stop := x.firstFailure(n, v, want); stop {
		return c, ok
	}
	count := 0
	if n.ref != nil {
		c, ok := x.explain(n.ref, v, want)
		if !ok || n.refOnly {
			return c, ok
		}
		count += c
	}
	var c int
	ok := true
	switch t := v.(type) {
	case map[string]any:
		if n.hasObject {
			c, ok = x.object(n, t, want)
		}
	case []any:
		if n.hasArray {
			c, ok = x.array(n, t, want)
		}
	case string:
		if n.hasString {
			c = x.str(n, t, want)
		}
	case json.Number:
		if n.hasNumber {
			c, ok = x.number(n, t, want)
		}
	case nil, bool:
	default:
		return 0, false
	}
	if !ok {
		return 0, false
	}
	count += c
	c, ok = x.cond(n, v, want)
	return count + c, ok
}

// firstFailure checks type, const, enum and format, and stops (stop
// true) at the first that fails, with its one leaf, or that cannot tell
// (ok false).
func (x *explainer) firstFailure(n *node, v any, want bool) (count int, ok, stop bool) {
	if n.types != 0 {
		switch n.typeCheck(v) {
		case unknown:
			return 0, false, true
		case invalid:
			if x.wants(want) {
				x.set(&kind.Type{Got: typeName(v), Want: n.typeNames})
			}
			return 1, true, true
		}
	}
	if n.constV != nil {
		switch equals(v, *n.constV) {
		case unknown:
			return 0, false, true
		case invalid:
			if x.wants(want) {
				x.set(&kind.Const{Got: v, Want: *n.constV})
			}
			return 1, true, true
		}
	}
	if n.enum != nil {
		switch n.enumCheck(v) {
		case unknown:
			return 0, false, true
		case invalid:
			if x.wants(want) {
				x.set(&kind.Enum{Got: v, Want: n.enum})
			}
			return 1, true, true
		}
	}
	if n.format != nil {
		if err := n.format(v); err != nil {
			if x.wants(want) {
				x.set(&kind.Format{Got: v, Want: n.fmtName, Err: err})
			}
			return 1, true, true
		}
	}
	return 0, true, false
}

// typeName is the validator's name for the JSON type of v.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

// missing returns how many of names has does not hold and, with list
// set, which.
func missing(names []string, has func(string) bool, list bool) (int, []string) {
	count := 0
	var out []string
	for _, k := range names {
		if !has(k) {
			count++
			if list {
				out = append(out, k)
			}
		}
	}
	return count, out
}

// objectLeaves counts, and records when wanted, the leaves of the object
// keywords the validator checks before the members: minProperties and
// maxProperties for an object of size members, and required, for an
// object that has the member names has reports.
func (x *explainer) objectLeaves(n *node, size int, has func(string) bool, want bool) int {
	count := 0
	if n.minProps >= 0 && size < n.minProps {
		count++
		if x.wants(want) {
			x.set(&kind.MinProperties{Got: size, Want: n.minProps})
		}
	}
	if n.maxProps >= 0 && size > n.maxProps {
		count++
		if x.wants(want) {
			x.set(&kind.MaxProperties{Got: size, Want: n.maxProps})
		}
	}
	if m, names := missing(n.required, has, x.wants(want)); m > 0 {
		count++
		if x.wants(want) {
			x.set(&kind.Required{Missing: names})
		}
	}
	return count
}

// itemLeaves counts, and records when wanted, the leaves of minItems and
// maxItems for an array of size items.
func (x *explainer) itemLeaves(n *node, size int, want bool) int {
	count := 0
	if n.minItems >= 0 && size < n.minItems {
		count++
		if x.wants(want) {
			x.set(&kind.MinItems{Got: size, Want: n.minItems})
		}
	}
	if n.maxItems >= 0 && size > n.maxItems {
		count++
		if x.wants(want) {
			x.set(&kind.MaxItems{Got: size, Want: n.maxItems})
		}
	}
	return count
}

func (x *explainer) object(n *node, obj map[string]any, want bool) (int, bool) {
	has := func(k string) bool { _, ok := obj[k]; return ok }
	count := x.objectLeaves(n, len(obj), has, want)
	if n.props != nil || n.patterns != nil || n.addl != nil {
		c, ok := x.members(n, obj, want)
		if !ok {
			return 0, false
		}
		count += c
	}
	for _, d := range n.depReq {
		if _, ok := obj[d.prop]; !ok {
			continue
		}
		if m, names := missing(d.reqd, has, x.wants(want)); m > 0 {
			count++
			if x.wants(want) {
				x.set(&kind.DependentRequired{Prop: d.prop, Missing: names})
			}
		}
	}
	return count, true
}

// members checks each member against properties, patternProperties and
// additionalProperties. The first leaf, when wanted, is taken from the
// failing member whose name sorts first: each member is walked once,
// recording its own first leaf, and the one of the name that sorts first
// is kept (walking the chosen member again would cost the depth of the
// value times its size).
func (x *explainer) members(n *node, obj map[string]any, want bool) (int, bool) {
	count, extra := 0, 0
	var extraNames []string
	record := x.wants(want)
	var best *jsonschema.ValidationError // the leaf kept, of the member bestKey
	bestKey := ""
	for k, val := range obj {
		c, isExtra, ok := x.member(n, k, val, record)
		if !ok {
			return 0, false
		}
		if record {
			if best, bestKey, ok = x.keep(c, best, bestKey, k); !ok {
				return 0, false
			}
			if isExtra {
				extraNames = append(extraNames, k)
			}
		}
		if isExtra {
			extra++
		}
		count += c
	}
	return count + x.membersEnd(best, extra, extraNames, want), true
}

// membersEnd ends a walk of an object's members: it records the member
// leaf kept (unless the object's own leaves came first) and counts, and
// records when wanted, the one leaf of the extra members
// "additionalProperties": false refuses.
func (x *explainer) membersEnd(best *jsonschema.ValidationError, extra int, extraNames []string, want bool) int {
	if best != nil && x.first == nil {
		x.first = best
	}
	if extra == 0 {
		return 0
	}
	if x.wants(want) {
		slices.Sort(extraNames)
		x.set(&kind.AdditionalProperties{Properties: extraNames})
	}
	return 1
}

// keep takes the leaf a member walk just recorded off x.first (so the
// next member's walk can record its own) and returns the leaf to keep:
// the new one when the member failed (count > 0) and its name sorts
// before bestKey's. ok is false when a failing member recorded no leaf.
func (x *explainer) keep(count int, best *jsonschema.ValidationError, bestKey, key string) (*jsonschema.ValidationError, string, bool) {
	leaf := x.first
	x.first = nil
	switch {
	case count == 0:
		return best, bestKey, true
	case leaf == nil:
		return nil, "", false
	case best == nil || key < bestKey:
		return leaf, key, true
	}
	return best, bestKey, true
}

// member returns the leaf errors of one member's value, and whether it is
// a member "additionalProperties": false refuses (counted by the caller
// in one leaf).
func (x *explainer) member(n *node, k string, val any, want bool) (count int, extra, ok bool) {
	evaluated := false
	if x.wants(want) { // the location matters only for a leaf recorded below
		x.loc = append(x.loc, k)
		defer x.pop()
	}
	if p, found := n.props[k]; found {
		evaluated = true
		c, ok := x.explain(p, val, want)
		if !ok {
			return 0, false, false
		}
		count += c
	}
	for _, p := range n.patterns {
		if p.re.MatchString(k) {
			evaluated = true
			c, ok := x.explain(p.n, val, want)
			if !ok {
				return 0, false, false
			}
			count += c
		}
	}
	switch {
	case evaluated || n.addl == nil:
	case n.addl == falseNode:
		return count, true, true
	default:
		c, ok := x.explain(n.addl, val, want)
		return c, false, ok
	}
	return count, false, true
}

func (x *explainer) array(n *node, arr []any, want bool) (int, bool) {
	count := x.itemLeaves(n, len(arr), want)
	for i, item := range arr {
		p := n.rest
		if i < len(n.prefix) {
			p = n.prefix[i]
		}
		if p == nil {
			break
		}
		if p == falseNode { // "additionalItems": false counts the items in one leaf
			count++
			if x.wants(want) {
				x.set(&kind.AdditionalItems{Count: len(arr) - i})
			}
			break
		}
		pushed := x.wants(want) // the location matters only for a leaf recorded below
		if pushed {
			x.loc = append(x.loc, strconv.Itoa(i))
		}
		c, ok := x.explain(p, item, want)
		if pushed {
			x.pop()
		}
		if !ok {
			return 0, false
		}
		count += c
	}
	return count, true
}

func (x *explainer) str(n *node, s string, want bool) int {
	count := 0
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLen >= 0 && l < n.minLen {
			count++
			if x.wants(want) {
				x.set(&kind.MinLength{Got: l, Want: n.minLen})
			}
		}
		if n.maxLen >= 0 && l > n.maxLen {
			count++
			if x.wants(want) {
				x.set(&kind.MaxLength{Got: l, Want: n.maxLen})
			}
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		count++
		if x.wants(want) {
			x.set(&kind.Pattern{Got: s, Want: n.pattern.String()})
		}
	}
	return count
}

// number checks the numeric keywords, each on its own as the validator
// does. The value's exact form is built only for a leaf's message.
func (x *explainer) number(n *node, num json.Number, want bool) (int, bool) {
	count := 0
	for i, b := range [...]*bound{n.min, n.max, n.exMin, n.exMax} {
		if b == nil {
			continue
		}
		c, known := compare(num, b)
		if !known {
			return 0, false
		}
		if fail := [...]bool{c < 0, c > 0, c <= 0, c >= 0}[i]; !fail {
			continue
		}
		count++
		if x.wants(want) {
			got, ok := new(big.Rat).SetString(string(num))
			if !ok {
				return 0, false
			}
			var k jsonschema.ErrorKind
			switch i {
			case 0:
				k = &kind.Minimum{Got: got, Want: b.r}
			case 1:
				k = &kind.Maximum{Got: got, Want: b.r}
			case 2:
				k = &kind.ExclusiveMinimum{Got: got, Want: b.r}
			default:
				k = &kind.ExclusiveMaximum{Got: got, Want: b.r}
			}
			x.set(k)
		}
	}
	if n.multiple != nil {
		switch r, got := n.multipleOfRat(num); r {
		case unknown:
			return 0, false
		case invalid:
			count++
			if x.wants(want) {
				if got == nil {
					var ok bool
					if got, ok = new(big.Rat).SetString(string(num)); !ok {
						return 0, false
					}
				}
				x.set(&kind.MultipleOf{Got: got, Want: n.multiple})
			}
		}
	}
	return count, true
}

// cond checks not, allOf, anyOf, oneOf and if/then/else, in that order.
// A combinator's leaves are those of its failing subschemas.
func (x *explainer) cond(n *node, v any, want bool) (int, bool) {
	count := 0
	if n.not != nil {
		switch n.not.check(v) {
		case unknown:
			return 0, false
		case valid:
			count++
			if x.wants(want) {
				x.set(&kind.Not{})
			}
		}
	}
	for _, a := range n.allOf {
		c, ok := x.explain(a, v, want)
		if !ok {
			return 0, false
		}
		count += c
	}
	if len(n.anyOf) > 0 {
		c, ok := x.anyOf(n, v, want)
		if !ok {
			return 0, false
		}
		count += c
	}
	if len(n.oneOf) > 0 {
		c, ok := x.oneOf(n, v, want)
		if !ok {
			return 0, false
		}
		count += c
	}
	if n.ifN != nil {
		var then *node
		switch n.ifN.check(v) {
		case unknown:
			return 0, false
		case valid:
			then = n.thenN
		default:
			then = n.elseN
		}
		if then != nil {
			c, ok := x.explain(then, v, want)
			if !ok {
				return 0, false
			}
			count += c
		}
	}
	return count, true
}

// anyOf is the leaves of anyOf: none when a branch holds, else those of
// every branch.
func (x *explainer) anyOf(n *node, v any, want bool) (int, bool) {
	some := invalid // or unknown once a branch cannot tell
	for _, a := range n.anyOf {
		r := a.check(v)
		if r == valid {
			some = valid
			break
		}
		some = max(some, r)
	}
	switch some {
	case unknown:
		return 0, false
	case invalid:
		return x.all(n.anyOf, v, want)
	}
	return 0, true
}

// oneOf is the leaves of oneOf: those of every branch when none holds,
// one when two do.
func (x *explainer) oneOf(n *node, v any, want bool) (int, bool) {
	var matched []int
	for i, a := range n.oneOf {
		r := a.check(v)
		if r == unknown {
			return 0, false
		}
		if r == valid {
			if matched = append(matched, i); len(matched) == 2 {
				break
			}
		}
	}
	switch len(matched) {
	case 0:
		return x.all(n.oneOf, v, want)
	case 2:
		if x.wants(want) {
			x.set(&kind.OneOf{Subschemas: matched})
		}
		return 1, true
	}
	return 0, true
}

// all sums the leaves of subschemas that all failed; a subschema that
// the check found invalid but that has no leaf here is not decided.
func (x *explainer) all(ns []*node, v any, want bool) (int, bool) {
	count := 0
	for _, a := range ns {
		c, ok := x.explain(a, v, want)
		if !ok || c == 0 {
			return 0, false
		}
		count += c
	}
	return count, true
}
