// Package schemabound bounds the work of validating an instance against a
// compiled JSON Schema before the validator (jsonschema/v6) runs. The
// validator cannot be interrupted once Validate starts, and a small schema
// can make it visit exponentially many schema nodes, so the bound is
// computed from the compiled schema at load and checked per instance.
package schemabound

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrTooComplex is wrapped by every refusal: a schema whose bound passes
// the limit, an analysis over its step budget, or an instance whose work
// would pass [MaxWork].
var ErrTooComplex = errors.New("schema validation could visit too many schema nodes")

// MaxWork bounds the schema nodes one validation may visit in all, worst
// case (positions in the instance times the visits per position): an
// instance over it is refused rather than validated.
const MaxWork = 1 << 26

// The bound on validation work. The validator (jsonschema/v6) cannot be
// interrupted once Validate starts, and a small schema can make it visit
// exponentially many schema nodes: definitions that each reference the
// next twice through "anyOf" or "allOf" double the work per level. So the
// work is bounded before validation, from the compiled schema:
//
//   - Schema nodes are linked by in-place edges (the same instance
//     position: "$ref", "$dynamicRef" and "$recursiveRef" with every
//     anchor they may resolve to, "allOf", "anyOf", "oneOf", "not", "if",
//     "then", "else", "dependentSchemas", schema "dependencies") and child
//     edges (another position: properties, items, contains, property
//     names, content, grouped by which child they apply to).
//   - The in-place closure of a node counts every path the validator may
//     walk at one position, memoised per node and capped; a cycle stops
//     where the validator's own cycle check stops it.
//   - visits[d][n] bounds the schema nodes visited at any one position d
//     levels below a position where node n applies: the closure's size at
//     d = 0, and for deeper levels, per child, the sum over the closure of
//     the children's bounds one level down, maximised over children.
//
// Compiling refuses a schema whose bound passes the limit at any position
// within maxLoadDepth levels of the root (or at any depth once the bound
// is stable). Grading walks the instance for its depth and positions,
// extends the table to that depth if needed, and refuses (not graded) an
// instance whose positions times the bound, summed over its levels, passes
// MaxWork. The analysis itself is budgeted in steps.

// maxLoadDepth is how many instance levels compiling checks the bound at.
const maxLoadDepth = 16

// maxBoundSteps budgets the analysis of one schema (map and table
// updates), so that bounding a huge schema cannot itself run away.
const maxBoundSteps = 1 << 23

// schemaNode is one compiled schema node's edges, as indexes.
type schemaNode struct {
	inPlace  []int
	oneOf    [][]int        // dynamic references: each resolves to one of a group
	props    map[string]int // named properties
	objAll   []int          // patternProperties, unevaluatedProperties: any member
	objOther []int          // additionalProperties: members not named
	prefix   []int          // prefixItems, items as an array
	arrAll   []int          // contains, unevaluatedItems: any item
	arrRest  []int          // items, additionalItems: items past the prefix
	names    []int          // propertyNames
	content  []int          // contentSchema
}

// member is a node in a closure, with how many paths reach it.
type member struct{ node, mult int }

// Bound is the analysed schema and its table of bounds per depth.
type Bound struct {
	limit int
	nodes []schemaNode
	roots []int                      // position roots: the root and every child target
	cl    [][]member                 // closure per position root, indexed like roots
	pos   map[int]int                // node -> index in roots
	table atomic.Pointer[boundTable] // what check reads without the lock
	mu    sync.Mutex                 // guards what follows
	steps int                        // analysis steps spent
	last  []int                      // bounds at the deepest level computed, per root
	at    []int                      // at[d]: the root's bound d levels down
	done  bool                       // last holds for every deeper level
}

