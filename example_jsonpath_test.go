package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// A json_path query follows RFC 9535: unions, filters with || and
// functions such as count.
func ExampleNewJSONPathEquals_filter() {
	g := proctor.MustJSONPathEquals(`$.items[?@.qty > 1 || count(@.tags[*]) > 1].sku`, []any{"A", "C"}, proctor.JSONPathOptions{})
	out := `{"items": [{"sku": "A", "qty": 2}, {"sku": "B", "qty": 1}, {"sku": "C", "qty": 1, "tags": ["x", "y"]}]}`
	fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: out}).Status)
	// Output: passed
}

// A query whose work outgrows the budget is not graded, with the reason,
// rather than exhausting memory: here three descendant segments over 300
// nested arrays would build millions of nodes.
func ExampleJSONPathOptions_budget() {
	g := proctor.MustJSONPathExists("$..*..*..*[0]", true, proctor.JSONPathOptions{})
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	got := g.Grade(context.Background(), &proctor.Sample{Output: deep})
	fmt.Println(got.Status, strings.Contains(got.Reason, "max_nodes"))
	// Output: not_graded true
}
