package suite

import (
	"bytes"
	"context"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// BenchmarkCheckItem measures the item schema check a case pays at load
// (and again per case when a .jsonl suite streams), beside the bare
// library call on an already decoded item.
func BenchmarkCheckItem(b *testing.B) {
	doc, err := parseYAML(context.Background(), []byte("type: object\nrequired: [order, qty]\nproperties:\n  order: {type: string, pattern: \"^A-[0-9]+$\"}\n  qty: {type: integer, minimum: 1}\n"))
	if err != nil {
		b.Fatal(err)
	}
	s := &Suite{Path: "s.yaml"}
	if err := s.decodeDataSource(&node{kind: kindMap, keys: []string{"type", "item_schema"}, keyLines: []int{1, 2},
		items: []*node{{kind: kindScalar, raw: []byte(`"custom"`)}, doc}}); err != nil {
		b.Fatal(err)
	}
	item, _ := parseJSON([]byte(`{"order": "A-17", "qty": 2, "note": "gift wrap"}`), 1)
	c := &node{kind: kindMap, keys: []string{"item"}, keyLines: []int{1}, items: []*node{item}}
	b.Run("checkItem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s.checkItem(c, "cases[0]") != "" {
				b.Fatal("valid item refused")
			}
		}
	})
	b.Run("bare Validate", func(b *testing.B) {
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(item.JSON()))
		b.ReportAllocs()
		for b.Loop() {
			if s.itemSchema.Validate(v) != nil {
				b.Fatal("valid item refused")
			}
		}
	})
}