// New analyses sch and refuses it when its bound passes limit
// within maxLoadDepth levels. visit, when not nil, is called once with
// every compiled node.
func New(sch *jsonschema.Schema, limit int, visit func(*jsonschema.Schema)) (*Bound, error) {
	b := &Bound{limit: limit, pos: map[int]int{}}
	g := graph{b: b, index: map[*jsonschema.Schema]int{}}
	g.add(sch)
	dynamic := map[string][]int{}
	var recursive []int
	for i := 0; i < len(g.list); i++ {
		s := g.list[i]
		if visit != nil {
			visit(s)
		}
		n := g.node(s) // before indexing b.nodes: numbering grows it
		b.nodes[i] = n
		if s.DynamicAnchor != "" {
			dynamic[s.DynamicAnchor] = append(dynamic[s.DynamicAnchor], i)
		}
		if s.RecursiveAnchor {
			recursive = append(recursive, i)
		}
	}
	// A dynamic reference resolves to one node: its static target or any
	// node with its anchor.
	for i, s := range g.list {
		n := &b.nodes[i]
		if s.RecursiveRef != nil {
			n.oneOf[0] = append(n.oneOf[0], recursive...)
		}
		if s.DynamicRef != nil && s.DynamicRef.Anchor != "" {
			last := len(n.oneOf) - 1
			n.oneOf[last] = append(n.oneOf[last], dynamic[s.DynamicRef.Anchor]...)
		}
	}
	if err := b.closures(); err != nil {
		return nil, err
	}
	b.last = make([]int, len(b.roots))
	for r, c := range b.cl {
		b.last[r] = closureSize(c, limit)
	}
	b.at = []int{b.last[0]}
	for d := 1; ; d++ {
		if worst := b.at[len(b.at)-1]; worst > limit {
			return nil, fmt.Errorf("%w: over %d at one instance position %d levels down (MaxVisits, max_visits); look for references that fan out through anyOf, allOf or oneOf", ErrTooComplex, limit, len(b.at)-1)
		}
		if b.done || d > maxLoadDepth {
			break
		}
		if err := b.extend(); err != nil {
			return nil, err
		}
	}
	b.publish()
	return b, nil
}

// graph numbers the compiled schemas reachable from the root as the
// Bound's nodes, in the order they are met.
type graph struct {
	b     *Bound
	index map[*jsonschema.Schema]int
	list  []*jsonschema.Schema
}

// add numbers s, once.
func (g *graph) add(s *jsonschema.Schema) int {
	if i, ok := g.index[s]; ok {
		return i
	}
	g.index[s] = len(g.list)
	g.list = append(g.list, s)
	g.b.nodes = append(g.b.nodes, schemaNode{})
	return len(g.list) - 1
}

// adds numbers the schemas of ss that are not nil.
func (g *graph) adds(ss ...*jsonschema.Schema) []int {
	var out []int
	for _, s := range ss {
		if s != nil {
			out = append(out, g.add(s))
		}
	}
	return out
}

// asSchema is v when it is a schema (a keyword that may also hold a
// boolean or a list), else nil.
func asSchema(v any) *jsonschema.Schema { s, _ := v.(*jsonschema.Schema); return s }

