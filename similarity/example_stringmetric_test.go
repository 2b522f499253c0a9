package similarity_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

func ExampleNewJaroWinkler() {
	g, err := similarity.NewJaroWinkler(similarity.JaroWinklerOptions{Threshold: proctor.Ptr(0.95)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: "MARTHA", Expected: proctor.Ptr("MARHTA")}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.9611): Jaro-Winkler similarity 0.9611 >= threshold 0.9500
}

func ExampleNewChrF() {
	// chrF++: character n-grams up to 6 and word n-grams up to 2.
	g, err := similarity.NewChrF(similarity.ChrFOptions{ChrFConfig: similarity.ChrFConfig{WordOrder: 2}})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{
		Output:   "The relationship between cats and dogs is not exactly friendly.",
		Expected: proctor.Ptr("The relationship between dogs and cats is not exactly friendly."),
	}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.8331): chrF2++ 0.8331 >= threshold 0.5000
}

func ExampleNewLevenshtein_maxDistance() {
	g, err := similarity.NewLevenshtein(similarity.EditSimilarityOptions{MaxDistance: proctor.Ptr(3)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: "sitting", Expected: proctor.Ptr("kitten")}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.5714): Levenshtein distance 3 <= max_distance 3
}
