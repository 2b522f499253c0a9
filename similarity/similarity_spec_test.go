package similarity

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/embedcache"
	"github.com/proctorhq/proctor/internal/porter"
	"github.com/proctorhq/proctor/internal/tokenize"
	"github.com/proctorhq/proctor/metric"
)

func TestSimilaritySpecs(t *testing.T) {
	exp := "testing one two"
	tests := []struct {
		name   string
		spec   string
		sample proctor.Sample
		status proctor.Status
		score  float64
	}{
		{"bleu default threshold", `{"type": "bleu"}`, proctor.Sample{Output: "a b c d", Expected: proctor.Ptr("a b c d")}, proctor.StatusPassed, 1},
		{"bleu references option", `{"type": "bleu", "references": ["x y", "a b c d"], "threshold": 0.99}`, proctor.Sample{Output: "a b c d"}, proctor.StatusPassed, 1},
		{"gleu", `{"type": "gleu", "threshold": 0.1}`, proctor.Sample{Output: "the the the the the the the", Expected: proctor.Ptr("the cat is on the mat")}, proctor.StatusFailed, 2.0 / 22},
		{"rouge rouge_1 recall", `{"type": "rouge", "variant": "rouge1", "measure": "recall", "threshold": 0.3}`, proctor.Sample{Output: "testing", Expected: &exp}, proctor.StatusPassed, 1.0 / 3},
		{"rouge default is rougeL fmeasure", `{"type": "rouge"}`, proctor.Sample{Output: "testing one", Expected: &exp}, proctor.StatusPassed, 0.8},
		{"rouge stemmer", `{"type": "rouge", "variant": "rouge1", "stemmer": true, "expected": "runners running", "threshold": 1}`, proctor.Sample{Output: "runner run"}, proctor.StatusPassed, 1},
		{"token_f1", `{"type": "token_f1", "references": ["The Eiffel Tower"]}`, proctor.Sample{Output: "eiffel tower"}, proctor.StatusPassed, 1},
		{"levenshtein", `{"type": "levenshtein", "threshold": 0.5}`, proctor.Sample{Output: "kitten", Expected: proctor.Ptr("sitting")}, proctor.StatusPassed, 4.0 / 7},
		{"fuzzy_match", `{"type": "fuzzy_match", "threshold": 0.95}`, proctor.Sample{Output: "this is a test", Expected: proctor.Ptr("this is a test!")}, proctor.StatusPassed, 28.0 / 29},
		{"localization_f1 object expected", `{"type": "localization_f1", "expected": {"a.go": [[1, 3]]}}`, proctor.Sample{Output: "a.go:1-3"}, proctor.StatusPassed, 1},
		{"localization_f1 text expected", `{"type": "localization_f1", "expected": "a.go:1-3", "threshold": 0}`, proctor.Sample{Output: "nothing"}, proctor.StatusFailed, 0},
		{"semantic_similarity lexical", `{"type": "semantic_similarity", "expected": "red apple", "threshold": 0.99}`, proctor.Sample{Output: "Red apple."}, proctor.StatusPassed, 1},
		{"no reference", `{"type": "bleu"}`, proctor.Sample{Output: "x"}, proctor.StatusNotGraded, 0},
	}
	c := proctor.NewCompiler(Types())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			gr := ch.Grade(t.Context(), &tt.sample)
			if gr.Status != tt.status || math.Abs(gr.Score-tt.score) > 1e-6 {
				t.Errorf("got %v %v (%s), want %v %v", gr.Status, gr.Score, gr.Reason, tt.status, tt.score)
			}
		})
	}
}

func TestSimilaritySpecErrors(t *testing.T) {
	tests := []struct{ spec, option string }{
		{`{"type": "rouge", "variant": "rouge10"}`, "variant"},
		{`{"type": "rouge", "measure": "f1"}`, "measure"},
		{`{"type": "rouge", "stemmer": "yes"}`, "stemmer"},
		{`{"type": "bleu", "threshold": 2}`, "threshold"},
		{`{"type": "bleu", "references": "one"}`, "references"},
		{`{"type": "bleu", "references": []}`, "references"},
		{`{"type": "token_f1", "expected": 3}`, "expected"},
		{`{"type": "levenshtein", "max_distance": -1}`, "max_distance"},
		{`{"type": "fuzzy_match", "max_distance": 3}`, "max_distance"},
		{`{"type": "localization_f1", "expected": "no citations"}`, "expected"},
		{`{"type": "localization_f1", "expected": [1, 2]}`, "expected"},
		{`{"type": "semantic_similarity", "model": "x"}`, "model"},
		{`{"type": "meteor"}`, "type"},
	}
	c := proctor.NewCompiler(Types())
	for _, tt := range tests {
		_, err := c.Compile([]byte(tt.spec))
		var se *proctor.SpecError
		if !errors.As(err, &se) || se.Option != tt.option {
			t.Errorf("%s: got %v, want a SpecError on option %q", tt.spec, err, tt.option)
		}
	}
}