// node is s's edges to the schemas it applies, numbering them; a dynamic
// reference's group holds its static target until New adds the anchors.
func (g *graph) node(s *jsonschema.Schema) schemaNode {
	n := schemaNode{}
	n.inPlace = g.adds(s.Ref, s.Not, s.If, s.Then, s.Else)
	if s.RecursiveRef != nil {
		n.oneOf = append(n.oneOf, g.adds(s.RecursiveRef))
	}
	if s.DynamicRef != nil {
		n.oneOf = append(n.oneOf, g.adds(s.DynamicRef.Ref))
	}
	n.inPlace = append(n.inPlace, g.adds(s.AllOf...)...)
	n.inPlace = append(n.inPlace, g.adds(s.AnyOf...)...)
	n.inPlace = append(n.inPlace, g.adds(s.OneOf...)...)
	for _, k := range slices.Sorted(maps.Keys(s.DependentSchemas)) {
		n.inPlace = append(n.inPlace, g.adds(s.DependentSchemas[k])...)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Dependencies)) {
		n.inPlace = append(n.inPlace, g.adds(asSchema(s.Dependencies[k]))...)
	}
	if len(s.Properties) > 0 {
		n.props = make(map[string]int, len(s.Properties))
		for k, p := range s.Properties {
			n.props[k] = g.add(p)
		}
	}
	for _, p := range s.PatternProperties {
		n.objAll = append(n.objAll, g.add(p))
	}
	n.objAll = append(n.objAll, g.adds(s.UnevaluatedProperties)...)
	n.objOther = g.adds(asSchema(s.AdditionalProperties))
	n.prefix = g.adds(s.PrefixItems...)
	if items, ok := s.Items.([]*jsonschema.Schema); ok {
		n.prefix = append(n.prefix, g.adds(items...)...)
		n.arrRest = g.adds(asSchema(s.AdditionalItems))
	} else {
		n.arrRest = g.adds(asSchema(s.Items), s.Items2020)
	}
	n.arrAll = g.adds(s.Contains, s.UnevaluatedItems)
	n.names = g.adds(s.PropertyNames)
	n.content = g.adds(s.ContentSchema)
	return n
}

func closureSize(c []member, limit int) int {
	n := 0
	for _, m := range c {
		n = satAdd(n, m.mult, limit)
	}
	return n
}

// satAdd adds, saturating just past limit.
func satAdd(a, b, limit int) int {
	if a > limit-b {
		return limit + 1
	}
	return a + b
}

// satMul multiplies non-negative numbers, saturating just past limit.
func satMul(a, b, limit int) int {
	if a != 0 && b > limit/a {
		return limit + 1
	}
	return a * b
}

// spend counts analysis steps and fails past the budget.
func (b *Bound) spend(n int) error {
	b.steps += n
	if b.steps > maxBoundSteps {
		return fmt.Errorf("%w: bounding the schema's work took over %d steps", ErrTooComplex, maxBoundSteps)
	}
	return nil
}

// closures finds the position roots and their in-place closures.
func (b *Bound) closures() error {
	// Nodes on an in-place cycle cannot be memoised: what the validator
	// walks from them depends on the path that reached them.
	w := closureWalk{
		b:      b,
		cyclic: inPlaceCycles(b.nodes),
		memo:   make([]map[int]int, len(b.nodes)),
		onPath: make([]bool, len(b.nodes)),
	}
	b.root(0)
	for i := 0; i < len(b.roots); i++ {
		c, err := w.walk(b.roots[i])
		if err != nil {
			return err
		}
		ms := make([]member, 0, len(c))
		for k, m := range c {
			ms = append(ms, member{k, m})
			nd := &b.nodes[k]
			for _, p := range nd.props {
				b.root(p)
			}
			for _, set := range [][]int{nd.objAll, nd.objOther, nd.prefix, nd.arrAll, nd.arrRest, nd.names, nd.content} {
				for _, t := range set {
					b.root(t)
				}
			}
		}
		slices.SortFunc(ms, func(a, b member) int { return a.node - b.node })
		b.cl = append(b.cl, ms)
	}
	return nil
}

// root makes node n a position root, once.
func (b *Bound) root(n int) {
	if _, ok := b.pos[n]; !ok {
		b.pos[n] = len(b.roots)
		b.roots = append(b.roots, n)
	}
}

// closureWalk computes in-place closures: each node the validator walks
// at one instance position from a node, with how many paths reach it.
type closureWalk struct {
	b      *Bound
	cyclic []bool        // on an in-place cycle: not memoised
	memo   []map[int]int // closures computed, by node
	onPath []bool        // on the walk's current path
}

