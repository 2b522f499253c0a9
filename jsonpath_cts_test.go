package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// ctsCase is one case of the JSONPath Compliance Test Suite
// (testdata/jsonpath-cts.json, its cts.json at the commit named in
// testdata/SOURCE.md).
type ctsCase struct {
	Name     string            `json:"name"`
	Selector string            `json:"selector"`
	Document json.RawMessage   `json:"document"`
	Result   []json.RawMessage `json:"result"`
	Results  [][]json.RawMessage
	Invalid  bool `json:"invalid_selector"`
}

func loadCTS(t testing.TB) []ctsCase {
	t.Helper()
	b, err := os.ReadFile("testdata/jsonpath-cts.json")
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Tests []ctsCase `json:"tests"`
	}
	if err := json.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	if len(suite.Tests) == 0 {
		t.Fatal("no cases")
	}
	return suite.Tests
}

// TestJSONPathCTS runs every case of the JSONPath Compliance Test Suite.
// A valid selector must give the suite's node list (or one of its
// "results", where member order is free) from the evaluator, and a spec
// built from the list must pass through the Compiler; an invalid selector
// must be a *SpecError on "path" at load, and an error from the Go
// constructors.
func TestJSONPathCTS(t *testing.T) {
	t.Parallel()
	cases := loadCTS(t)
	c := NewCompiler()
	valid, invalid, validRight, invalidRefused := 0, 0, 0, 0
	for _, tc := range cases {
		ok := t.Run(tc.Name, func(t *testing.T) {
			if tc.Invalid {
				ctsInvalid(t, c, tc)
				return
			}
			ctsValid(t, c, tc)
		})
		switch {
		case tc.Invalid:
			invalid++
			if ok {
				invalidRefused++
			}
		default:
			valid++
			if ok {
				validRight++
			}
		}
	}
	t.Logf("JSONPath CTS: %d of %d valid selectors right, %d of %d invalid selectors refused", validRight, valid, invalidRefused, invalid)
}

func ctsInvalid(t *testing.T, c *Compiler, tc ctsCase) {
	spec, _ := json.Marshal(map[string]any{"type": "json_path", "path": tc.Selector, "exists": true})
	_, err := c.Compile(spec)
	var se *SpecError
	if !errors.As(err, &se) || se.Option != "path" {
		t.Fatalf("%q: got %v, want a *SpecError on path", tc.Selector, err)
	}
	if _, err := NewJSONPathEquals(tc.Selector, 1, JSONPathOptions{}); err == nil {
		t.Fatalf("%q: NewJSONPathEquals accepted it", tc.Selector)
	}
}

func ctsValid(t *testing.T, c *Compiler, tc ctsCase) {
	g, err := NewJSONPathExists(tc.Selector, true, JSONPathOptions{})
	if err != nil {
		t.Fatalf("%q: %v", tc.Selector, err)
	}
	p := jsonparse.Parser{Native: true}
	doc, err := p.Parse(string(tc.Document))
	if err != nil {
		t.Fatal(err)
	}
	r := g.run(context.Background(), doc, 0)
	if r.Err != nil {
		t.Fatalf("%q: %v", tc.Selector, r.Err)
	}
	alts := tc.Results
	if alts == nil {
		alts = [][]json.RawMessage{tc.Result}
	}
	wants := make([]any, len(alts))
	matched := false
	for i, alt := range alts {
		list := make([]any, len(alt))
		for j, raw := range alt {
			if list[j], err = p.Parse(string(raw)); err != nil {
				t.Fatal(err)
			}
		}
		wants[i] = list
		matched = matched || jsonEqual(r.Nodes, list)
	}
	if !matched {
		t.Errorf("%q on %s: got %s, want %s", tc.Selector, tc.Document, showJSON(r.Nodes), showJSON(wants))
	}

	// The same through a spec: a singular query compares its one node.
	var spec map[string]any
	switch {
	case g.singular != nil && len(tc.Result) == 0:
		spec = map[string]any{"exists": false}
	case g.singular != nil:
		spec = map[string]any{"equals": tc.Result[0]}
	default:
		spec = map[string]any{"one_of": alts}
	}
	spec["type"], spec["path"] = "json_path", tc.Selector
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := c.Compile(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if got := gradeOutput(ch.Grader, string(tc.Document)); got.Status != StatusPassed {
		t.Errorf("%s on %s: got %v (%s)", b, tc.Document, got.Status, got.Reason)
	}
}