func TestWithEmbedderSharesCache(t *testing.T) {
	f := &fakeEmbedder{Vecs: map[string][]float32{"a": {1, 0}, "b": {1, 0}}}
	c := proctor.NewCompiler(Types(), proctor.WithEmbedder(f))
	var checks []proctor.Check
	for range 2 {
		ch, err := c.Compile([]byte(`{"type": "semantic_similarity", "expected": "b"}`))
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, ch)
	}
	for _, ch := range checks {
		if gr := ch.Grade(context.Background(), &proctor.Sample{Output: "a"}); gr.Status != proctor.StatusPassed {
			t.Errorf("got %v (%s), want passed", gr.Status, gr.Reason)
		}
		if proctor.KindOf(ch.Grader) != proctor.KindNetwork {
			t.Errorf("kind: got %v, want network", proctor.KindOf(ch.Grader))
		}
	}
	if n := f.Texts.Load(); n != 2 {
		t.Errorf("texts embedded: got %d, want 2 (one cache per compiler)", n)
	}
}

// Every similarity grader survives hostile outputs with a valid status.
func TestSimilarityGradersHostileInput(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word Ünïcödé, punct!? ", 3000) // ~64 KB
	inputs := []string{"", "   ", "!!! ??? ...", "\xff\xfe invalid utf-8", "日本語のテキスト", long}
	graders := []proctor.Grader{
		must(NewBLEU(BLEUOptions{})), must(NewGLEU(GLEUOptions{})), must(NewRouge(RougeOptions{})),
		must(NewRouge(RougeOptions{Variant: "rougeLsum", Stemmer: true})), must(NewRouge(RougeOptions{Variant: "rouge4"})),
		must(NewTokenF1(TokenF1Options{})), must(NewLevenshtein(EditSimilarityOptions{})), must(NewFuzzyMatch(EditSimilarityOptions{})),
		must(NewSemanticSimilarity(nil, SemanticSimilarityOptions{})), must(NewLocalizationF1(LocalizationF1Options{Expected: metric.Locations{"a.go": {{Start: 1, End: 2}}}})),
	}
	for _, g := range graders {
		for _, out := range inputs {
			for _, ref := range inputs {
				gr := g.Grade(t.Context(), &proctor.Sample{Output: out, Expected: &ref})
				if gr.Status > proctor.StatusFailed || gr.HasScore && (gr.Score < 0 || gr.Score > 1 || math.IsNaN(gr.Score)) {
					t.Errorf("%s(%.20q, %.20q): got %v %v", g.Name(), out, ref, gr.Status, gr.Score)
				}
			}
		}
	}
}

func FuzzTokenizers(f *testing.F) {
	for _, s := range []string{"The dog bit the man.", "3.14, 1,000 and 2-3", "&amp;lt;<skipped>-\n", "İstanbul KELVIN", "the—cat", "Σίσυφος ΟΔΥΣΣΕΥΣ", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, _ := tokenize.Tok13a(nil, nil, s)
		for _, tok := range tokenize.Fields(nil, string(b)) {
			if tok == "" || strings.ContainsAny(tok, " \t\n") {
				t.Fatalf("13a(%q): bad token %q", s, tok)
			}
		}
		for _, stem := range []func(string) string{nil, porter.Stem} {
			for _, tok := range tokenize.Rouge(nil, s, stem) {
				if tok == "" || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
					t.Fatalf("rouge(%q): bad token %q", s, tok)
				}
			}
		}
		for _, tok := range tokenize.SQuAD(nil, s) {
			if tok == "" || tok == "a" || tok == "an" || tok == "the" {
				t.Fatalf("squad(%q): bad token %q", s, tok)
			}
		}
		_ = metric.SentenceBLEU(s, []string{s})
		if sc := must(NewRouge(RougeOptions{Variant: "rougeLsum"})).Score(s, s); sc.FMeasure < 0 || sc.FMeasure > 1+1e-12 {
			t.Fatalf("rougeLsum(%q, same) = %v", s, sc)
		}
	})
}