// walk returns the closure of node n.
func (w *closureWalk) walk(n int) (map[int]int, error) {
	if w.memo[n] != nil {
		return w.memo[n], nil
	}
	out := map[int]int{n: 1}
	w.onPath[n] = true
	defer func() { w.onPath[n] = false }()
	for _, t := range w.b.nodes[n].inPlace {
		c, err := w.sub(t)
		if err == nil {
			err = w.merge(out, c)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, group := range w.b.nodes[n].oneOf {
		// One target is taken: the pointwise maximum bounds each.
		most := map[int]int{}
		for _, t := range group {
			c, err := w.sub(t)
			if err != nil {
				return nil, err
			}
			if err := w.b.spend(len(c)); err != nil {
				return nil, err
			}
			for k, m := range c {
				most[k] = max(most[k], m)
			}
		}
		if err := w.merge(out, most); err != nil {
			return nil, err
		}
	}
	if !w.cyclic[n] {
		w.memo[n] = out
	}
	return out, nil
}

// sub is what the validator walks from t (one visit when it reports a
// cycle there).
func (w *closureWalk) sub(t int) (map[int]int, error) {
	if w.onPath[t] {
		return map[int]int{t: 1}, nil
	}
	return w.walk(t)
}

// merge adds the paths of from to out, and refuses a closure whose paths
// add up past the limit.
func (w *closureWalk) merge(out, from map[int]int) error {
	b := w.b
	if err := b.spend(len(from)); err != nil {
		return err
	}
	total := 0
	for k, m := range from {
		out[k] = satAdd(out[k], m, b.limit)
	}
	if err := b.spend(len(out)); err != nil {
		return err
	}
	for _, m := range out {
		total = satAdd(total, m, b.limit)
	}
	if total > b.limit {
		return fmt.Errorf("%w: over %d at one instance position (MaxVisits, max_visits); look for references that fan out through anyOf, allOf or oneOf", ErrTooComplex, b.limit)
	}
	return nil
}

// inPlaceCycles marks the nodes on a cycle of in-place edges (Tarjan's
// strongly connected components, iterative).
func inPlaceCycles(nodes []schemaNode) []bool {
	succ := make([][]int, len(nodes))
	for i, n := range nodes {
		succ[i] = slices.Clone(n.inPlace)
		for _, g := range n.oneOf {
			succ[i] = append(succ[i], g...)
		}
	}
	cyc := make([]bool, len(nodes))
	index := make([]int, len(nodes))
	low := make([]int, len(nodes))
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, len(nodes))
	var stack []int
	next := 0
	type frame struct{ n, e int }
	for s := range nodes {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		onStack[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.e < len(succ[f.n]) {
				t := succ[f.n][f.e]
				f.e++
				if t == f.n {
					cyc[t] = true
				}
				if index[t] < 0 {
					index[t], low[t] = next, next
					next++
					stack = append(stack, t)
					onStack[t] = true
					call = append(call, frame{t, 0})
				} else if onStack[t] {
					low[f.n] = min(low[f.n], index[t])
				}
				continue
			}
			n := f.n
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].n
				low[p] = min(low[p], low[n])
			}
			if low[n] == index[n] {
				size := 0
				for {
					t := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[t] = false
					size++
					if size > 1 || t != n {
						cyc[t] = true
					}
					if t == n {
						break
					}
				}
				if size > 1 {
					cyc[n] = true
				}
			}
		}
	}
	return cyc
}

