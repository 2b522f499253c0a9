// Package jsonpatheval evaluates RFC 9535 JSONPath queries parsed by
// github.com/theory/jsonpath under a budget. The JSONPath graders parse
// queries with that library and evaluate them here, over the library's
// syntax tree, so that a grade's work can be counted and bounded: the library's own evaluation
// builds every intermediate node list in full (and copies descendant lists
// once per level), so $..*..*..* on a few hundred nested arrays, or $..* on
// deep nesting, would exhaust memory before anything could stop it.
//
// Nodes lists are built one segment at a time, in the RFC's order; object
// members are visited in order of their names (RFC 9535 leaves their order
// to the implementation; a fixed one keeps grades reproducible). Filter
// tests made of logical operators and existence tests run here too, an
// existence test stopping at its first node. Comparisons and function calls
// run in the library, after their worst case for the node at hand has been
// charged to the budget.
package jsonpatheval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/theory/jsonpath/spec"
)

const (
	// DefaultMaxWork bounds one grade's work, in nodes visited,
	// selected or charged for a filter's worst case: about 50 ms.
	DefaultMaxWork = 1 << 22
	// DefaultMaxNodes bounds the nodes held at once in a grade's
	// node lists (16 bytes each): 4 MiB, about 12 MiB allocated with the
	// lists' growth.
	DefaultMaxNodes = 1 << 18
	// regexUnitCost is the work charged per 16 bytes of a pattern that
	// match or search may read from the document.
	regexUnitCost = 256
	// ctxEvery is how much work passes between two looks at the context.
	ctxEvery = 1 << 12
)

// ErrWork and ErrNodes say which budget a grade ran out of.
var (
	ErrWork  = errors.New("work budget exhausted")
	ErrNodes = errors.New("node budget exhausted")
)

// Query is a compiled query: where it starts and its segments.
type Query struct {
	absolute bool // starts at the root ($), not the current node (@)
	segs     []jpSegment
}

type jpSegment struct {
	descendant bool
	sels       []jpSelector
}

type jpSelKind uint8

const (
	selName jpSelKind = iota
	selIndex
	selSlice
	selWildcard
	selFilter
)

type jpSelector struct {
	kind   jpSelKind
	name   string
	index  int
	slice  spec.SliceSelector
	filter *jpExpr
}

type jpExprKind uint8

const (
	exprOr jpExprKind = iota
	exprAnd
	exprNot
	exprExists
	exprAtom
)

// jpExpr is a compiled filter expression. Atoms (comparisons, function
// calls) are evaluated by the library through a one-test filter.
type jpExpr struct {
	kind  jpExprKind
	subs  []*jpExpr
	query *Query
	atom  *spec.FilterSelector
	cost  atomCost
}

// Compile turns the library's syntax tree into a Query.
func Compile(q *spec.PathQuery) (*Query, error) {
	out := &Query{absolute: isAbsolute(q)}
	for _, seg := range q.Segments() {
		s := jpSegment{descendant: seg.IsDescendant()}
		for _, sel := range seg.Selectors() {
			var c jpSelector
			switch sel := sel.(type) {
			case spec.Name:
				c = jpSelector{kind: selName, name: string(sel)}
			case spec.Index:
				c = jpSelector{kind: selIndex, index: int(sel)}
			case spec.SliceSelector:
				c = jpSelector{kind: selSlice, slice: sel}
			case spec.WildcardSelector:
				c = jpSelector{kind: selWildcard}
			case *spec.FilterSelector:
				f, err := compileOr(sel.LogicalOr)
				if err != nil {
					return nil, err
				}
				c = jpSelector{kind: selFilter, filter: f}
			default:
				return nil, fmt.Errorf("unsupported selector %T", sel)
			}
			s.sels = append(s.sels, c)
		}
		out.segs = append(out.segs, s)
	}
	return out, nil
}

// isAbsolute reports whether q starts at the root ($). The library keeps
// that to itself but for q's text, which costs the whole subtree to write
// (at every level of a nested filter, so compiling would be quadratic in
// depth); a query rebuilt from q's segments as absolute equals q exactly
// when q is, and comparing them follows only the shared segment pointers.
func isAbsolute(q *spec.PathQuery) bool {
	return reflect.DeepEqual(q, spec.Query(true, q.Segments()...))
}

func compileOr(lo spec.LogicalOr) (*jpExpr, error) {
	or := &jpExpr{kind: exprOr}
	for _, and := range lo {
		a := &jpExpr{kind: exprAnd}
		for _, b := range and {
			e, err := compileBasic(b)
			if err != nil {
				return nil, err
			}
			a.subs = append(a.subs, e)
		}
		or.subs = append(or.subs, a)
	}
	return or, nil
}

