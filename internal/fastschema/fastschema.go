// Package fastschema is a fast path for JSON Schema validation: it turns a
// schema compiled by github.com/santhosh-tekuri/jsonschema/v6 into a small
// tree of checks and validates decoded JSON (map[string]any, []any,
// string, json.Number, bool, nil) against it without allocating on the
// common path.
//
// It reads the compiled schema rather than the schema's JSON, so every
// draft difference the validator resolves while compiling (which keywords
// a draft knows, "$ref" siblings ignored before 2019-09, "items" as an
// array, boolean exclusiveMinimum in draft 4, where "$ref"s point) is
// already settled, and the regular expressions and format checks are the
// validator's own objects. Each keyword is then checked with the
// validator's rules: JSON equality with numbers compared by exact value,
// lengths in code points, bounds and multipleOf in exact rational
// arithmetic (a float64 comparison decides only when it is conclusive).
//
// [Compile] refuses (ok false) a schema that uses a keyword outside the
// subset it implements; the caller then keeps the validator. For a schema
// it compiles there are three checks:
//
//   - [Schema.ReadText] reads JSON text once, checking its syntax as it
//     goes, and answers only "valid" (or "not JSON"), decoding and
//     allocating nothing: the path of a passing output.
//   - [Schema.ExplainText] reads JSON text once and, when it is invalid,
//     describes the violations as the validator would (how many leaf
//     errors, and the first as the validator's own error kind), decoding
//     only the few values it cannot read in place: the path of a failing
//     output.
//   - [Schema.Explain] does the same for a decoded value, for what the
//     text readings leave undecided.
//
// Each says when it cannot decide exactly; the caller then asks the
// validator. The package is self-contained so that it can be dropped
// without touching anything but its caller.
package fastschema

import (
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// result is a subschema's verdict, or unknown when the fast path cannot
// decide it exactly, or (reading text only) broken when the text is not
// JSON. The order matters: max of two non-valid answers is the less
// certain one, and broken wins, since no reading can pass a value whose
// text is not JSON.
type result int8

const (
	valid result = iota
	invalid
	unknown
	broken
)

// types mirrors the JSON types a "type" keyword names.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

// typeBits maps the names "type" takes to their bits.
var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "number": tNumber, "integer": tInteger,
	"string": tString, "array": tArray, "object": tObject,
}

// bound is a numeric bound: its exact value and its nearest float64.
type bound struct {
	r *big.Rat
	f float64
}

func newBound(r *big.Rat) *bound {
	if r == nil {
		return nil
	}
	f, _ := r.Float64()
	return &bound{r: r, f: f}
}

type patternNode struct {
	re jsonschema.Regexp
	n  *node
}

// node is one compiled schema.
type node struct {
	boolean   int8 // 1 true schema, -1 false schema, 0 keyword schema
	types     uint8
	typeNames []string // the validator's names of types, for reasons
	constV    *any
	enum      []any
	format    func(any) error
	fmtName   string
	ref       *node
	refOnly   bool // drafts before 2019-09: "$ref" decides, later keywords are skipped
	not       *node
	allOf     []*node
	anyOf     []*node
	oneOf     []*node
	ifN       *node
	thenN     *node
	elseN     *node
	hasObject bool
	minProps  int
	maxProps  int
	required  []string
	props     map[string]*node
	patterns  []patternNode
	addl      *node // additionalProperties as a schema (false is a false node)
	hasArray  bool
	minItems  int
	maxItems  int
	prefix    []*node
	rest      *node // items past the prefix
	hasString bool
	minLen    int
	maxLen    int
	pattern   jsonschema.Regexp
	hasNumber bool
	min, max  *bound
	exMin     *bound
	exMax     *bound
	multiple  *big.Rat
	mulInt    int64 // multipleOf when it is an integer that fits, else 0
	depReq    []depRequired
}

type depRequired struct {
	prop string
	reqd []string
}

// Schema is a compiled fast-path schema. It is immutable and safe for
// concurrent use.
type Schema struct {
	root    *node
	scratch sync.Pool // *scratch, for ExplainText
}

