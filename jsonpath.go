package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/ohler55/ojg/jp"
	"github.com/proctorhq/proctor/internal/jsonparse"
)

// JSONPathOptions configure the JSONPath graders ([NewJSONPathEquals],
// [NewJSONPathExists], [NewJSONPathOneOf]).
type JSONPathOptions struct {
	// Name is shown in results; default "json_path".
	Name string
}

// JSONPath passes when the nodes an RFC 9535 JSONPath query selects from
// the JSON in the output (fences and prose removed, [ExtractJSON]) meet an
// assertion: equal a value, exist (or not), or equal one of several values.
//
// A singular query (only names and indexes, like $.items[0].sku) is
// compared through its one node, and fails when it selects nothing. A query
// that can select several nodes (wildcards, slices, filters, descendants)
// is compared as its node list when the expected value is an array, and
// otherwise needs exactly one node equal to it. Values compare as JSON:
// object members in any order, numbers by value (1 equals 1.0).
//
// An output that is not JSON fails. The query is parsed once
// (github.com/ohler55/ojg/jp); a JSONPath is immutable and safe for
// concurrent use.
type JSONPath struct {
	name     string
	src      string
	expr     jp.Expr
	singular []any // the query's steps when singular: string names, int indexes
	op       jsonPathOp
	want     []any // equals: one value; one_of: the values
	exists   bool
	ps       *parsers
}

type jsonPathOp uint8

const (
	opEquals jsonPathOp = iota
	opExists
	opOneOf
)

var _ Grader = (*JSONPath)(nil)

// NewJSONPathEquals returns a grader that passes when the query's node (or
// node list) equals want, a JSON value given as a Go value (decoded JSON,
// or anything that encodes as JSON). It returns an error when the query
// does not parse or want does not encode.
func NewJSONPathEquals(path string, want any, opts JSONPathOptions) (*JSONPath, error) {
	g, err := newJSONPath(path, opEquals, opts)
	if err != nil {
		return nil, err
	}
	w, err := normalizeJSON(want)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_path equals: %w", err)
	}
	g.want = []any{w}
	return g, nil
}

// MustJSONPathEquals is [NewJSONPathEquals] for package-level variables; it
// panics, naming the call and the path, when NewJSONPathEquals fails.
func MustJSONPathEquals(path string, want any, opts JSONPathOptions) *JSONPath {
	return mustJSONPath("MustJSONPathEquals", path)(NewJSONPathEquals(path, want, opts))
}

// NewJSONPathExists returns a grader that passes when the query selects at
// least one node (exists true) or none (exists false). A node holding null
// exists.
func NewJSONPathExists(path string, exists bool, opts JSONPathOptions) (*JSONPath, error) {
	g, err := newJSONPath(path, opExists, opts)
	if err != nil {
		return nil, err
	}
	g.exists = exists
	return g, nil
}

// MustJSONPathExists is [NewJSONPathExists] for package-level variables; it
// panics, naming the call and the path, when NewJSONPathExists fails.
func MustJSONPathExists(path string, exists bool, opts JSONPathOptions) *JSONPath {
	return mustJSONPath("MustJSONPathExists", path)(NewJSONPathExists(path, exists, opts))
}

// NewJSONPathOneOf returns a grader that passes when the query's node (or
// node list) equals one of values. It returns an error when values is
// empty.
func NewJSONPathOneOf(path string, values []any, opts JSONPathOptions) (*JSONPath, error) {
	if len(values) == 0 {
		return nil, errors.New("proctor: json_path one_of needs at least one value")
	}
	g, err := newJSONPath(path, opOneOf, opts)
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		w, err := normalizeJSON(v)
		if err != nil {
			return nil, fmt.Errorf("proctor: json_path one_of: %w", err)
		}
		g.want = append(g.want, w)
	}
	return g, nil
}

// MustJSONPathOneOf is [NewJSONPathOneOf] for package-level variables; it
// panics, naming the call and the path, when NewJSONPathOneOf fails.
func MustJSONPathOneOf(path string, values []any, opts JSONPathOptions) *JSONPath {
	return mustJSONPath("MustJSONPathOneOf", path)(NewJSONPathOneOf(path, values, opts))
}

// mustJSONPath returns the grader a MustJSONPath* call built, or panics
// naming the call and its path.
func mustJSONPath(call, path string) func(*JSONPath, error) *JSONPath {
	return func(g *JSONPath, err error) *JSONPath {
		if err != nil {
			panic(fmt.Sprintf("proctor: %s(%q): %v", call, path, err))
		}
		return g
	}
}

func newJSONPath(path string, op jsonPathOp, opts JSONPathOptions) (*JSONPath, error) {
	x, err := jp.ParseString(path)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_path: path %q: %w", path, err)
	}
	if len(x) == 0 {
		return nil, fmt.Errorf("proctor: json_path: path %q is empty", path)
	}
	if _, ok := x[0].(jp.Root); !ok {
		return nil, fmt.Errorf("proctor: json_path: path %q must start at the root, $", path)
	}
	g := &JSONPath{name: nameOr(opts.Name, "json_path"), src: path, expr: x, op: op, ps: newParsers(true)}
	g.singular = singularSteps(x)
	return g, nil
}

// singularSteps returns the steps of a singular query ($ then names and
// indexes only) or nil when the query can select several nodes.
func singularSteps(x jp.Expr) []any {
	steps := []any{}
	for _, f := range x[1:] {
		switch f := f.(type) {
		case jp.Child:
			steps = append(steps, string(f))
		case jp.Nth:
			steps = append(steps, int(f))
		case jp.Bracket:
			// notation only
		default:
			return nil
		}
	}
	return steps
}