func compileBasic(b spec.BasicExpr) (*jpExpr, error) {
	switch b := b.(type) {
	case *spec.ParenExpr:
		return compileOr(b.LogicalOr)
	case *spec.NotParenExpr:
		e, err := compileOr(b.LogicalOr)
		return &jpExpr{kind: exprNot, subs: []*jpExpr{e}}, err
	case *spec.ExistExpr:
		q, err := Compile(b.PathQuery)
		return &jpExpr{kind: exprExists, query: q}, err
	case spec.NonExistExpr:
		q, err := Compile(b.PathQuery)
		return &jpExpr{kind: exprNot, subs: []*jpExpr{{kind: exprExists, query: q}}}, err
	case *spec.NonExistExpr:
		q, err := Compile(b.PathQuery)
		return &jpExpr{kind: exprNot, subs: []*jpExpr{{kind: exprExists, query: q}}}, err
	}
	f := spec.Filter(spec.And(b))
	return &jpExpr{kind: exprAtom, atom: f, cost: atomCostOf(f.String())}, nil
}

// atomCost is what a comparison or function call may cost, read from its
// canonical text: the library keeps its operands to itself.
type atomCost struct {
	cheap    bool // singular queries and literals only, no deep equality
	absolute bool // mentions the root, $
	desc     int  // descendant segments in nested queries
	filters  int  // nested filters
	unions   int  // extra selectors in bracketed lists
	deepEq   bool // may compare two arrays or objects
	regex    int  // units a match or search costs: the library compiles its pattern per call
	docText  bool // a match or search pattern may come from the document
}

// atomCostOf scans an atom's canonical text (after the filter's leading
// '?'), skipping quoted strings.
func atomCostOf(text string) atomCost {
	var c atomCost
	multi, markers, eq, regex := false, 0, false, false
	depth, inSlice := 0, false
	for i := 1; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '"', '\'':
			for i++; i < len(text) && text[i] != ch; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '.':
			if i+1 < len(text) && text[i+1] == '.' {
				c.desc++
				i++
			}
		case '?':
			c.filters++
		case '*':
			multi = true
		case '$':
			c.absolute = true
			markers++
		case '@':
			markers++
		case '[':
			depth++
			inSlice = false
		case ']':
			depth--
		case ',':
			if depth > 0 {
				c.unions++
				inSlice = false
			}
		case ':':
			if depth > 0 && !inSlice {
				multi, inSlice = true, true
			}
		case '=':
			if text[i-1] == '=' || text[i-1] == '!' {
				eq = true
			}
		case '(':
			if strings.HasSuffix(text[:i], "match") || strings.HasSuffix(text[:i], "search") {
				regex = true
			}
		}
	}
	if regex {
		c.regex = len(text)
		// A pattern read from the document costs what the document holds.
		c.absolute = c.absolute || markers >= 2
		c.docText = markers >= 2
	}
	c.deepEq = eq && markers >= 2
	c.cheap = c.desc == 0 && c.filters == 0 && c.unions == 0 && !multi && !c.deepEq && !c.docText
	return c
}

// run is one evaluation: the document, the budgets and what they have
// used.
type run struct {
	ctx       context.Context
	root      any
	work      int
	maxWork   int
	held      int
	maxNodes  int
	nextCheck int
	err       error
	rootStats treeStats
	keys      [][]string // free list of key buffers for sorted member order
}

func newRun(ctx context.Context, root any, maxWork, maxNodes int) *run {
	return &run{ctx: ctx, root: root, maxWork: maxWork, maxNodes: maxNodes, nextCheck: ctxEvery, rootStats: treeStats{size: -1}}
}

// Result is what an evaluation selected and spent.
type Result struct {
	Nodes []any // the nodes selected, in order; incomplete when Err is set
	Err   error // ErrWork, ErrNodes or the context's error when the evaluation stopped
	Work  int   // units of work spent
	Held  int   // nodes still held at the end: len(Nodes) when the budgets were kept
}

// Eval evaluates q on doc, the parsed document, under ctx and the budgets
// maxWork (work units) and maxNodes (nodes held at once); limit > 0 stops
// the final node list at limit nodes. When q compares values for deep
// equality, integers in doc that a float64 holds exactly are rewritten in
// place first, so that equal numbers compare equal.
func Eval(ctx context.Context, q *Query, doc any, limit, maxWork, maxNodes int) Result {
	r := newRun(ctx, doc, maxWork, maxNodes)
	if q.DeepEq() {
		r.sameNumbers(doc)
	}
	nodes := r.query(q, doc, limit)
	return Result{Nodes: nodes, Err: r.err, Work: r.work, Held: r.held}
}