// Compile builds the fast path for a schema the validator compiled. ok is
// false when the schema (or a schema it references) uses a keyword the
// fast path does not implement (dynamic and recursive references,
// unevaluated*, contains, uniqueItems, propertyNames, dependencies,
// dependentSchemas, content*, extension keywords) or has a reference
// cycle that does not go through an object member or an array item: keep
// the validator for it.
func Compile(sch *jsonschema.Schema) (s *Schema, ok bool) {
	if sch == nil {
		return nil, false
	}
	c := compiler{memo: map[*jsonschema.Schema]*node{}}
	root := c.node(sch)
	if c.refused || c.inPlaceCycle(root) {
		return nil, false
	}
	return &Schema{root: root}, true
}

type compiler struct {
	memo    map[*jsonschema.Schema]*node
	refused bool
}

var falseNode = &node{boolean: -1}

func (c *compiler) nodes(ss []*jsonschema.Schema) []*node {
	if len(ss) == 0 {
		return nil
	}
	out := make([]*node, len(ss))
	for i, s := range ss {
		out[i] = c.node(s)
	}
	return out
}

// node compiles s, memoised so that references share nodes and cycles
// terminate.
func (c *compiler) node(s *jsonschema.Schema) *node {
	if s == nil {
		return nil
	}
	if n, ok := c.memo[s]; ok {
		return n
	}
	n := &node{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	c.memo[s] = n
	if s.Bool != nil {
		n.boolean = -1
		if *s.Bool {
			n.boolean = 1
		}
		return n
	}
	if s.RecursiveRef != nil || s.DynamicRef != nil || s.PropertyNames != nil ||
		len(s.Dependencies) > 0 || len(s.DependentSchemas) > 0 || s.UnevaluatedProperties != nil ||
		s.UniqueItems || s.Contains != nil || s.MinContains != nil || s.MaxContains != nil ||
		s.UnevaluatedItems != nil || s.ContentEncoding != nil || s.ContentMediaType != nil ||
		s.ContentSchema != nil || len(s.Extensions) > 0 {
		c.refused = true
		return n
	}
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			bit, ok := typeBits[t]
			if !ok {
				c.refused = true
			}
			n.types |= bit
		}
		n.typeNames = s.Types.ToStrings()
	}
	n.constV = s.Const
	if s.Enum != nil {
		n.enum = s.Enum.Values
		if n.enum == nil {
			n.enum = []any{}
		}
	}
	if s.Format != nil {
		n.format, n.fmtName = s.Format.Validate, s.Format.Name
	}
	n.ref = c.node(s.Ref)
	n.refOnly = s.Ref != nil && s.DraftVersion < 2019
	n.not = c.node(s.Not)
	n.allOf = c.nodes(s.AllOf)
	n.anyOf = c.nodes(s.AnyOf)
	n.oneOf = c.nodes(s.OneOf)
	n.ifN, n.thenN, n.elseN = c.node(s.If), c.node(s.Then), c.node(s.Else)

	// object
	setInt(&n.minProps, s.MinProperties)
	setInt(&n.maxProps, s.MaxProperties)
	n.required = s.Required
	if len(s.Properties) > 0 {
		n.props = make(map[string]*node, len(s.Properties))
		for k, p := range s.Properties {
			n.props[k] = c.node(p)
		}
	}
	for re, p := range s.PatternProperties {
		n.patterns = append(n.patterns, patternNode{re, c.node(p)})
	}
	// In the pattern's order, so that reasons do not vary between runs.
	slices.SortFunc(n.patterns, func(a, b patternNode) int { return strings.Compare(a.re.String(), b.re.String()) })
	n.addl = c.additional(s.AdditionalProperties)
	if s.DraftVersion != 4 && s.DraftVersion != 6 { // as the validator skips them
		for _, k := range slices.Sorted(maps.Keys(s.DependentRequired)) {
			n.depReq = append(n.depReq, depRequired{k, s.DependentRequired[k]})
		}
	}
	n.hasObject = n.minProps >= 0 || n.maxProps >= 0 || len(n.required) > 0 || n.props != nil ||
		n.patterns != nil || n.addl != nil || n.depReq != nil

	// array
	setInt(&n.minItems, s.MinItems)
	setInt(&n.maxItems, s.MaxItems)
	if s.DraftVersion < 2020 {
		switch items := s.Items.(type) {
		case nil:
			n.rest = c.additional(s.AdditionalItems)
		case *jsonschema.Schema:
			n.rest = c.node(items)
		case []*jsonschema.Schema:
			n.prefix = c.nodes(items)
			if n.prefix == nil {
				n.prefix = []*node{}
			}
			n.rest = c.additional(s.AdditionalItems)
		default:
			c.refused = true
		}
	} else {
		n.prefix = c.nodes(s.PrefixItems)
		n.rest = c.node(s.Items2020)
	}
	n.hasArray = n.minItems >= 0 || n.maxItems >= 0 || len(n.prefix) > 0 || n.rest != nil

	// string
	setInt(&n.minLen, s.MinLength)
	setInt(&n.maxLen, s.MaxLength)
	n.pattern = s.Pattern
	n.hasString = n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil

	// number
	n.min, n.max = newBound(s.Minimum), newBound(s.Maximum)
	n.exMin, n.exMax = newBound(s.ExclusiveMinimum), newBound(s.ExclusiveMaximum)
	if m := s.MultipleOf; m != nil {
		if m.Sign() <= 0 {
			c.refused = true
		}
		n.multiple = m
		if m.IsInt() && m.Num().IsInt64() {
			n.mulInt = m.Num().Int64()
		}
	}
	n.hasNumber = n.min != nil || n.max != nil || n.exMin != nil || n.exMax != nil || n.multiple != nil
	return n
}

