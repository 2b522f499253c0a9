package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

func ExampleNewJaroWinkler() {
	g, err := proctor.NewJaroWinkler(proctor.JaroWinklerOptions{Threshold: proctor.Ptr(0.95)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: "MARTHA", Expected: proctor.Ptr("MARHTA")}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.9611): Jaro-Winkler similarity 0.9611 >= threshold 0.9500
}

func ExampleNewChrF() {
	// chrF++: character n-grams up to 6 and word n-grams up to 2.
	g, err := proctor.NewChrF(proctor.ChrFOptions{ChrFConfig: proctor.ChrFConfig{WordOrder: 2}})
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
	g, err := proctor.NewLevenshtein(proctor.EditSimilarityOptions{MaxDistance: proctor.Ptr(3)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: "sitting", Expected: proctor.Ptr("kitten")}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.5714): Levenshtein distance 3 <= max_distance 3
}
