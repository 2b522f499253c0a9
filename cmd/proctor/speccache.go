package main

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/proctorhq/proctor"
)

// allowAll admits every compiled spec (proctor grade runs what it is given).
func allowAll([]byte, proctor.Check) error { return nil }

// cachedCheck is a compiled spec shared by requests. Graders that hold
// resources (python workers) are closed when the last user releases an
// entry the cache has dropped; its cost then leaves the cache's account.
type cachedCheck struct {
	check  proctor.Check
	work   []workRate // what its grades cost in working memory (specWork)
	mu     sync.Mutex
	refs   int // users, plus one while the cache holds it
	onLast func()
}

func (c *cachedCheck) acquire() {
	c.mu.Lock()
	c.refs++
	c.mu.Unlock()
}

func (c *cachedCheck) release() {
	c.mu.Lock()
	c.refs--
	last := c.refs == 0
	c.mu.Unlock()
	if last {
		closeGrader(c.check)
		if c.onLast != nil {
			c.onLast()
		}
	}
}

// drop is release for the cache, which may hold its lock: it reports
// whether this was the last reference, and the caller then closes the
// grader (outside its lock) and settles the cost itself.
func (c *cachedCheck) drop() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs--
	return c.refs == 0
}

// closeGrader closes ch's grader when it holds resources (io.Closer).
func closeGrader(ch proctor.Check) { _ = proctor.CloseChecks([]proctor.Check{ch}) }

// Bounds of the spec cache, by default.
const (
	// maxCachedSpec is the largest spec (compact JSON bytes) the cache
	// keeps; a bigger one is compiled for its line alone (proctor grade).
	maxCachedSpec = 64 << 10
	// defaultMaxSpec is the largest spec (compact JSON bytes) a request
	// may carry: compile work grows with size, and fast (a 60 KB
	// json_schema spec of bounded-repeat patterns allocates 1.5 GB and
	// keeps 110 MB), so a spec is bounded before it compiles.
	defaultMaxSpec = 64 << 10
	// defaultCacheBytes bounds what the compiled specs of proctor serve
	// cost together, cached or in use: each counts its text plus what its
	// compilation allocated.
	defaultCacheBytes = 256 << 20
)

// specTooLargeError is a spec over the size limit (what "size"), or one
// whose compilation allocated more than the cache allows one spec (what
// "compile").
type specTooLargeError struct {
	what        string
	size, limit int64
}

func (e *specTooLargeError) Error() string {
	if e.what == "compile" {
		return fmt.Sprintf("compiling the grader spec allocated %d bytes, over the limit of %d (half the compiled-spec budget)", e.size, e.limit)
	}
	return fmt.Sprintf("grader spec is %d bytes of compact JSON, over the limit of %d", e.size, e.limit)
}

// cacheFullError is a compiled spec that does not fit the budget while
// other requests use what it holds: retry later.
type cacheFullError struct{ cost, used, limit int64 }

func (e *cacheFullError) Error() string {
	return fmt.Sprintf("server busy: the grader spec costs %d bytes compiled and the specs in use take %d of %d", e.cost, e.used, e.limit)
}

// specCache is a bounded LRU of compiled specs keyed by compact JSON.
//
// It is bounded in entries and in bytes. An entry costs its key plus the
// bytes its compilation allocated, measured over the compile; the figure
// can only be too high (other goroutines' allocations in the meantime
// count too), never too low. A spec refused because its compile allocated
// too much is cached as a refusal (at the cost of its key) only when no
// other compile ran alongside it; every other refusal is cached as it is. With strict set
// (proctor serve), used counts every compiled spec alive, cached or still
// in use after eviction, and never passes maxBytes: a spec that does not
// fit is refused. Without it (proctor grade), a spec that does not fit is
// compiled for its caller alone. Specs over maxSpec bytes are refused
// before they compile.
type specCache struct {
	mu       sync.Mutex
	max      int   // entries
	maxBytes int64 // summed cost of the live compiled specs
	maxSpec  int   // largest spec compiled, compact JSON bytes
	strict   bool
	used     atomic.Int64
	ll       *list.List // of *cacheEntry, most recent first
	m        map[string]*list.Element
	comp     *proctor.Compiler
	label    string // names the spec in errors
	// allowed vets a compiled spec, given its compact JSON too; its error
	// is cached with the spec.
	allowed func(spec []byte, ch proctor.Check) error
	// precheck, when set, vets a spec (compact JSON) before it compiles;
	// its error is returned as it is, and not cached.
	precheck func(spec []byte) error
	// compiling holds a token per compile running (compileLanes at most);
	// starts counts compiles begun and running those not yet ended, so a
	// compile can tell whether its allocation figure is its own.
	compiling chan struct{}
	starts    atomic.Int64
	running   atomic.Int64
	// maxWorkers, when positive, bounds the cached specs that run python
	// workers, apart from every other bound: workers holds them, most
	// recently used first, and the least recently used past the bound is
	// dropped from the cache (its workers stop once no line uses it).
	maxWorkers int
	workers    *list.List // of *cacheEntry
}

