package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/fifo"
	"github.com/proctorhq/proctor/internal/kit"
)

// EmbeddingProvider turns texts into vectors for [SemanticSimilarity].
//
// Embed returns exactly len(texts) vectors, the i-th for texts[i], all of
// the same dimension; it honours ctx's cancellation. Implementations must
// be safe for concurrent use. proctor treats the returned slices as
// read-only and may keep them (it caches embeddings by text).
type EmbeddingProvider interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// BatchEmbedder is implemented by an [EmbeddingProvider] that takes at
// most MaxBatch texts per Embed call; proctor splits larger requests. A
// provider without it is given every text of a request at once.
type BatchEmbedder interface {
	MaxBatch() int
}

// embedConfig holds what similarity graders are given. Owned by similarity.go.
type embedConfig struct {
	embedShared *cachedEmbedder // nil: the lexical embedder
}

// WithEmbedder sets the [EmbeddingProvider] that semantic_similarity specs
// use. Without it (or with nil) they use the built-in [LexicalEmbedder],
// which needs no network and says so in its reasons. The embeddings of a
// text are requested once per Compiler and kept in a bounded cache;
// identical concurrent requests are coalesced.
func WithEmbedder(e EmbeddingProvider) CompilerOption {
	return compilerOption(func(c *config) {
		if e == nil {
			c.embedShared = nil
			return
		}
		c.embedShared = newCachedEmbedder(e)
	})
}

// embedder returns the configured embedder, or the lexical one.
func (c *embedConfig) embedder() *cachedEmbedder {
	if c.embedShared != nil {
		return c.embedShared
	}
	return newCachedEmbedder(nil)
}

// embedCacheSize bounds the number of texts whose embeddings are kept.
const embedCacheSize = 8192

// ErrEmbeddingCount is returned (wrapped) when a provider returns a number
// of vectors other than the number of texts it was given.
var ErrEmbeddingCount = errors.New("proctor: embedder returned the wrong number of vectors")

// cachedEmbedder wraps a provider with a bounded FIFO cache and per-text
// coalescing: a text is requested once however many graders want it at the
// same time, while the texts one caller needs still go to the provider in
// batches. (singleflight.Group coalesces whole keys, so a caller needing
// texts a, b, c would not join a request already under way for a alone.)
// The lexical embedder is used directly: it is cheaper to compute than to
// look up.
type cachedEmbedder struct {
	p       EmbeddingProvider
	lexical bool
	batch   int // 0: no limit

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

func newCachedEmbedder(p EmbeddingProvider) *cachedEmbedder {
	if p == nil {
		p = LexicalEmbedder{}
	}
	c := &cachedEmbedder{p: p}
	switch p.(type) {
	case LexicalEmbedder, *LexicalEmbedder:
		c.lexical = true
	default:
		c.cache = fifo.New[string, []float32](embedCacheSize)
		c.inflight = make(map[string]*embedCall)
	}
	if b, ok := p.(BatchEmbedder); ok && b.MaxBatch() > 0 {
		c.batch = b.MaxBatch()
	}
	return c
}

func (c *cachedEmbedder) put(text string, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache.Put(text, v)
}

// embed returns the vectors of texts: from the cache, from a request
// another caller already has under way, or from the provider, asked in
// batches for the texts nobody else is fetching. When the caller whose
// request it joined gives up (its context ended) and ctx has not, it asks
// again.
func (c *cachedEmbedder) embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.lexical {
		return c.call(ctx, texts)
	}
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
func (c *cachedEmbedder) settle(texts []string, vecs [][]float32, err error) {
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
func (c *cachedEmbedder) fetch(ctx context.Context, texts []string) (vecs [][]float32, err error) {
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

func (c *cachedEmbedder) call(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := c.p.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(v) != len(texts) {
		return nil, fmt.Errorf("%w: %d for %d texts", ErrEmbeddingCount, len(v), len(texts))
	}
	return v, nil
}

// LexicalEmbedder is the built-in, offline [EmbeddingProvider]: each text
// becomes a deterministic 512-dimension vector of hashed lower-cased word
// unigrams, word bigrams and character trigrams, L2-normalised. Its cosine
// measures shared wording, not meaning. It needs no network and no model
// files; the zero value is ready to use and safe for concurrent use. A
// text with no letters or digits becomes the zero vector.
type LexicalEmbedder struct{}

// LexicalDim is the dimension of [LexicalEmbedder]'s vectors.
const LexicalDim = 512

var _ EmbeddingProvider = LexicalEmbedder{}

// Embed returns the lexical vectors of texts.
func (LexicalEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = lexicalVector(t)
	}
	return out, nil
}

// feature hashing: FNV-1a 64 over a kind byte and the feature's bytes.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func addFeature(v *[LexicalDim]float64, h uint64, w float64) {
	if h>>63 == 1 {
		w = -w
	}
	v[h%LexicalDim] += w
}

func lexicalVector(text string) []float32 {
	var v [LexicalDim]float64
	lower := strings.ToLower(text)
	var prev string
	for i := 0; i < len(lower); {
		r, n := utf8.DecodeRuneInString(lower[i:])
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			i += n
			continue
		}
		j := i
		for j < len(lower) {
			r, n := utf8.DecodeRuneInString(lower[j:])
			if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
				break
			}
			j += n
		}
		word := lower[i:j]
		addFeature(&v, fnvAdd(fnvAdd(fnvOffset, "w"), word), 1)
		if prev != "" {
			addFeature(&v, fnvAdd(fnvAdd(fnvAdd(fnvAdd(fnvOffset, "b"), prev), " "), word), 0.7)
		}
		prev = word
		// Character trigrams of " word ", so short words have some too.
		padded := " " + word + " "
		var starts [4]int
		k := 0
		for p := range padded {
			starts[k%4] = p
			k++
			if k >= 3 {
				a := starts[(k-3)%4]
				_, w := utf8.DecodeRuneInString(padded[p:])
				addFeature(&v, fnvAdd(fnvAdd(fnvOffset, "c"), padded[a:p+w]), 0.4)
			}
		}
		i = j
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, LexicalDim)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// SemanticSimilarityOptions configure [NewSemanticSimilarity]. The zero
// value compares with the sample's expected answer and references (best
// of) and passes at a cosine of 0.8.
type SemanticSimilarityOptions struct {
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the cosine to reach; nil means 0.8. Negative cosines
	// score 0.
	Threshold *float64
	// Name is shown in results; default "semantic_similarity".
	Name string
}