// TestSpecEmbedderShared checks that the semantic_similarity graders of one
// Compiler embed through its one shared cache (SpecOptions.Embedder), used
// as it is rather than wrapped in a cache of each grader's own, and that
// without an embedder they use the lexical one, deterministic.
func TestSpecEmbedderShared(t *testing.T) {
	f := &fakeEmbedder{Vecs: map[string][]float32{"a": {1, 0}, "b": {1, 0}}}
	c := proctor.NewCompiler(Types(), proctor.WithEmbedder(f))
	var caches []*embedcache.Cache
	for range 2 {
		ch, err := c.Compile([]byte(`{"type": "semantic_similarity", "expected": "b"}`))
		if err != nil {
			t.Fatal(err)
		}
		g, ok := ch.Grader.(*SemanticSimilarity)
		if !ok {
			t.Fatalf("built %T, want *SemanticSimilarity", ch.Grader)
		}
		e, ok := g.e.(*embedcache.Cache)
		if !ok || g.lexical {
			t.Fatalf("embedder %T (lexical %v), want the Compiler's cache", g.e, g.lexical)
		}
		caches = append(caches, e)
	}
	if caches[0] != caches[1] {
		t.Error("two specs of one Compiler embed through different caches, want the Compiler's one")
	}
	var got proctor.EmbeddingProvider
	c.Register("probe", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		got = o.Embedder()
		return proctor.Func("probe", func(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass("") }), nil
	})
	if _, err := c.Compile([]byte(`{"type": "probe"}`)); err != nil {
		t.Fatal(err)
	}
	if got != proctor.EmbeddingProvider(caches[0]) {
		t.Errorf("SpecOptions.Embedder() = %T %p, want the cache the specs use", got, got)
	}
	ch, err := proctor.NewCompiler(Types()).Compile([]byte(`{"type": "semantic_similarity", "expected": "b"}`))
	if err != nil {
		t.Fatal(err)
	}
	if g := ch.Grader.(*SemanticSimilarity); !g.lexical || proctor.KindOf(g) != proctor.KindDeterministic {
		t.Errorf("without an embedder: lexical %v, kind %v, want the lexical embedder, deterministic", g.lexical, proctor.KindOf(g))
	}
}

// TestUnknownWithoutFamily checks that a Compiler without the family
// refuses its types and says where they come from.
func TestUnknownWithoutFamily(t *testing.T) {
	_, err := proctor.NewCompiler().Compile([]byte(`{"type": "bleu"}`))
	var se *proctor.SpecError
	if !errors.As(err, &se) || se.Option != "type" || !strings.Contains(err.Error(), "builtin.Types()") || !strings.Contains(err.Error(), "similarity") {
		t.Errorf("got %v, want an unknown-type error that names builtin.Types() and the similarity family", err)
	}
	if _, err := proctor.NewCompiler(Types()).Compile([]byte(`{"type": "bleu"}`)); err != nil {
		t.Errorf("with Types(): %v", err)
	}
}

// TestSpecTypesPlace checks that a Compiler lists the family's types in
// the place they had among the root package's (after the measurements,
// before custom_webhook), in the reference's order.
func TestSpecTypesPlace(t *testing.T) {
	var names []string
	for _, st := range proctor.NewCompiler(Types()).SpecTypes() {
		names = append(names, st.Name)
	}
	want := []string{"http_status", "bleu", "gleu", "rouge", "token_f1", "levenshtein", "fuzzy_match", "jaro", "jaro_winkler",
		"hamming", "chrf", "json_diff", "numeric_diff", "list_contains", "semantic_similarity", "localization_f1", "context_f1", "custom_webhook"}
	i := slices.Index(names, want[0])
	if i < 0 || i+len(want) > len(names) || !slices.Equal(names[i:i+len(want)], want) {
		t.Errorf("SpecTypes lists %v, want %v in a row", names, want)
	}
}