type cacheEntry struct {
	key  string
	cc   *cachedCheck
	err  error
	cost int64
	wel  *list.Element // in workers, when the spec runs python workers
}

// runsWorkers reports whether a compiled spec (compact JSON) may run
// python worker processes: it names the type python at any depth. (A
// value that merely reads "type":"python" counts too: fail-safe.)
func runsWorkers(key string) bool { return strings.Contains(key, `"type":"python"`) }

func newSpecCache(max int, label string, comp *proctor.Compiler, allowed func([]byte, proctor.Check) error) *specCache {
	return &specCache{max: max, maxBytes: defaultCacheBytes, maxSpec: maxCachedSpec, label: label, ll: list.New(),
		m: map[string]*list.Element{}, comp: comp, allowed: allowed, compiling: make(chan struct{}, compileLanes), workers: list.New()}
}

// heapAllocs reads the bytes allocated on the heap so far.
func heapAllocs() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// compileLanes is how many specs compile at once. One request compiles
// one spec at a time, so no request holds every lane.
const compileLanes = 2

// compiled is what one compile produced: the grader (acquired once for the
// cache), its cost, and whether no other compile ran alongside it (so that
// cost is its own alone).
type compiled struct {
	cc    *cachedCheck
	cost  int64
	err   error
	alone bool
}

// compile compiles and vets key in one of the compile lanes (waiting for
// one until ctx ends) under ctx, and returns what it cost: len(key) plus
// the bytes allocated meanwhile. A cost of 0 means nothing was compiled.
// When ctx ends first, the caller gets ctx's error at once, and the
// compile, bounded by the limits every spec type keeps, ends on its own
// and frees its lane.
func (c *specCache) compile(ctx context.Context, key string) compiled {
	select {
	case c.compiling <- struct{}{}:
	case <-ctx.Done():
		return compiled{err: fmt.Errorf("waiting to compile the grader spec: %w", ctx.Err())}
	}
	h := &handoff{ch: make(chan compiled, 1)}
	go func() {
		defer func() { <-c.compiling }()
		h.give(c.compileHeld(ctx, key))
	}()
	return h.take(ctx)
}

// compileHeld is compile inside its lane.
func (c *specCache) compileHeld(ctx context.Context, key string) compiled {
	gen := c.starts.Add(1)
	c.running.Add(1)
	defer c.running.Add(-1)
	before := heapAllocs()
	ch, err := c.comp.CompileContext(ctx, c.label, []byte(key))
	if err == nil {
		err = c.allowed([]byte(key), ch)
		if err != nil {
			closeGrader(ch)
		}
	}
	alone := c.starts.Load() == gen && c.running.Load() == 1
	if err != nil {
		return compiled{cost: int64(len(key)), err: err, alone: alone}
	}
	return compiled{cc: &cachedCheck{check: ch, refs: 1, work: specWork(key)}, cost: int64(len(key)) + max(heapAllocs()-before, 0), alone: alone}
}

// compileUnder compiles spec under ctx, returning at once when ctx ends
// (the first SIGINT of proctor grade): the compile then ends on its own,
// within the compile limits, and its grader is closed.
func compileUnder(ctx context.Context, comp *proctor.Compiler, label string, spec []byte) (proctor.Check, error) {
	h := &handoff{ch: make(chan compiled, 1)}
	go func() {
		ch, err := comp.CompileContext(ctx, label, spec)
		r := compiled{err: err}
		if err == nil {
			r.cc = &cachedCheck{check: ch, refs: 1}
		}
		h.give(r)
	}()
	r := h.take(ctx)
	if r.cc == nil {
		return proctor.Check{}, r.err
	}
	return r.cc.check, nil
}

// handoff passes a compile's result to the request waiting for it, or,
// once that request has stopped waiting, releases the grader.
type handoff struct {
	mu   sync.Mutex
	gone bool
	ch   chan compiled
}

func (h *handoff) give(r compiled) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gone {
		if r.cc != nil {
			r.cc.release()
		}
		return
	}
	h.ch <- r
}

func (h *handoff) take(ctx context.Context) compiled {
	select {
	case r := <-h.ch:
		return r
	case <-ctx.Done():
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case r := <-h.ch:
		return r
	default:
		h.gone = true
		return compiled{err: fmt.Errorf("compiling the grader spec: %w", ctx.Err())}
	}
}