// extend computes the bounds one instance level deeper. b.mu is held (or
// b is not yet shared). Sums are float64: they only need to be compared
// with the limit, and a member named in one node but not another needs a
// difference, which saturating integers would get wrong.
func (b *Bound) extend() error {
	v := func(n int) float64 { return float64(b.last[b.pos[n]]) }
	sum := func(ns []int) float64 {
		s := 0.0
		for _, n := range ns {
			s += v(n)
		}
		return s
	}
	next := make([]int, len(b.roots))
	keyed := map[string]float64{}
	var idx []float64
	for r, c := range b.cl {
		if err := b.spend(len(c)); err != nil {
			return err
		}
		var objOther, arrOther, names, content float64
		clear(keyed)
		idx = idx[:0]
		for _, m := range c {
			nd := &b.nodes[m.node]
			mult := float64(m.mult)
			other := sum(nd.objOther)
			objOther += mult * (sum(nd.objAll) + other)
			for k, p := range nd.props {
				// A named member gets this node's property schema, not
				// its additionalProperties: objOther counted the latter.
				keyed[k] += mult * (v(p) - other)
			}
			rest := sum(nd.arrRest)
			arrOther += mult * (sum(nd.arrAll) + rest)
			for i, p := range nd.prefix {
				for len(idx) <= i {
					idx = append(idx, 0)
				}
				idx[i] += mult * (v(p) - rest)
			}
			names += mult * sum(nd.names)
			content += mult * sum(nd.content)
			if err := b.spend(len(nd.props) + len(nd.prefix)); err != nil {
				return err
			}
		}
		best := max(objOther, arrOther, names, content)
		for _, d := range keyed {
			best = max(best, objOther+d)
		}
		for _, d := range idx {
			best = max(best, arrOther+d)
		}
		// Round up: float error must not let a bound slip under the limit.
		next[r] = int(min(math.Ceil(best), float64(b.limit+1)))
	}
	b.done = slices.Equal(next, b.last)
	b.last = next
	b.at = append(b.at, next[0])
	return nil
}

// Check refuses an instance whose worst-case validation work passes
// MaxWork, or when ctx ends while the table is extended: the work is
// the sum over the instance's levels of its positions there times the
// bound there.
func (b *Bound) Check(ctx context.Context, v any) error {
	var buf [16]int
	perLevel := shape(v, 0, buf[:0])
	t := b.table.Load()
	if len(perLevel) > len(t.at) && !t.done {
		b.mu.Lock()
		for len(perLevel) > len(b.at) && !b.done {
			if err := ctx.Err(); err != nil {
				b.mu.Unlock()
				return err
			}
			if err := b.extend(); err != nil {
				b.mu.Unlock()
				return err
			}
		}
		b.publish()
		t = b.table.Load()
		b.mu.Unlock()
	}
	work := 0
	for d, positions := range perLevel {
		per := t.at[min(d, len(t.at)-1)]
		if per > b.limit {
			return fmt.Errorf("%w: more than %d at one position %d levels down in this instance (MaxVisits, max_visits)", ErrTooComplex, b.limit, d)
		}
		work = satAdd(work, satMul(positions, per, MaxWork), MaxWork)
	}
	if work > MaxWork {
		return fmt.Errorf("%w: this instance's %d levels could take over %d visits in all, the budget per output", ErrTooComplex, len(perLevel), MaxWork)
	}
	return nil
}

// SafeLength returns the longest instance text whose work
// [Bound.Check] cannot refuse: every value takes at least one byte,
// so a text of n bytes has at most n positions. It is 0 when the bound
// may still grow with depth.
func (b *Bound) SafeLength() int {
	t := b.table.Load()
	if !t.done {
		return 0
	}
	most := 1
	for _, per := range t.at {
		if per > b.limit {
			return 0
		}
		most = max(most, per)
	}
	return MaxWork / most
}

// boundTable is a published, immutable copy of the root's bounds per
// level, read without the lock.
type boundTable struct {
	at   []int
	done bool
}

// publish copies the bounds for lock-free readers; b.mu is held (or b is
// not yet shared).
func (b *Bound) publish() {
	b.table.Store(&boundTable{at: slices.Clone(b.at), done: b.done})
}

// shape appends to counts the number of positions at each level of a
// decoded instance (counts[0] is 1, the root).
func shape(v any, depth int, counts []int) []int {
	if depth == len(counts) {
		counts = append(counts, 0)
	}
	counts[depth]++
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			counts = shape(e, depth+1, counts)
		}
	case []any:
		for _, e := range x {
			counts = shape(e, depth+1, counts)
		}
	}
	return counts
}
