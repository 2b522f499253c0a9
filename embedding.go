package proctor

import (
	"context"
	"errors"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/embedcache"
)

// EmbeddingProvider turns texts into vectors for semantic_similarity specs
// (package similarity's SemanticSimilarity grader).
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

// embedConfig holds the embedder semantic_similarity specs are given.
type embedConfig struct {
	embedShared EmbeddingProvider // the injected embedder behind its cache; nil: the lexical embedder
}

// WithEmbedder sets the [EmbeddingProvider] that semantic_similarity specs
// use. Without it (or with nil) they use the built-in [LexicalEmbedder],
// which needs no network and says so in its reasons. The embeddings of a
// text are requested once per Compiler and kept in a bounded cache;
// identical concurrent requests are coalesced.
func WithEmbedder(e EmbeddingProvider) CompilerOption {
	return compilerOption(func(c *config) {
		switch e.(type) {
		case nil, LexicalEmbedder, *LexicalEmbedder:
			c.embedShared = nil // cheaper to compute than to look up
			return
		}
		c.embedShared = embedcache.New(e, ErrEmbeddingCount)
	})
}

// embedder returns the configured embedder behind its cache, or the
// lexical one.
func (c *embedConfig) embedder() EmbeddingProvider {
	if c.embedShared != nil {
		return c.embedShared
	}
	return LexicalEmbedder{}
}

// Embedder returns what semantic_similarity specs of the Compiler building
// this spec embed with: the embedder given with [WithEmbedder], behind the
// Compiler's shared cache (one request per text, identical concurrent
// requests coalesced), or the [LexicalEmbedder] when none was given. A
// builder in any package hands it to its grader, so that the Compiler's
// graders share one cache.
func (o *SpecOptions) Embedder() EmbeddingProvider { return o.config().embedder() }

// ErrEmbeddingCount is returned (wrapped) when a provider returns a number
// of vectors other than the number of texts it was given.
var ErrEmbeddingCount = errors.New("proctor: embedder returned the wrong number of vectors")

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
