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
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"

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
	applies   bool // not, allOf, anyOf, oneOf or if is set
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
	n.applies = n.not != nil || len(n.allOf) > 0 || len(n.anyOf) > 0 || len(n.oneOf) > 0 || n.ifN != nil

	c.objectKeywords(n, s)
	c.arrayKeywords(n, s)
	stringKeywords(n, s)
	c.numberKeywords(n, s)
	return n
}

// objectKeywords compiles the keywords s applies to objects into n.
func (c *compiler) objectKeywords(n *node, s *jsonschema.Schema) {
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
}

// arrayKeywords compiles the keywords s applies to arrays into n.
func (c *compiler) arrayKeywords(n *node, s *jsonschema.Schema) {
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
}

// stringKeywords compiles the keywords s applies to strings into n.
func stringKeywords(n *node, s *jsonschema.Schema) {
	setInt(&n.minLen, s.MinLength)
	setInt(&n.maxLen, s.MaxLength)
	n.pattern = s.Pattern
	n.hasString = n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil
}

// numberKeywords compiles the keywords s applies to numbers into n.
func (c *compiler) numberKeywords(n *node, s *jsonschema.Schema) {
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
