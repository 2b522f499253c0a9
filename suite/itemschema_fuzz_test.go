package suite

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FuzzCheckItem feeds outside items to the item schema check: no panic,
// and a case is refused exactly when the schema library says the item is
// invalid, with a reason naming the file, a line and the case's item.
func FuzzCheckItem(f *testing.F) {
	for _, s := range []string{
		`{"order": "A-1", "qty": 2}`,
		`{"order": 7}`,
		`{"tags": ["a", 1, {"x": null}], "qty": 0}`,
		`{"a~b/c": {"d": [1, 2, {"e": "f"}]}}`,
		`[]`, `null`, `"x"`, `1e400`,
	} {
		f.Add([]byte(s))
	}
	doc, err := parseYAML(context.Background(), []byte(`type: object
required: [order]
properties:
  order: {type: string, pattern: "^A-[0-9]+$"}
  qty: {type: integer, minimum: 1}
  tags: {type: array, items: {type: string}}
additionalProperties: {type: [string, number, array]}
`))
	if err != nil {
		f.Fatal(err)
	}
	s := &Suite{Path: "dir/s.yaml"}
	if err := s.decodeDataSource(&node{kind: kindMap, keys: []string{"type", "item_schema"}, keyLines: []int{1, 2},
		items: []*node{{kind: kindScalar, raw: []byte(`"custom"`)}, doc}}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		item, err := parseJSON(data, 3)
		if err != nil {
			return
		}
		c := &node{kind: kindMap, line: 2, keys: []string{"item"}, keyLines: []int{3}, items: []*node{item}}
		reason := s.checkItem(c, "cases[0]")
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(item.JSON()))
		if err != nil {
			// The library refuses numbers it cannot hold; the check must
			// refuse the item too.
			if reason == "" {
				t.Fatalf("an item the library cannot read passed: %s", data)
			}
			return
		}
		valid := s.itemSchema.Validate(v) == nil
		if valid != (reason == "") {
			t.Fatalf("valid %v but reason %q for %s", valid, reason, data)
		}
		if reason != "" && (!strings.HasPrefix(reason, "s.yaml:") || !strings.Contains(reason, ": cases[0].item")) {
			t.Fatalf("reason %q does not name the file, line and field", reason)
		}
	})
}
