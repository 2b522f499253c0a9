package similarity

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/embedcache"
	"github.com/proctorhq/proctor/internal/kit"
)

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
// (the error is kept in [proctor.Grade.Err]), or a vector is empty, of another
// dimension than the output's, not finite or of zero norm. With the
// built-in [proctor.LexicalEmbedder] the reason says the similarity is lexical.
//
// Its kind is [proctor.KindNetwork] unless the embedder is the lexical one. A
// SemanticSimilarity is immutable and safe for concurrent use if its
// provider is.
type SemanticSimilarity struct {
	name      string
	e         proctor.EmbeddingProvider // behind its cache, or the lexical one
	lexical   bool
	refs      []string
	threshold float64
}

var (
	_ proctor.Grader = (*SemanticSimilarity)(nil)
	_ proctor.Kinded = (*SemanticSimilarity)(nil)
)

// NewSemanticSimilarity returns a grader that embeds with e, through a
// bounded cache of its own; nil means the [proctor.LexicalEmbedder]. It returns an
// error for a Threshold outside [0, 1] (or NaN).
//
// An e that is already behind such a cache, as [proctor.SpecOptions.Embedder]'s
// is, is used as it is, with no second cache.
func NewSemanticSimilarity(e proctor.EmbeddingProvider, opts SemanticSimilarityOptions) (*SemanticSimilarity, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.8)
	if err != nil {
		return nil, fmt.Errorf("similarity: semantic_similarity %w", err)
	}
	g := &SemanticSimilarity{name: cmp.Or(opts.Name, "semantic_similarity"), refs: opts.References, threshold: th}
	switch e.(type) {
	case nil, proctor.LexicalEmbedder, *proctor.LexicalEmbedder:
		g.e, g.lexical = proctor.LexicalEmbedder{}, true // cheaper to compute than to look up
	case *embedcache.Cache:
		g.e = e
	default:
		g.e = embedcache.New(e, proctor.ErrEmbeddingCount)
	}
	return g, nil
}

// Name returns the grader's name.
func (g *SemanticSimilarity) Name() string { return g.name }

// GraderKind is KindNetwork, or KindDeterministic with the lexical
// embedder.
func (g *SemanticSimilarity) GraderKind() proctor.Kind {
	if g.lexical {
		return proctor.KindDeterministic
	}
	return proctor.KindNetwork
}

// Grade embeds s.Output and the references and compares them.
func (g *SemanticSimilarity) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return proctor.NotGraded(noReference)
	}
	if strings.TrimSpace(s.Output) == "" {
		return proctor.Grade{Status: proctor.StatusFailed, HasScore: true, Reason: "output is empty"}
	}
	texts := append([]string{s.Output}, refs...)
	vecs, err := g.e.Embed(ctx, texts)
	if err != nil {
		return proctor.ErrorGrade("embedder failed", err)
	}
	dim := len(vecs[0])
	best := math.Inf(-1)
	for i, v := range vecs {
		what := "output"
		if i > 0 {
			what = "reference " + strconv.Itoa(i)
		}
		if reason := badVector(v, dim); reason != "" {
			return proctor.NotGradedf("embedding of the %s %s", what, reason)
		}
		if i > 0 {
			best = max(best, cosine(vecs[0], v))
		}
	}
	metric := "cosine"
	if g.lexical {
		metric = "lexical cosine (built-in word/character n-gram embedder: shared wording, not meaning)"
	}
	ev := struct {
		Cosine  float64 `json:"cosine"`
		Lexical bool    `json:"lexical"`
	}{best, g.lexical}
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
