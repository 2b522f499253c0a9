// Package ngram numbers tokens and n-grams densely so that n-gram counts
// can be kept in slices rather than maps keyed by tuples: an n-gram's id
// is found from the id of its (n-1)-gram prefix and its last token, and
// ids of every order share one space, so they never collide.
package ngram

import "sync"

// Table numbers tokens and n-grams. A Table is not safe for concurrent use;
// get one from [Get] and return it with [Put].
type Table struct {
	tok  map[string]int32
	ng   map[uint64]int32
	next int32
	buf  []int32
}

var pool = sync.Pool{New: func() any {
	return &Table{tok: map[string]int32{}, ng: map[uint64]int32{}}
}}

// Get returns an empty Table from a pool.
func Get() *Table { return pool.Get().(*Table) }

// Put clears t and returns it to the pool.
func Put(t *Table) {
	clear(t.tok)
	clear(t.ng)
	t.next = 0
	pool.Put(t)
}

// Len returns the number of ids given out: every id is below it.
func (t *Table) Len() int { return int(t.next) }

// Token returns the id of token s.
func (t *Table) Token(s string) int32 {
	if id, ok := t.tok[s]; ok {
		return id
	}
	id := t.next
	t.next++
	t.tok[s] = id
	return id
}

// Tokens appends the ids of toks to dst.
func (t *Table) Tokens(dst []int32, toks []string) []int32 {
	for _, s := range toks {
		dst = append(dst, t.Token(s))
	}
	return dst
}

func (t *Table) extend(prefix, last int32) int32 {
	k := uint64(uint32(prefix))<<32 | uint64(uint32(last))
	if id, ok := t.ng[k]; ok {
		return id
	}
	id := t.next
	t.next++
	t.ng[k] = id
	return id
}

// Each calls f with the order and id of every n-gram of ids with
// minN <= order <= maxN, order by order.
func (t *Table) Each(ids []int32, minN, maxN int, f func(n int, id int32)) {
	cur := append(t.buf[:0], ids...)
	for n := 1; n <= maxN && len(cur) > 0; n++ {
		if n > 1 {
			// cur[i] is the id of the (n-1)-gram at i; extend it by ids[i+n-1].
			for i := 0; i+n-1 < len(ids); i++ {
				cur[i] = t.extend(cur[i], ids[i+n-1])
			}
			cur = cur[:len(ids)-n+1]
		}
		if n >= minN {
			for _, id := range cur {
				f(n, id)
			}
		}
	}
	t.buf = cur[:0]
}
