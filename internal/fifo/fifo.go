// Package fifo is a map of bounded size that forgets its oldest entries
// first, for the caches of graders (embeddings, compiled patterns).
package fifo

// Map holds at most its bound of entries; adding one past it drops the
// entry added first. It does no locking: callers that share one guard it.
type Map[K comparable, V any] struct {
	max   int
	m     map[K]V
	order []K // keys in insertion order, a ring once full
	next  int // the ring slot to overwrite next
}

// New returns an empty Map of at most n entries (at least 1).
func New[K comparable, V any](n int) *Map[K, V] {
	return &Map[K, V]{max: max(n, 1), m: make(map[K]V)}
}

// Get returns the value of k and whether it is held.
func (c *Map[K, V]) Get(k K) (V, bool) {
	v, ok := c.m[k]
	return v, ok
}

// Put adds k with v unless k is held already, in which case the first
// value is kept; past the bound it drops the oldest entry.
func (c *Map[K, V]) Put(k K, v V) {
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) < c.max {
		c.order = append(c.order, k)
	} else {
		delete(c.m, c.order[c.next])
		c.order[c.next] = k
		c.next = (c.next + 1) % c.max
	}
	c.m[k] = v
}

// Len returns the number of entries held.
func (c *Map[K, V]) Len() int { return len(c.m) }