// normalizeJSON turns a Go value into the form the parser produces (int64,
// float64, map[string]any, []any), so comparisons see like with like.
func normalizeJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	p := jsonparse.Parser{Native: true}
	return p.Parse(string(b))
}

// Name returns the grader's name.
func (g *JSONPath) Name() string { return g.name }

// Path returns the query as given.
func (g *JSONPath) Path() string { return g.src }

// Grade evaluates the query on the JSON in s.Output.
func (g *JSONPath) Grade(_ context.Context, s *Sample) Grade {
	var nodes []any
	if g.singular != nil {
		// Only the selected value is built; the rest is validated.
		v, found, err := g.ps.selectPath(s.Output, g.singular)
		if err != nil {
			return notJSON(err)
		}
		if found {
			nodes = []any{v}
		}
	} else {
		doc, _, err := g.ps.parse(s.Output)
		if err != nil {
			return notJSON(err)
		}
		nodes = g.expr.Get(doc)
	}
	switch g.op {
	case opExists:
		switch {
		case g.exists && len(nodes) == 0:
			return Failf("%s selects nothing", g.src)
		case !g.exists && len(nodes) > 0:
			return Failf("%s selects %d node(s), want none", g.src, len(nodes))
		}
		return Pass("")
	}
	if g.singular != nil && len(nodes) == 0 {
		return Failf("%s selects nothing", g.src)
	}
	for _, w := range g.want {
		if g.nodesEqual(nodes, w) {
			return Pass("")
		}
	}
	if g.op == opOneOf {
		return Failf("%s is %s, not one of %d allowed values", g.src, showNodes(nodes, g.singular != nil), len(g.want))
	}
	return Failf("%s is %s, want %s", g.src, showNodes(nodes, g.singular != nil), showJSON(g.want[0]))
}

// nodesEqual compares the selected nodes with one expected value.
func (g *JSONPath) nodesEqual(nodes []any, want any) bool {
	if g.singular != nil {
		return jsonEqual(nodes[0], want)
	}
	if list, ok := want.([]any); ok {
		return jsonEqual(nodes, list)
	}
	return len(nodes) == 1 && jsonEqual(nodes[0], want)
}

// jsonEqual compares decoded JSON values: objects member by member in any
// order, arrays in order, numbers by value whatever their Go type.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case nil:
		return b == nil
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !jsonEqual(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return numEqual(a, b)
}

// numEqual compares two JSON numbers (int64, float64, json.Number, or any
// Go number) by value; false when either is not a number.
func numEqual(a, b any) bool {
	switch a := a.(type) {
	case int64:
		if b, ok := b.(int64); ok {
			return a == b
		}
	case float64:
		if b, ok := b.(float64); ok {
			return a == b
		}
	}
	ra, ok := toRat(a)
	if !ok {
		return false
	}
	rb, ok := toRat(b)
	return ok && ra.Cmp(rb) == 0
}

func toRat(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(v), true
	case int:
		return new(big.Rat).SetInt64(int64(v)), true
	case float64:
		// The shortest decimal that reads back as v: the number as written
		// (0.1 is 1/10, not the binary fraction nearest to it).
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	case json.Number:
		return new(big.Rat).SetString(string(v))
	}
	return nil, false
}

// showNodes writes what a query selected, shortened for a reason.
func showNodes(nodes []any, singular bool) string {
	if singular && len(nodes) == 1 {
		return showJSON(nodes[0])
	}
	return showJSON(nodes)
}

func showJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clipRunes(string(b), 80)
}

// jsonPathSpecs registers the spec types json_path.
func jsonPathSpecs(m map[string]Builder) {
	m["json_path"] = func(o *SpecOptions) (Grader, error) {
		path := o.RequireString("path")
		opts := JSONPathOptions{Name: o.Name()}
		// Values stay JSON text until the grader parses them, so that big
		// numbers keep every digit.
		equals, hasEquals := o.Raw("equals")
		exists := o.Has("exists")
		existsVal := o.Bool("exists", false)
		oneOfRaw, hasOneOf := o.Raw("one_of")
		var oneOf []any
		if hasOneOf {
			var raws []json.RawMessage
			if jsonKind(oneOfRaw) != "an array" || json.Unmarshal(oneOfRaw, &raws) != nil {
				o.Errorf("one_of", "want an array of JSON values, got %s", jsonKind(oneOfRaw))
			} else if len(raws) == 0 {
				o.Errorf("one_of", "must hold at least one value")
			}
			for _, r := range raws {
				oneOf = append(oneOf, r)
			}
		}
		n := 0
		for _, b := range []bool{hasEquals, exists, hasOneOf} {
			if b {
				n++
			}
		}
		if n != 1 && o.Err() == nil {
			o.Errorf("equals", "json_path needs exactly one of equals (a JSON value), exists (a boolean) or one_of (an array), got %d", n)
		}
		if err := o.Err(); err != nil {
			return nil, err
		}
		var g *JSONPath
		var err error
		switch {
		case hasEquals:
			g, err = NewJSONPathEquals(path, equals, opts)
		case exists:
			g, err = NewJSONPathExists(path, existsVal, opts)
		default:
			g, err = NewJSONPathOneOf(path, oneOf, opts)
		}
		if err != nil {
			o.Wrap("path", "invalid", err)
			return nil, o.Err()
		}
		return g, nil
	}
}