// spend counts n units of work; false once a budget or the context has run
// out (r.err says which).
func (r *run) spend(n int) bool {
	if r.err != nil {
		return false
	}
	if n > r.maxWork-r.work {
		r.err = ErrWork
		return false
	}
	r.work += n
	if r.work >= r.nextCheck {
		r.nextCheck = r.work + ctxEvery
		if err := r.ctx.Err(); err != nil {
			r.err = err
			return false
		}
	}
	return true
}

// add appends v to *out, counting it against both budgets.
func (r *run) add(out *[]any, v any) {
	if !r.spend(1) {
		return
	}
	if r.held >= r.maxNodes {
		r.err = ErrNodes
		return
	}
	r.held++
	*out = append(*out, v)
}

// release returns n held nodes to the budget when a list is dropped.
func (r *run) release(n int) { r.held -= n }

// query evaluates q at cur. When limit > 0 the final list stops at limit
// nodes. The caller releases the returned list.
func (r *run) query(q *Query, cur any, limit int) []any {
	start := cur
	if q.absolute {
		start = r.root
	}
	var list []any
	r.add(&list, start)
	for i := range q.segs {
		if r.err != nil {
			break
		}
		lim := 0
		if i == len(q.segs)-1 {
			lim = limit
		}
		next := r.segment(&q.segs[i], list, lim)
		r.release(len(list))
		list = next
	}
	if r.err != nil {
		r.release(len(list))
		return nil
	}
	return list
}

func (r *run) done(out []any, limit int) bool {
	return r.err != nil || limit > 0 && len(out) >= limit
}

func (r *run) segment(seg *jpSegment, in []any, limit int) []any {
	var out []any
	for _, n := range in {
		if seg.descendant {
			r.descend(seg.sels, n, &out, limit)
		} else {
			r.apply(seg.sels, n, &out, limit)
		}
		if r.done(out, limit) {
			break
		}
	}
	return out
}

// descend applies sels to n and then to each of its descendants, in
// document order. Recursion is as deep as the document, which the parser
// bounds.
func (r *run) descend(sels []jpSelector, n any, out *[]any, limit int) {
	if !r.spend(1) {
		return
	}
	r.apply(sels, n, out, limit)
	if r.done(*out, limit) {
		return
	}
	switch v := n.(type) {
	case []any:
		for _, c := range v {
			if r.descend(sels, c, out, limit); r.done(*out, limit) {
				return
			}
		}
	case map[string]any:
		keys := r.sortedKeys(v)
		for _, k := range keys {
			if r.descend(sels, v[k], out, limit); r.done(*out, limit) {
				break
			}
		}
		r.putKeys(keys)
	}
}

// apply applies a segment's selectors to one node.
func (r *run) apply(sels []jpSelector, n any, out *[]any, limit int) {
	for i := range sels {
		s := &sels[i]
		switch s.kind {
		case selName:
			if m, ok := n.(map[string]any); ok {
				if v, ok := m[s.name]; ok {
					r.add(out, v)
				}
			}
		case selIndex:
			if a, ok := n.([]any); ok {
				i := s.index
				if i < 0 {
					i += len(a)
				}
				if i >= 0 && i < len(a) {
					r.add(out, a[i])
				}
			}
		case selSlice:
			if a, ok := n.([]any); ok {
				lo, hi := s.slice.Bounds(len(a))
				switch step := s.slice.Step(); {
				case step > 0:
					for i := lo; i < hi && !r.done(*out, limit); i += step {
						r.add(out, a[i])
					}
				case step < 0:
					for i := hi; lo < i && !r.done(*out, limit); i += step {
						r.add(out, a[i])
					}
				}
			}
		case selWildcard, selFilter:
			r.children(s, n, out, limit)
		}
		if r.done(*out, limit) {
			return
		}
	}
}

// children selects n's children, all of them or those passing the filter.
func (r *run) children(s *jpSelector, n any, out *[]any, limit int) {
	take := func(c any) bool {
		if s.kind == selWildcard {
			r.add(out, c)
		} else if r.spend(1) && r.test(s.filter, c) {
			r.add(out, c)
		}
		return !r.done(*out, limit)
	}
	switch v := n.(type) {
	case []any:
		for _, c := range v {
			if !take(c) {
				return
			}
		}
	case map[string]any:
		keys := r.sortedKeys(v)
		for _, k := range keys {
			if !take(v[k]) {
				break
			}
		}
		r.putKeys(keys)
	}
}