// additional compiles additionalProperties or additionalItems: absent or
// true is no check (nil), false a false node, else the schema.
func (c *compiler) additional(a any) *node {
	switch a := a.(type) {
	case nil:
		return nil
	case bool:
		if a {
			return nil
		}
		return falseNode
	case *jsonschema.Schema:
		return c.node(a)
	}
	c.refused = true
	return nil
}

func setInt(dst *int, p *int) {
	if p != nil {
		*dst = *p
	}
}

// inPlaceCycle reports a cycle through "$ref", "not", the combinators and
// if/then/else: the validator reports such a cycle as an error when it
// reaches it, the fast path would not terminate.
func (c *compiler) inPlaceCycle(root *node) bool {
	const (
		white = iota
		grey
		black
	)
	color := map[*node]int{}
	var visit func(n *node) bool
	visit = func(n *node) bool {
		if n == nil {
			return false
		}
		switch color[n] {
		case grey:
			return true
		case black:
			return false
		}
		color[n] = grey
		for _, t := range n.inPlace() {
			if visit(t) {
				return true
			}
		}
		color[n] = black
		return false
	}
	for _, n := range c.memo {
		if visit(n) {
			return true
		}
	}
	return visit(root)
}

func (n *node) inPlace() []*node {
	out := []*node{n.ref, n.not, n.ifN, n.thenN, n.elseN}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	return append(out, n.oneOf...)
}

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
	if r == invalid {
		return r
	}
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

func (n *node) number(x json.Number) result {
	r := valid
	check := func(b *bound, ok func(c int) bool) {
		if b == nil || r == invalid {
			return
		}
		c, known := compare(x, b)
		switch {
		case !known:
			r = unknown
		case !ok(c):
			r = invalid
		}
	}
	check(n.min, func(c int) bool { return c >= 0 })
	check(n.max, func(c int) bool { return c <= 0 })
	check(n.exMin, func(c int) bool { return c > 0 })
	check(n.exMax, func(c int) bool { return c < 0 })
	if n.multiple != nil && r != invalid {
		r = worse(r, n.multipleOf(x))
	}
	return r
}