// get returns the compiled spec, acquired for the caller, or the error it
// compiled to (errors are cached too, so a bad spec is not recompiled).
// A spec is compiled only when not cached, one at a time; ctx bounds the
// wait for that.
func (c *specCache) get(ctx context.Context, spec json.RawMessage) (*cachedCheck, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, spec); err != nil {
		return nil, fmt.Errorf("grader spec is not JSON: %w", err)
	}
	key := b.String()
	if len(key) > c.maxSpec {
		return nil, &specTooLargeError{what: "size", size: int64(len(key)), limit: int64(c.maxSpec)}
	}
	keep := len(key) <= maxCachedSpec || c.strict
	if keep {
		c.mu.Lock()
		if el, ok := c.m[key]; ok {
			cc, err := c.hitLocked(el)
			c.mu.Unlock()
			return cc, err
		}
		c.mu.Unlock()
	}
	if c.precheck != nil {
		if err := c.precheck([]byte(key)); err != nil {
			return nil, err
		}
	}
	// Compile outside the lock; two requests may compile the same spec,
	// and the second result is then dropped.
	r := c.compile(ctx, key)
	if r.cost == 0 || errors.Is(r.err, context.Canceled) || errors.Is(r.err, context.DeadlineExceeded) {
		return nil, r.err // nothing compiled, or stopped: not the spec's verdict
	}
	r, cacheable := c.overBudget(r, key)
	if !cacheable {
		return nil, r.err
	}
	cc, cost, err := r.cc, r.cost, r.err
	if !keep || (!c.strict && cost > c.maxBytes/4) {
		return cc, err // compiled for this caller alone
	}
	return c.insert(key, cc, cost, err)
}

// insert caches what key compiled to (cc, or err) at cost, evicting the
// least recently used entries to make room, and returns the entry
// acquired for the caller; when a request that compiled the same spec
// has cached it first, its entry is returned and cc released.
func (c *specCache) insert(key string, cc *cachedCheck, cost int64, err error) (*cachedCheck, error) {
	e := &cacheEntry{key: key, cc: cc, err: err, cost: cost}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[key]; ok {
		if cc != nil {
			cc.release()
		}
		return c.hitLocked(el)
	}
	var closing []*cachedCheck
	defer func() {
		for _, cc := range closing {
			closeGrader(cc.check)
		}
	}()
	for c.ll.Len() > 0 && (c.ll.Len() >= c.max || c.used.Load()+cost > c.maxBytes) {
		if cc := c.evictLocked(); cc != nil {
			closing = append(closing, cc)
		}
	}
	if used := c.used.Load(); used+cost > c.maxBytes {
		if cc != nil {
			cc.drop()
			closing = append(closing, cc)
		}
		return nil, &cacheFullError{cost: cost, used: used, limit: c.maxBytes}
	}
	c.used.Add(cost)
	if cc != nil {
		cc.onLast = func() { c.used.Add(-cost) }
		cc.acquire()
	}
	c.m[key] = c.ll.PushFront(e)
	if c.maxWorkers > 0 && e.cc != nil && runsWorkers(key) {
		e.wel = c.workers.PushFront(e)
		for c.workers.Len() > c.maxWorkers {
			if cc := c.removeLocked(c.workers.Back().Value.(*cacheEntry)); cc != nil {
				closing = append(closing, cc)
			}
		}
	}
	return e.cc, e.err
}

// overBudget turns a strict cache's compile that allocated more than half
// its budget into a refusal, releasing the grader. The refusal is cached
// at the cost of its key when the figure was the compile's alone; when
// another compile ran alongside (the figure may include its allocations)
// cacheable is false.
func (c *specCache) overBudget(r compiled, key string) (_ compiled, cacheable bool) {
	if !c.strict || r.cost <= c.maxBytes/2 {
		return r, true
	}
	if r.cc != nil {
		r.cc.release()
	}
	r.cc, r.err = nil, &specTooLargeError{what: "compile", size: r.cost, limit: c.maxBytes / 2}
	r.cost = int64(len(key))
	return r, r.alone
}

// hitLocked returns the cached entry at el, acquired for the caller, and
// marks it the most recently used.
func (c *specCache) hitLocked(el *list.Element) (*cachedCheck, error) {
	c.ll.MoveToFront(el)
	e := el.Value.(*cacheEntry)
	if e.wel != nil {
		c.workers.MoveToFront(e.wel)
	}
	if e.cc != nil {
		e.cc.acquire()
	}
	return e.cc, e.err
}

// evictLocked drops the least recently used entry. A compiled spec's cost
// stays counted until its last user releases it; when the cache held the
// last reference, the grader is returned for the caller to close once it
// has let go of the lock.
func (c *specCache) evictLocked() *cachedCheck {
	return c.removeLocked(c.ll.Back().Value.(*cacheEntry))
}

// removeLocked drops old from the cache, as evictLocked does.
func (c *specCache) removeLocked(old *cacheEntry) *cachedCheck {
	c.ll.Remove(c.m[old.key])
	delete(c.m, old.key)
	if old.wel != nil {
		c.workers.Remove(old.wel)
		old.wel = nil
	}
	if old.cc == nil {
		c.used.Add(-old.cost)
		return nil
	}
	if old.cc.drop() {
		c.used.Add(-old.cost)
		return old.cc
	}
	return nil
}

// closeAll drops every entry, closing graders nobody is using.
func (c *specCache) closeAll() {
	c.mu.Lock()
	var closing []*cachedCheck
	for c.ll.Len() > 0 {
		if cc := c.evictLocked(); cc != nil {
			closing = append(closing, cc)
		}
	}
	c.mu.Unlock()
	for _, cc := range closing {
		closeGrader(cc.check)
	}
}