// test evaluates a filter expression with cur as @. After an error it
// returns false and r.err is set.
func (r *run) test(e *jpExpr, cur any) bool {
	switch e.kind {
	case exprOr:
		for _, s := range e.subs {
			if r.test(s, cur) {
				return true
			}
		}
		return false
	case exprAnd:
		for _, s := range e.subs {
			if !r.test(s, cur) {
				return false
			}
		}
		return len(e.subs) > 0
	case exprNot:
		return !r.test(e.subs[0], cur) && r.err == nil
	case exprExists:
		nodes := r.query(e.query, cur, 1)
		r.release(len(nodes))
		return len(nodes) > 0
	}
	if !r.charge(e.cost, cur) {
		return false
	}
	return e.atom.Eval(cur, r.root)
}

// charge spends an atom's worst case before the library evaluates it:
// nested queries build their node lists in full, so their bound must fit
// both budgets.
func (r *run) charge(c atomCost, cur any) bool {
	if c.cheap {
		return r.spend(1 + c.regex)
	}
	var st treeStats
	if c.absolute {
		if r.rootStats.size < 0 {
			r.rootStats = r.stats(r.root)
		}
		st = r.rootStats
	} else {
		st = r.stats(cur)
	}
	if r.err != nil {
		return false
	}
	// A descendant segment visits each node once per node above it that
	// an earlier one selected, and the library copies lists once per
	// level: (d+1) per segment. A nested filter runs per child: (s+1).
	n, d := float64(st.size+1), float64(st.depth+1)
	lists := n * math.Pow(d, float64(c.desc)) * float64(1+c.desc) * math.Pow(n, float64(c.filters)) * float64(1+c.unions)
	if lists > float64(r.maxNodes) {
		r.err = ErrNodes
		return false
	}
	cost := lists + float64(c.regex)
	if c.docText {
		// Compiling a pattern allocates a few hundred bytes per byte of
		// it, each time the library is asked to match.
		cost += n * regexUnitCost
	}
	if cost > float64(r.maxWork-r.work) {
		r.err = ErrWork
		return false
	}
	return r.spend(int(cost))
}

// treeStats are a value's node count and nesting depth.
type treeStats struct{ size, depth int }

// stats measures v, spending one unit per node (strings count their
// length in 16-byte units).
func (r *run) stats(v any) treeStats {
	var st treeStats
	var walk func(v any, d int)
	walk = func(v any, d int) {
		if !r.spend(1) {
			return
		}
		st.size++
		st.depth = max(st.depth, d)
		switch v := v.(type) {
		case string:
			// A string weighs its length in 16-byte nodes: what a
			// pattern compiled from it, or a comparison, may cost.
			st.size += len(v) / 16
		case []any:
			for _, c := range v {
				if walk(c, d+1); r.err != nil {
					return
				}
			}
		case map[string]any:
			for _, c := range v {
				if walk(c, d+1); r.err != nil {
					return
				}
			}
		}
	}
	walk(v, 0)
	return st
}

// sameNumbers rewrites, in place, integers that a float64 holds exactly as
// float64, so that the library's deep equality of arrays and objects sees
// 1 and 1.0 alike, as RFC 9535 compares numbers by value.
func (r *run) sameNumbers(v any) {
	const exact = 1 << 53
	switch v := v.(type) {
	case []any:
		for i, c := range v {
			if !r.spend(1) {
				return
			}
			if n, ok := c.(int64); ok && n >= -exact && n <= exact {
				v[i] = float64(n)
			} else {
				r.sameNumbers(c)
			}
		}
	case map[string]any:
		for k, c := range v {
			if !r.spend(1) {
				return
			}
			if n, ok := c.(int64); ok && n >= -exact && n <= exact {
				v[k] = float64(n)
			} else {
				r.sameNumbers(c)
			}
		}
	}
}

// sortedKeys returns m's member names in order, in a reused buffer that
// putKeys gives back.
func (r *run) sortedKeys(m map[string]any) []string {
	r.spend(len(m))
	var keys []string
	if n := len(r.keys); n > 0 {
		keys, r.keys = r.keys[n-1][:0], r.keys[:n-1]
	}
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (r *run) putKeys(keys []string) {
	clear(keys)
	r.keys = append(r.keys, keys)
}

// DeepEq reports whether a filter anywhere in q may compare two arrays or
// objects.
func (q *Query) DeepEq() bool {
	for _, seg := range q.segs {
		for _, sel := range seg.sels {
			if sel.kind == selFilter && sel.filter.deepEq() {
				return true
			}
		}
	}
	return false
}

func (e *jpExpr) deepEq() bool {
	switch e.kind {
	case exprAtom:
		return e.cost.deepEq
	case exprExists:
		return e.query.DeepEq()
	}
	return slices.ContainsFunc(e.subs, (*jpExpr).deepEq)
}