// plainInt reports whether a JSON number is written as an integer that
// fits an int64 without overflow checks.
func plainInt(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

func (n *node) multipleOf(x json.Number) result {
	r, _ := n.multipleOfRat(x)
	return r
}

// multipleOfRat is multipleOf that also returns x as an exact rational
// when it built one (nil otherwise), for a reason to quote.
func (n *node) multipleOfRat(x json.Number) (result, *big.Rat) {
	if n.mulInt != 0 {
		if i, ok := plainInt(string(x)); ok {
			return verdict(i%n.mulInt == 0), nil
		}
	}
	r, ok := new(big.Rat).SetString(string(x))
	if !ok {
		return unknown, nil
	}
	// x/m is an integer when x's numerator times m's denominator is a
	// multiple of x's denominator times m's numerator: a remainder, where
	// the quotient as a rational would be reduced by a GCD of numbers as
	// long as x's digits (1e308 has 309).
	num := new(big.Int).Mul(r.Num(), n.multiple.Denom())
	den := new(big.Int).Mul(r.Denom(), n.multiple.Num())
	return verdict(num.Rem(num, den).Sign() == 0), r
}

// compare compares a JSON number with a bound by exact value. The float64
// comparison decides when the two floats differ (rounding keeps order);
// equal floats are compared as rationals.
func compare(x json.Number, b *bound) (int, bool) {
	f, err := strconv.ParseFloat(string(x), 64)
	if err == nil || isRange(err) {
		switch {
		case f < b.f:
			return -1, true
		case f > b.f:
			return 1, true
		}
	}
	r, ok := new(big.Rat).SetString(string(x))
	if !ok {
		return 0, false
	}
	return r.Cmp(b.r), true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isInteger reports whether a JSON number has an integer value (1.0 and
// 1e2 do), as the validator decides it.
// isInteger reports whether a JSON number's value is an integer: whether
// every digit its exponent moves past the decimal point is 0 ("1.50e1"
// is, "1.25e1" is not). An exponent too large for an int is left to
// exact arithmetic.
func isInteger(x json.Number) bool {
	s := string(x)
	mant, exp, hasExp := s, 0, false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1<<40 || e < -1<<40 {
			r, ok := new(big.Rat).SetString(s)
			return ok && r.IsInt()
		}
		mant, exp, hasExp = s[:i], e, true
	}
	whole, frac, hasFrac := strings.Cut(strings.TrimPrefix(mant, "-"), ".")
	if !hasExp && !hasFrac {
		return true
	}
	// The digits are whole then frac; the point sits after len(whole)+exp
	// of them.
	for k := max(len(whole)+exp, 0); k < len(whole)+len(frac); k++ {
		d := byte('0')
		if k < len(whole) {
			d = whole[k]
		} else {
			d = frac[k-len(whole)]
		}
		if d != '0' {
			return false
		}
	}
	return true
}

// equals is JSON equality with numbers compared by value.
func equals(a, b any) result {
	switch a := a.(type) {
	case nil:
		if b == nil {
			return valid
		}
		if !isJSON(b) {
			return unknown
		}
		return invalid
	case bool:
		if bb, ok := b.(bool); ok {
			return verdict(a == bb)
		}
	case string:
		if bs, ok := b.(string); ok {
			return verdict(a == bs)
		}
	case json.Number:
		if bn, ok := b.(json.Number); ok {
			return numEqual(a, bn)
		}
	case []any:
		if bs, ok := b.([]any); ok {
			if len(a) != len(bs) {
				return invalid
			}
			r := valid
			for i := range a {
				if r = worse(r, equals(a[i], bs[i])); r == invalid {
					return r
				}
			}
			return r
		}
	case map[string]any:
		if bm, ok := b.(map[string]any); ok {
			if len(a) != len(bm) {
				return invalid
			}
			r := valid
			for k, av := range a {
				bv, ok := bm[k]
				if !ok {
					return invalid
				}
				if r = worse(r, equals(av, bv)); r == invalid {
					return r
				}
			}
			return r
		}
	default:
		return unknown
	}
	if !isJSON(b) {
		return unknown
	}
	return invalid
}

func isJSON(v any) bool {
	switch v.(type) {
	case nil, bool, string, json.Number, []any, map[string]any:
		return true
	}
	return false
}

func verdict(ok bool) result {
	if ok {
		return valid
	}
	return invalid
}

func numEqual(a, b json.Number) result {
	if a == b {
		return valid
	}
	fa, ea := strconv.ParseFloat(string(a), 64)
	fb, eb := strconv.ParseFloat(string(b), 64)
	if (ea == nil || isRange(ea)) && (eb == nil || isRange(eb)) && fa != fb {
		return invalid
	}
	ra, ok1 := new(big.Rat).SetString(string(a))
	rb, ok2 := new(big.Rat).SetString(string(b))
	if !ok1 || !ok2 {
		return unknown
	}
	return verdict(ra.Cmp(rb) == 0)
}
