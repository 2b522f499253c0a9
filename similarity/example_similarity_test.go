package similarity_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

func ExampleNewRouge() {
	g, err := similarity.NewRouge(similarity.RougeOptions{Variant: "rouge1", Stemmer: true})
	if err != nil {
		panic(err)
	}
	sc := g.Score("The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log.")
	fmt.Printf("precision %.3f recall %.3f fmeasure %.3f\n", sc.Precision, sc.Recall, sc.FMeasure)

	exp := "The quick brown fox jumps over the lazy dog"
	gr := g.Grade(context.Background(), &proctor.Sample{Output: "The quick brown dog jumps on the log.", Expected: &exp})
	fmt.Println(gr.Status, gr.Reason)
	// Output:
	// precision 0.750 recall 0.667 fmeasure 0.706
	// passed rouge1 fmeasure 0.7059 >= threshold 0.5000
}

// fixedEmbedder returns a fixed vector per text, as a test double for a
// real embedding model.
type fixedEmbedder map[string][]float32

func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = f[t]
	}
	return out, nil
}

func ExampleNewSemanticSimilarity() {
	emb := fixedEmbedder{
		"A feline rested on the rug.": {0.6, 0.8, 0},
		"The cat sat on the mat.":     {0.8, 0.6, 0},
		"Stocks fell sharply.":        {0, 0, 1},
	}
	g, err := similarity.NewSemanticSimilarity(emb, similarity.SemanticSimilarityOptions{Threshold: proctor.Ptr(0.9)})
	if err != nil {
		panic(err)
	}
	exp := "The cat sat on the mat."
	for _, out := range []string{"A feline rested on the rug.", "Stocks fell sharply."} {
		gr := g.Grade(context.Background(), &proctor.Sample{Output: out, Expected: &exp})
		fmt.Printf("%s %.2f\n", gr.Status, gr.Score)
	}
	fmt.Println(proctor.KindOf(g))
	// Output:
	// passed 0.96
	// failed 0.00
	// network
}

// The family's spec types reach a Compiler through Types; a Compiler
// without them refuses them as unknown.
func ExampleTypes() {
	c := proctor.NewCompiler(similarity.Types())
	check, err := c.Compile([]byte(`{"type": "rouge", "variant": "rouge1", "expected": "the cat sat on the mat", "threshold": 0.6}`))
	if err != nil {
		panic(err)
	}
	gr := check.Grade(context.Background(), &proctor.Sample{Output: "the cat sat on a mat"})
	fmt.Println(gr.Status, gr.Reason)
	// Output: passed rouge1 fmeasure 0.8333 >= threshold 0.6000
}
