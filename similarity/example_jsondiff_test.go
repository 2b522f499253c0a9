package similarity_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

func ExampleNewJSONDiff() {
	var want any = map[string]any{"name": "Ada Lovelace", "born": 1815}
	g, err := similarity.NewJSONDiff(similarity.JSONDiffOptions{Expected: &want, Threshold: proctor.Ptr(0.9)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: `{"born": 1815, "name": "Ada Lovelace"}`}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 1): JSON diff 1.0000 >= threshold 0.9000
}

func ExampleNewListContains() {
	g, err := similarity.NewListContains(similarity.ListContainsOptions{Expected: []string{"Paris", "Lyon"}, Threshold: proctor.Ptr(0.8)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: `["Lyon", "paris"]`}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.9): list overlap 0.9000 >= threshold 0.8000
}
