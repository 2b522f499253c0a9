// Package embedcache keeps the embeddings an embedder returned: a bounded
// FIFO cache with per-text coalescing and batching, in front of any
// provider with proctor's EmbeddingProvider method. The Compiler's shared
// embedder (proctor.WithEmbedder) and the semantic_similarity grader's own
// (package similarity) are built with it.
package embedcache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/proctorhq/proctor/internal/fifo"
)

// Provider turns texts into vectors: proctor.EmbeddingProvider's method.
type Provider interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Size bounds the number of texts whose embeddings are kept.
const Size = 8192

// Cache wraps a provider with a bounded FIFO cache and per-text
// coalescing: a text is requested once however many graders want it at the
// same time, while the texts one caller needs still go to the provider in
// batches. (singleflight.Group coalesces whole keys, so a caller needing
// texts a, b, c would not join a request already under way for a alone.)
// A Cache is itself a Provider and safe for concurrent use.
type Cache struct {
	p        Provider
	errCount error
	batch    int // 0: no limit

	mu       sync.Mutex
	cache    *fifo.Map[string, []float32]
	inflight map[string]*embedCall
}

// embedCall is one text being embedded: done is closed when vec or err is
// set.
type embedCall struct {
	done chan struct{}
	vec  []float32
	err  error
}

// New returns a cache in front of p, which takes at most MaxBatch texts a
// call when it has that method. A reply with a number of vectors other
// than the number of texts asked is an error wrapping errCount.
func New(p Provider, errCount error) *Cache {
	c := &Cache{p: p, errCount: errCount,
		cache: fifo.New[string, []float32](Size), inflight: make(map[string]*embedCall)}
	if b, ok := p.(interface{ MaxBatch() int }); ok && b.MaxBatch() > 0 {
		c.batch = b.MaxBatch()
	}
	return c
}

func (c *Cache) put(text string, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache.Put(text, v)
}

// Embed returns the vectors of texts: from the cache, from a request
// another caller already has under way, or from the provider, asked in
// batches for the texts nobody else is fetching. When the caller whose
// request it joined gives up (its context ended) and ctx has not, it asks
// again.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for {
		var (
			own    []string
			ownIdx []int
			wait   = map[int]*embedCall{}
		)
		c.mu.Lock()
		for i, t := range texts {
			if out[i] != nil {
				continue
			}
			if v, ok := c.cache.Get(t); ok {
				out[i] = v
			} else if call, ok := c.inflight[t]; ok {
				wait[i] = call
			} else if k := slices.Index(own, t); k >= 0 {
				ownIdx = append(ownIdx, i) // a duplicate of a text this call fetches
			} else {
				c.inflight[t] = &embedCall{done: make(chan struct{})}
				own = append(own, t)
				ownIdx = append(ownIdx, i)
			}
		}
		c.mu.Unlock()
		if len(own) > 0 {
			vecs, err := c.fetch(ctx, own)
			if err != nil {
				return nil, err
			}
			for _, i := range ownIdx {
				out[i] = vecs[slices.Index(own, texts[i])]
			}
		}
		retry := false
		for i, call := range wait {
			select {
			case <-call.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if call.err != nil {
				if (errors.Is(call.err, context.Canceled) || errors.Is(call.err, context.DeadlineExceeded)) && ctx.Err() == nil {
					retry = true // the caller that fetched it gave up; ask again
					continue
				}
				return nil, call.err
			}
			out[i] = call.vec
		}
		if !retry {
			return out, nil
		}
	}
}

// settle records the outcome for texts this caller was fetching, caches
// the vectors, and wakes whoever waits for them.
func (c *Cache) settle(texts []string, vecs [][]float32, err error) {
	for k, t := range texts {
		if err == nil {
			c.put(t, vecs[k])
		}
		c.mu.Lock()
		call := c.inflight[t]
		delete(c.inflight, t)
		c.mu.Unlock()
		if call != nil {
			if err == nil {
				call.vec = vecs[k]
			}
			call.err = err
			close(call.done)
		}
	}
}

// fetch asks the provider for texts, batch by batch, and caches the
// answers. A panicking provider is an error, not a crash.
func (c *Cache) fetch(ctx context.Context, texts []string) (vecs [][]float32, err error) {
	defer func() {
		if r := recover(); r != nil {
			vecs, err = nil, fmt.Errorf("proctor: embedder panicked: %v", r)
		}
	}()
	step := len(texts)
	if c.batch > 0 {
		step = c.batch
	}
	out := make([][]float32, 0, len(texts))
	done := 0
	defer func() {
		// Whatever was not fetched (an error, a panic) fails for those
		// waiting on it too.
		if done < len(texts) {
			if err == nil {
				err = errors.New("proctor: embedding stopped")
			}
			c.settle(texts[done:], nil, err)
		}
	}()
	for i := 0; i < len(texts); i += step {
		chunk := texts[i:min(i+step, len(texts))]
		v, err := c.call(ctx, chunk)
		if err != nil {
			return nil, err
		}
		c.settle(chunk, v, nil)
		done += len(chunk)
		out = append(out, v...)
	}
	return out, nil
}

func (c *Cache) call(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := c.p.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(v) != len(texts) {
		return nil, fmt.Errorf("%w: %d for %d texts", c.errCount, len(v), len(texts))
	}
	return v, nil
}
