package proctor

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/jsonpatheval"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/internal/nesting"
	"github.com/theory/jsonpath"
	"github.com/theory/jsonpath/spec"
)

// JSONPathOptions configure the JSONPath graders ([NewJSONPathEquals],
// [NewJSONPathExists], [NewJSONPathOneOf]). The zero value uses the default
// budgets.
type JSONPathOptions struct {
	// Name is shown in results; default "json_path".
	Name string
	// MaxWork bounds the work of one grade, counted in nodes: visited by
	// a descendant segment, selected, tested by a filter, or charged for
	// the worst case of a filter's nested query. Zero means 4,194,304
	// (about 50 ms). A grade that needs more is not graded.
	MaxWork int
	// MaxNodes bounds the nodes a grade holds at once in its node lists.
	// Zero means 262,144 (4 MiB of lists). A grade that needs more is not
	// graded.
	MaxNodes int
}

// JSONPath passes when the nodes an RFC 9535 JSONPath query selects from
// the JSON in the output (fences and prose removed, [ExtractJSON]) meet an
// assertion: equal a value, exist (or not), or equal one of several values.
//
// Queries follow RFC 9535 in full (unions, slices, filters with &&, || and
// !, comparisons, and the functions length, count, match, search and value)
// and are parsed with github.com/theory/jsonpath; a query RFC 9535 rejects
// is an error when the grader is built. Object members are visited in order
// of their names (the RFC leaves that order open; a fixed one keeps grades
// reproducible).
//
// A singular query (only names and indexes, like $.items[0].sku) is
// compared through its one node, and fails when it selects nothing. A query
// that can select several nodes (wildcards, slices, filters, descendants)
// is compared as its node list when the expected value is an array, and
// otherwise needs exactly one node equal to it. Values compare as JSON:
// object members in any order, numbers by value (1 equals 1.0, and big
// integers keep every digit).
//
// An output that is not JSON fails. A grade whose query would need more
// work or nodes than [JSONPathOptions] allow, or whose context ends first,
// is not graded with the reason. A JSONPath is immutable and safe for
// concurrent use.
type JSONPath struct {
	name     string
	src      string
	q        *jsonpatheval.Query
	singular []any // the query's steps when singular: string names, int indexes
	op       jsonPathOp
	want     []any // equals: one value; one_of: the values
	limit    int   // nodes worth keeping: one more than any expected list
	exists   bool
	maxWork  int
	maxNodes int
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
	g.setLimit()
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
	g.setLimit()
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
	g.setLimit()
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
			panic(kit.MustFailed(call, path, err))
		}
		return g
	}
}

// MaxJSONPathNesting is how deeply a JSONPath query may nest brackets and
// parentheses (filters, groups, function calls). Parsing and compiling a
// query grow faster than its length with its nesting, so the query text is
// scanned for its depth first and a deeper one is refused with
// [ErrPathTooDeep].
const MaxJSONPathNesting = 32

// ErrPathTooDeep is wrapped by the error for a JSONPath query nested
// deeper than [MaxJSONPathNesting].
var ErrPathTooDeep = errors.New("proctor: JSONPath query nested too deeply")

func newJSONPath(path string, op jsonPathOp, opts JSONPathOptions) (*JSONPath, error) {
	if opts.MaxWork < 0 || opts.MaxNodes < 0 {
		return nil, fmt.Errorf("proctor: json_path: max_work and max_nodes must be >= 0, got %d and %d", opts.MaxWork, opts.MaxNodes)
	}
	if d := nesting.Depth([]byte(path), "[(", "])", `"'`, MaxJSONPathNesting); d > MaxJSONPathNesting {
		return nil, fmt.Errorf("%w: json_path: path nests brackets and parentheses more than %d levels deep (the limit)", ErrPathTooDeep, MaxJSONPathNesting)
	}
	p, err := jsonpath.Parse(path)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_path: path %q: %w", path, err)
	}
	q, err := jsonpatheval.Compile(p.Query())
	if err != nil {
		return nil, fmt.Errorf("proctor: json_path: path %q: %w", path, err)
	}
	g := &JSONPath{
		name: cmp.Or(opts.Name, "json_path"), src: path, q: q, op: op, ps: newParsers(true, false),
		maxWork: cmp.Or(opts.MaxWork, jsonpatheval.DefaultMaxWork), maxNodes: cmp.Or(opts.MaxNodes, jsonpatheval.DefaultMaxNodes),
	}
	g.singular = singularSteps(p.Query())
	return g, nil
}

