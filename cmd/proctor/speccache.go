package main

import (
	"bytes"
	"container/list"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/proctorhq/proctor"
)

// allowAll admits every compiled spec (proctor grade runs what it is given).
func allowAll([]byte, proctor.Check) error { return nil }

// cachedCheck is a compiled spec shared by requests. Graders that hold
// resources (python workers) are closed when the last user releases an
// entry the cache has dropped.
type cachedCheck struct {
	check proctor.Check
	mu    sync.Mutex
	refs  int // users, plus one while the cache holds it
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
	}
}

// closeGrader closes ch's grader when it holds resources (io.Closer).
func closeGrader(ch proctor.Check) { _ = proctor.CloseChecks([]proctor.Check{ch}) }

// maxCachedSpec is the largest spec (compact JSON bytes) the cache keeps.
const maxCachedSpec = 64 << 10

// specCache is a bounded LRU of compiled specs keyed by compact JSON.
type specCache struct {
	mu    sync.Mutex
	max   int
	ll    *list.List // of *cacheEntry, most recent first
	m     map[string]*list.Element
	comp  *proctor.Compiler
	label string // names the spec in errors
	// allowed vets a compiled spec, given its compact JSON too; its error
	// is cached with the spec.
	allowed func(spec []byte, ch proctor.Check) error
}

type cacheEntry struct {
	key string
	cc  *cachedCheck
	err error
}

func newSpecCache(max int, label string, comp *proctor.Compiler, allowed func([]byte, proctor.Check) error) *specCache {
	return &specCache{max: max, label: label, ll: list.New(), m: map[string]*list.Element{}, comp: comp, allowed: allowed}
}

// get returns the compiled spec, acquired for the caller, or the error it
// compiled to (errors are cached too, so a bad spec is not recompiled).
func (c *specCache) get(spec json.RawMessage) (*cachedCheck, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, spec); err != nil {
		return nil, fmt.Errorf("grader spec is not JSON: %w", err)
	}
	key := b.String()
	if len(key) > maxCachedSpec {
		// Too big to keep: compiled for this request alone.
		ch, err := c.comp.CompileAs(c.label, []byte(key))
		if err == nil {
			err = c.allowed([]byte(key), ch)
		}
		if err != nil {
			closeGrader(ch)
			return nil, err
		}
		return &cachedCheck{check: ch, refs: 1}, nil
	}
	c.mu.Lock()
	if el, ok := c.m[key]; ok {
		c.ll.MoveToFront(el)
		e := el.Value.(*cacheEntry)
		if e.cc != nil {
			e.cc.acquire()
		}
		c.mu.Unlock()
		return e.cc, e.err
	}
	c.mu.Unlock()
	// Compile outside the lock; two requests may compile the same spec,
	// and the second result is then dropped.
	e := &cacheEntry{key: key}
	ch, err := c.comp.CompileAs(c.label, []byte(key))
	if err == nil {
		err = c.allowed([]byte(key), ch)
		if err != nil {
			closeGrader(ch)
		}
	}
	if err != nil {
		e.err = err
	} else {
		e.cc = &cachedCheck{check: ch, refs: 1}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[key]; ok {
		if e.cc != nil {
			e.cc.release()
		}
		e = el.Value.(*cacheEntry)
		c.ll.MoveToFront(el)
	} else {
		c.m[key] = c.ll.PushFront(e)
		for c.ll.Len() > c.max {
			old := c.ll.Remove(c.ll.Back()).(*cacheEntry)
			delete(c.m, old.key)
			if old.cc != nil {
				old.cc.release()
			}
		}
	}
	if e.cc != nil {
		e.cc.acquire()
	}
	return e.cc, e.err
}

// closeAll drops every entry, closing graders nobody is using.
func (c *specCache) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.ll.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*cacheEntry); e.cc != nil {
			e.cc.release()
		}
	}
	c.ll.Init()
	c.m = map[string]*list.Element{}
}
