package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/jsonpatheval"
	"github.com/theory/jsonpath"
	"github.com/theory/jsonpath/spec"
)

// ctsCase is one case of the JSONPath Compliance Test Suite (the
// repository's testdata/jsonpath-cts.json, its cts.json at the commit
// named in testdata/jsonpath-cts.SOURCE.md; the CLI's tests read it too,
// so it stays there).
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
	b, err := os.ReadFile("../testdata/jsonpath-cts.json")
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
	c := proctor.NewCompiler()
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

func ctsInvalid(t *testing.T, c *proctor.Compiler, tc ctsCase) {
	spec, _ := json.Marshal(map[string]any{"type": "json_path", "path": tc.Selector, "exists": true})
	_, err := c.Compile(spec)
	var se *proctor.SpecError
	if !errors.As(err, &se) || se.Option != "path" {
		t.Fatalf("%q: got %v, want a *SpecError on path", tc.Selector, err)
	}
	if _, err := proctor.NewJSONPathEquals(tc.Selector, 1, proctor.JSONPathOptions{}); err == nil {
		t.Fatalf("%q: NewJSONPathEquals accepted it", tc.Selector)
	}
}

func ctsValid(t *testing.T, c *proctor.Compiler, tc ctsCase) {
	if _, err := proctor.NewJSONPathExists(tc.Selector, true, proctor.JSONPathOptions{}); err != nil {
		t.Fatalf("%q: %v", tc.Selector, err)
	}
	// The evaluator the json_path grader runs on a query that can select
	// several nodes: the query parsed and compiled as NewJSONPath* does,
	// evaluated with the default budgets and no node limit.
	parsed, err := jsonpath.Parse(tc.Selector)
	if err != nil {
		t.Fatalf("%q: %v", tc.Selector, err)
	}
	q, err := jsonpatheval.Compile(parsed.Query())
	if err != nil {
		t.Fatalf("%q: %v", tc.Selector, err)
	}
	p := jsonparse.Parser{Native: true}
	doc, err := p.Parse(string(tc.Document))
	if err != nil {
		t.Fatal(err)
	}
	r := jsonpatheval.Eval(context.Background(), q, doc, 0, jsonpatheval.DefaultMaxWork, jsonpatheval.DefaultMaxNodes)
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
		matched = matched || jsonpatheval.Equal(r.Nodes, list)
	}
	if !matched {
		t.Errorf("%q on %s: got %s, want %s", tc.Selector, tc.Document, showJSON(r.Nodes), showJSON(wants))
	}

	// The same through a spec: a singular query compares its one node.
	singular := singularQuery(parsed.Query())
	var spec map[string]any
	switch {
	case singular && len(tc.Result) == 0:
		spec = map[string]any{"exists": false}
	case singular:
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
	if got := ch.Grader.Grade(context.Background(), &proctor.Sample{Output: string(tc.Document)}); got.Status != proctor.StatusPassed {
		t.Errorf("%s on %s: got %v (%s)", b, tc.Document, got.Status, got.Reason)
	}
}

// singularQuery reports whether the json_path grader treats q as singular
// (RFC 9535 2.3.5.1: $ then one name or index per segment) and so
// compares its one node with "equals" rather than a node list.
func singularQuery(q *spec.PathQuery) bool {
	if q.Singular() == nil {
		return false
	}
	for _, seg := range q.Segments() {
		switch seg.Selectors()[0].(type) {
		case spec.Name, spec.Index:
		default:
			return false
		}
	}
	return true
}

// showJSON writes v as JSON for a failure message.
func showJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