// singularSteps returns the steps of a singular query ($ then names and
// indexes only) or nil when the query can select several nodes.
func singularSteps(q *spec.PathQuery) []any {
	if q.Singular() == nil {
		return nil
	}
	steps := []any{}
	for _, seg := range q.Segments() {
		switch sel := seg.Selectors()[0].(type) {
		case spec.Name:
			steps = append(steps, string(sel))
		case spec.Index:
			steps = append(steps, int(sel))
		default:
			return nil
		}
	}
	return steps
}

// setLimit records how many nodes are worth keeping: one more than the
// longest expected node list tells that none can match.
func (g *JSONPath) setLimit() {
	n := 1
	if g.op != opExists {
		for _, w := range g.want {
			if list, ok := w.([]any); ok {
				n = max(n, len(list))
			}
		}
		n++
	}
	g.limit = n
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
func (g *JSONPath) Grade(ctx context.Context, s *Sample) Grade {
	var nodes []any
	more := false // nodes stopped at g.limit: the query selects more
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
		r := g.run(ctx, doc, g.limit)
		if r.Err != nil {
			return g.outOfBudget(r)
		}
		nodes = r.Nodes
		more = len(nodes) >= g.limit
	}
	switch g.op {
	case opExists:
		switch {
		case g.exists && len(nodes) == 0:
			return Failf("%s selects nothing", g.src)
		case !g.exists && len(nodes) > 0:
			return Failf("%s selects %s, want nothing", g.src, showNodes(nodes, g.singular != nil, more))
		}
		return Pass("")
	}
	if g.singular != nil && len(nodes) == 0 {
		return Failf("%s selects nothing", g.src)
	}
	if !more {
		for _, w := range g.want {
			if g.nodesEqual(nodes, w) {
				return Pass("")
			}
		}
	}
	if g.op == opOneOf {
		return Failf("%s is %s, not one of %d allowed values", g.src, showNodes(nodes, g.singular != nil, more), len(g.want))
	}
	return Failf("%s is %s, want %s", g.src, showNodes(nodes, g.singular != nil, more), showJSON(g.want[0]))
}

// run evaluates the query on a parsed document, keeping at most limit
// nodes (0: all); the nodes are in the result unless its Err is set.
func (g *JSONPath) run(ctx context.Context, doc any, limit int) jsonpatheval.Result {
	return jsonpatheval.Eval(ctx, g.q, doc, limit, g.maxWork, g.maxNodes)
}

// outOfBudget is the not-graded result of a run that stopped early.
func (g *JSONPath) outOfBudget(r jsonpatheval.Result) Grade {
	switch {
	case errors.Is(r.Err, jsonpatheval.ErrWork):
		return ErrorGrade(fmt.Sprintf("%s: stopped after %d units of work (max_work %d)", g.src, r.Work, g.maxWork), r.Err)
	case errors.Is(r.Err, jsonpatheval.ErrNodes):
		return ErrorGrade(fmt.Sprintf("%s: would hold more than %d nodes at once (max_nodes)", g.src, g.maxNodes), r.Err)
	}
	return ErrorGrade(g.src+": stopped", r.Err)
}

// nodesEqual compares the selected nodes with one expected value.
func (g *JSONPath) nodesEqual(nodes []any, want any) bool {
	if g.singular != nil {
		return jsonpatheval.Equal(nodes[0], want)
	}
	if list, ok := want.([]any); ok {
		return jsonpatheval.Equal(nodes, list)
	}
	return len(nodes) == 1 && jsonpatheval.Equal(nodes[0], want)
}

// reasonClip is how many characters of a value a reason quotes.
const reasonClip = 80

// showNodes writes what a query selected, shortened for a reason; more
// says the query selects nodes beyond those kept.
func showNodes(nodes []any, singular, more bool) string {
	if singular && len(nodes) == 1 {
		return showJSON(nodes[0])
	}
	w := clipWriter{room: reasonClip}
	w.str("[")
	for i, n := range nodes {
		if i > 0 {
			w.str(",")
		}
		if w.value(n); w.full() {
			break
		}
	}
	if more && !w.full() {
		w.str(",…")
	}
	w.str("]")
	return w.String()
}

// showJSON writes v as JSON, shortened for a reason. Only what is shown is
// written: a huge or deep value costs no more than its first characters.
func showJSON(v any) string {
	w := clipWriter{room: reasonClip}
	w.value(v)
	return w.String()
}

// clipWriter writes JSON until room characters are used, then writes "…"
// once and drops the rest.
type clipWriter struct {
	b    strings.Builder
	room int
	cut  bool
}

func (w *clipWriter) full() bool { return w.cut }

func (w *clipWriter) String() string { return w.b.String() }

