package similarity

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/testkit"
)

// fakeEmbedder maps texts to fixed vectors and records its calls.
type fakeEmbedder = testkit.FakeEmbedder

func TestSemanticSimilarity(t *testing.T) {
	nan := float32(math.NaN())
	vecs := map[string][]float32{
		"cat": {1, 0}, "kitten": {0.8, 0.6}, "car": {0, 1}, "opposite": {-1, 0},
		"zero": {0, 0}, "nan": {nan, 1}, "three": {1, 0, 0}, "empty": {},
	}
	tests := []struct {
		name   string
		out    string
		refs   []string
		status proctor.Status
		score  float64
	}{
		{"close", "kitten", []string{"cat"}, proctor.StatusPassed, 0.8},
		{"best of references", "kitten", []string{"car", "cat"}, proctor.StatusPassed, 0.8},
		{"orthogonal", "car", []string{"cat"}, proctor.StatusFailed, 0},
		{"negative cosine scores 0", "opposite", []string{"cat"}, proctor.StatusFailed, 0},
		{"empty output fails", "  ", []string{"cat"}, proctor.StatusFailed, 0},
		{"zero norm", "zero", []string{"cat"}, proctor.StatusNotGraded, 0},
		{"NaN", "cat", []string{"nan"}, proctor.StatusNotGraded, 0},
		{"dimension mismatch", "cat", []string{"three"}, proctor.StatusNotGraded, 0},
		{"zero length", "empty", []string{"cat"}, proctor.StatusNotGraded, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := must(NewSemanticSimilarity(&fakeEmbedder{Vecs: vecs}, SemanticSimilarityOptions{References: tt.refs, Threshold: proctor.Ptr(0.7)}))
			gr := g.Grade(t.Context(), &proctor.Sample{Output: tt.out})
			if gr.Status != tt.status || math.Abs(gr.Score-tt.score) > 1e-6 {
				t.Errorf("got %v %v (%s), want %v %v", gr.Status, gr.Score, gr.Reason, tt.status, tt.score)
			}
		})
	}
}

func TestSemanticSimilarityProviderErrors(t *testing.T) {
	boom := errors.New("boom")
	g := must(NewSemanticSimilarity(&fakeEmbedder{Err: boom}, SemanticSimilarityOptions{}))
	exp := "cat"
	gr := g.Grade(t.Context(), &proctor.Sample{Output: "kitten", Expected: &exp})
	if gr.Status != proctor.StatusNotGraded || !errors.Is(gr.Err, boom) {
		t.Errorf("provider error: got %v %v, want not_graded wrapping boom", gr.Status, gr.Err)
	}
	g = must(NewSemanticSimilarity(&fakeEmbedder{Vecs: map[string][]float32{"kitten": {1}, "cat": {1}}, Short: true}, SemanticSimilarityOptions{}))
	if gr := g.Grade(t.Context(), &proctor.Sample{Output: "kitten", Expected: &exp}); gr.Status != proctor.StatusNotGraded || !errors.Is(gr.Err, proctor.ErrEmbeddingCount) {
		t.Errorf("wrong count: got %v %v, want not_graded with ErrEmbeddingCount", gr.Status, gr.Err)
	}
	if gr := g.Grade(t.Context(), &proctor.Sample{Output: "kitten"}); gr.Status != proctor.StatusNotGraded {
		t.Errorf("no reference: got %v, want not_graded", gr.Status)
	}
}

func TestSemanticSimilarityCacheAndBatches(t *testing.T) {
	f := &fakeEmbedder{Vecs: map[string][]float32{"a": {1, 0}, "b": {1, 1}, "c": {0, 1}}}
	g := must(NewSemanticSimilarity(testkit.BatchFake{FakeEmbedder: f, N: 1}, SemanticSimilarityOptions{References: []string{"b", "c"}}))
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if gr := g.Grade(t.Context(), &proctor.Sample{Output: "a"}); gr.Status == proctor.StatusNotGraded {
				t.Errorf("got %v: %s", gr.Status, gr.Reason)
			}
		})
	}
	wg.Wait()
	// Each of the three texts is embedded once (batches of one), however
	// many graders asked concurrently.
	if n := f.Texts.Load(); n != 3 {
		t.Errorf("texts embedded: got %d, want 3 (cached and coalesced)", n)
	}
	if n := f.Calls.Load(); n != 3 {
		t.Errorf("calls: got %d, want 3 (MaxBatch 1)", n)
	}
	if proctor.KindOf(g) != proctor.KindNetwork {
		t.Errorf("kind: got %v, want network", proctor.KindOf(g))
	}
}

func TestSemanticSimilarityCancel(t *testing.T) {
	f := &fakeEmbedder{Vecs: map[string][]float32{"a": {1}, "b": {1}}, Gate: make(chan struct{})}
	g := must(NewSemanticSimilarity(f, SemanticSimilarityOptions{References: []string{"b"}}))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	gr := g.Grade(ctx, &proctor.Sample{Output: "a"})
	if gr.Status != proctor.StatusNotGraded || !errors.Is(gr.Err, context.Canceled) {
		t.Errorf("got %v %v, want not_graded with context.Canceled", gr.Status, gr.Err)
	}
}

func TestLexicalEmbedder(t *testing.T) {
	g := must(NewSemanticSimilarity(nil, SemanticSimilarityOptions{Threshold: proctor.Ptr(0.5)}))
	if proctor.KindOf(g) != proctor.KindDeterministic {
		t.Errorf("lexical kind: got %v, want deterministic", proctor.KindOf(g))
	}
	exp := "The quick brown fox jumps over the lazy dog"
	same := g.Grade(t.Context(), &proctor.Sample{Output: "the quick brown fox jumps over the lazy dog!", Expected: &exp})
	if same.Status != proctor.StatusPassed || math.Abs(same.Score-1) > 1e-6 || !strings.Contains(same.Reason, "lexical") {
		t.Errorf("same words: got %v %v %q, want passed 1 with a lexical reason", same.Status, same.Score, same.Reason)
	}
	diff := g.Grade(t.Context(), &proctor.Sample{Output: "Quarterly revenue rose by four percent", Expected: &exp})
	if diff.Status != proctor.StatusFailed || diff.Score > 0.2 {
		t.Errorf("different words: got %v %v, want failed below 0.2", diff.Status, diff.Score)
	}
	v1, _ := proctor.LexicalEmbedder{}.Embed(t.Context(), []string{"héllo wörld", "héllo wörld"})
	if len(v1[0]) != proctor.LexicalDim || cosine(v1[0], v1[1]) < 0.999999 {
		t.Errorf("lexical vectors not deterministic")
	}
	var norm float64
	for _, x := range v1[0] {
		norm += float64(x) * float64(x)
	}
	if math.Abs(norm-1) > 1e-5 {
		t.Errorf("norm: got %v, want 1", norm)
	}
}