// SemanticSimilarity passes when the cosine of the embeddings of the
// output and the best reference reaches the threshold. An empty output
// fails. It is not graded when there is no reference, the embedder fails
// (the error is kept in [Grade.Err]), or a vector is empty, of another
// dimension than the output's, not finite or of zero norm. With the
// built-in [LexicalEmbedder] the reason says the similarity is lexical.
//
// Its kind is [KindNetwork] unless the embedder is the lexical one. A
// SemanticSimilarity is immutable and safe for concurrent use if its
// provider is.
type SemanticSimilarity struct {
	name      string
	e         *cachedEmbedder
	refs      []string
	threshold float64
}

var (
	_ Grader = (*SemanticSimilarity)(nil)
	_ Kinded = (*SemanticSimilarity)(nil)
)

// NewSemanticSimilarity returns a grader that embeds with e, through a
// bounded cache of its own; nil means the [LexicalEmbedder]. It returns an
// error for a Threshold outside [0, 1] (or NaN).
func NewSemanticSimilarity(e EmbeddingProvider, opts SemanticSimilarityOptions) (*SemanticSimilarity, error) {
	return newSemanticSimilarity(newCachedEmbedder(e), opts)
}

func newSemanticSimilarity(e *cachedEmbedder, opts SemanticSimilarityOptions) (*SemanticSimilarity, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.8)
	if err != nil {
		return nil, fmt.Errorf("proctor: semantic_similarity %w", err)
	}
	return &SemanticSimilarity{name: cmp.Or(opts.Name, "semantic_similarity"), e: e, refs: opts.References, threshold: th}, nil
}

// Name returns the grader's name.
func (g *SemanticSimilarity) Name() string { return g.name }

// GraderKind is KindNetwork, or KindDeterministic with the lexical
// embedder.
func (g *SemanticSimilarity) GraderKind() Kind {
	if g.e.lexical {
		return KindDeterministic
	}
	return KindNetwork
}

// Grade embeds s.Output and the references and compares them.
func (g *SemanticSimilarity) Grade(ctx context.Context, s *Sample) Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return NotGraded(noReference)
	}
	if strings.TrimSpace(s.Output) == "" {
		return Grade{Status: StatusFailed, HasScore: true, Reason: "output is empty"}
	}
	texts := append([]string{s.Output}, refs...)
	vecs, err := g.e.embed(ctx, texts)
	if err != nil {
		return ErrorGrade("embedder failed", err)
	}
	dim := len(vecs[0])
	best := math.Inf(-1)
	for i, v := range vecs {
		what := "output"
		if i > 0 {
			what = "reference " + strconv.Itoa(i)
		}
		if reason := badVector(v, dim); reason != "" {
			return NotGradedf("embedding of the %s %s", what, reason)
		}
		if i > 0 {
			best = max(best, cosine(vecs[0], v))
		}
	}
	metric := "cosine"
	if g.e.lexical {
		metric = "lexical cosine (built-in word/character n-gram embedder: shared wording, not meaning)"
	}
	ev := struct {
		Cosine  float64 `json:"cosine"`
		Lexical bool    `json:"lexical"`
	}{best, g.e.lexical}
	return scoreGrade(metric, max(best, 0), g.threshold, len(refs), ev)
}

// badVector says what is wrong with v, or "" when nothing is.
func badVector(v []float32, dim int) string {
	if len(v) == 0 {
		return "is empty"
	}
	if len(v) != dim {
		return fmt.Sprintf("has dimension %d, the output's %d", len(v), dim)
	}
	var norm float64
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "is not finite"
		}
		norm += f * f
	}
	if norm == 0 {
		return "has zero norm"
	}
	return ""
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}