// str writes s, a run of characters, or as much of it as fits.
func (w *clipWriter) str(s string) {
	for _, c := range s {
		if w.cut {
			return
		}
		if w.room == 0 {
			w.b.WriteString("…")
			w.cut = true
			return
		}
		w.b.WriteRune(c)
		w.room--
	}
}

func (w *clipWriter) value(v any) {
	if w.cut {
		return
	}
	switch v := v.(type) {
	case nil:
		w.str("null")
	case bool:
		w.str(strconv.FormatBool(v))
	case string:
		w.quoted(v)
	case int64:
		w.str(strconv.FormatInt(v, 10))
	case float64:
		w.str(strconv.FormatFloat(v, 'g', -1, 64))
	case json.Number:
		w.str(string(v))
	case []any:
		w.str("[")
		for i, c := range v {
			if i > 0 {
				w.str(",")
			}
			if w.value(c); w.cut {
				return
			}
		}
		w.str("]")
	case map[string]any:
		// Members in order of their names, found one at a time so that
		// only the members shown are looked for.
		w.str("{")
		prev, first := "", true
		for range len(v) {
			next, found := "", false
			for k := range v {
				if (first || k > prev) && (!found || k < next) {
					next, found = k, true
				}
			}
			if !first {
				w.str(",")
			}
			w.quoted(next)
			w.str(":")
			if w.value(v[next]); w.cut {
				return
			}
			prev, first = next, false
		}
		w.str("}")
	default:
		b, err := json.Marshal(v)
		if err != nil {
			w.str(fmt.Sprint(v))
			return
		}
		w.str(string(b))
	}
}

// quoted writes s as a JSON string.
func (w *clipWriter) quoted(s string) {
	w.str(`"`)
	for _, c := range s {
		if w.cut {
			return
		}
		switch {
		case c == '"' || c == '\\':
			w.str(`\` + string(c))
		case c == '\n':
			w.str(`\n`)
		case c == '\t':
			w.str(`\t`)
		case c == '\r':
			w.str(`\r`)
		case c < 0x20:
			w.str(fmt.Sprintf(`\u%04x`, c))
		default:
			w.str(string(c))
		}
	}
	w.str(`"`)
}

// jsonPathSpec builds a json_path grader from its spec.
func jsonPathSpec(o *SpecOptions) (Grader, error) {
	path := o.RequireString("path")
	opts := JSONPathOptions{Name: o.Name(), MaxWork: o.Int("max_work", 0), MaxNodes: o.Int("max_nodes", 0)}
	if opts.MaxWork < 0 {
		o.Errorf("max_work", "must be >= 0, got %d", opts.MaxWork)
	}
	if opts.MaxNodes < 0 {
		o.Errorf("max_nodes", "must be >= 0, got %d", opts.MaxNodes)
	}
	// Values stay JSON text until the grader parses them, so that big
	// numbers keep every digit.
	equals, hasEquals := o.Raw("equals")
	exists := o.Has("exists")
	existsVal := o.Bool("exists", false)
	oneOfRaw, hasOneOf := o.Raw("one_of")
	var oneOf []any
	if hasOneOf {
		var raws []json.RawMessage
		if kit.JSONKind(oneOfRaw) != "an array" || json.Unmarshal(oneOfRaw, &raws) != nil {
			o.Errorf("one_of", "want an array of JSON values, got %s", kit.JSONKind(oneOfRaw))
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

// jsonPathSpecTypes documents the structure family's spec type json_path,
// for [Compiler.SpecTypes], with its builder.
func jsonPathSpecTypes() []SpecType {
	return []SpecType{
		{Name: "json_path", Build: jsonPathSpec, Family: "structure", Summary: "a JSONPath query over the output's JSON meets an assertion",
			About: "Give exactly one of equals, exists and one_of. A query that selects one node is compared through that node; one that can select several (wildcards, filters, slices) is compared as the list of nodes.",
			Options: []SpecOptionDoc{
				{"path", "string", "(required)", "An RFC 9535 JSONPath query. Brackets and parentheses (filters, groups, function calls) may nest at most 32 levels deep; a deeper query is refused before it compiles."},
				{"equals", "any JSON value", "", "The value the node (or node list) must equal."},
				{"exists", "boolean", "", "true: the query must select something; false: nothing."},
				{"one_of", "array of JSON values", "", "The node must equal one of these."},
				{"max_work", "integer >= 0", "4194304", "Bound on the work of one grade, in nodes visited and filter work charged; past it the check is not graded, with the reason."},
				{"max_nodes", "integer >= 0", "262144", "Bound on the nodes held at once in the query's node lists; past it the check is not graded."},
			},
			Example: `{"type": "json_path", "path": "$.status", "one_of": ["ok", "pending"]}`},
	}
}
