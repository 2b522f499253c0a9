package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

func TestItemSchema(t *testing.T) {
	s := load(t, filepath.Join(suites, "items.yaml"), suite.Options{})
	rep, err := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id      string
		verdict proctor.Status
		reason  string // the item_schema grade's reason contains it; "" for a valid item
		why     string
	}{
		{"good", proctor.StatusPassed, "", "a valid item is graded as usual"},
		{"bad-qty", proctor.StatusNotGraded, "items.yaml:24: cases[1].item/qty: got string, want integer", "the line and field of the value at fault; the suite's not_contains is not run, so it does not fail"},
		{"bad-tag", proctor.StatusNotGraded, "items.yaml:34: cases[2].item/tags/1: got number, want string", "a list element's own line"},
		{"no-item", proctor.StatusNotGraded, "items.yaml:36: cases[3].item: missing properties", "no item is an empty object, missing the required keys"},
		{"bad-order", proctor.StatusNotGraded, "items.yaml:39: cases[4].item/order: 'B-1' does not match pattern", "a pattern mismatch; one attempt, not three"},
	}
	if len(rep.Cases) != len(tests) {
		t.Fatalf("%d cases, want %d: a bad item must not stop the run", len(rep.Cases), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			c := rep.Cases[i]
			if c.ID != tt.id || c.Verdict != tt.verdict {
				t.Fatalf("case %s verdict %v, want %s %v (%s)", c.ID, c.Verdict, tt.id, tt.verdict, tt.why)
			}
			if tt.reason == "" {
				return
			}
			if len(c.Attempts) != 1 || len(c.Attempts[0].Grades) != 1 {
				t.Fatalf("attempts %+v, want one attempt with the item_schema grade only (%s)", c.Attempts, tt.why)
			}
			g := c.Attempts[0].Grades[0]
			if g.Grader != suite.ItemSchemaGrader || g.Status != proctor.StatusNotGraded ||
				!strings.HasPrefix(g.Reason, tt.reason) {
				t.Errorf("got %s %v %q, want item_schema not graded with %q (%s)", g.Grader, g.Status, g.Reason, tt.reason, tt.why)
			}
		})
	}
}

func TestItemSchemaErrors(t *testing.T) {
	const cases = "cases:\n  - {id: a, item: {x: 1}, outputs: [a]}\n"
	tests := []struct {
		name, dsc, want string
	}{
		{"not custom", "{type: logs, item_schema: {}}", `data_source_config.type: want custom`},
		{"no type", "{item_schema: {}}", `data_source_config.type: missing`},
		{"no schema", "{type: custom}", `data_source_config.item_schema: missing`},
		{"schema not object", "{type: custom, item_schema: [1]}", `data_source_config.item_schema: want a JSON Schema object`},
		{"unknown key", "{type: custom, item_schema: {}, extra: 1}", `data_source_config.extra: unknown key`},
		{"sample schema not bool", "{type: custom, item_schema: {}, include_sample_schema: yes please}", `include_sample_schema: want a boolean`},
		{"bad schema", "{type: custom, item_schema: {type: 5}}", `data_source_config.item_schema: does not compile`},
		{"file ref refused", "{type: custom, item_schema: {$ref: 'file:///etc/passwd'}}", `data_source_config.item_schema: does not compile`},
		{"not a map", "custom", `data_source_config: want an object`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "s.yaml")
			os.WriteFile(path, []byte("data_source_config: "+tt.dsc+"\n"+cases), 0o644)
			s, err := suite.Load(path, suite.Options{})
			if err == nil {
				s.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestItemSchemaRefInside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte(`data_source_config:
  type: custom
  item_schema:
    $defs: {id: {type: string, minLength: 2}}
    properties: {id: {$ref: "#/$defs/id"}}
cases:
  - {id: a, item: {id: ab}, outputs: [x], checks: [{type: contains, value: x}]}
  - {id: b, item: {id: a}, outputs: [x], checks: [{type: contains, value: x}]}
`), 0o644)
	s := load(t, path, suite.Options{})
	rep, _ := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	if rep.Totals != (proctor.Totals{Passed: 1, NotGraded: 1}) {
		t.Errorf("totals %+v, want 1 passed, 1 not graded: a reference inside the schema resolves", rep.Totals)
	}
}
