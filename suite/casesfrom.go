package suite

import (
	"context"
	"encoding/json"
)

// caseNode turns the fields of a case read from another tool's file into
// the node a case of a cases list is, placed at line.
func caseNode(obj map[string]any, line int) (*node, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	n, err := parseJSON(b, 1)
	if err != nil {
		return nil, err
	}
	n.line = line
	return n, nil
}

// casesSources are the keys a suite's cases may come from, one at most.
var casesSources = []string{"cases", "cases_csv", "cases_promptfoo", "cases_inspect"}

// casesNode returns the list of cases the suite holds, from its cases key
// or read from the file cases_csv, cases_promptfoo or cases_inspect names
// (as a list node of the same shape); nil when it has none.
func (s *Suite) casesNode(ctx context.Context, doc *node) (*node, error) {
	var from string
	for _, k := range casesSources {
		if doc.get(k) == nil {
			continue
		}
		if from != "" {
			return nil, s.errAt(doc.get(k), k, "give one of cases, cases_csv, cases_promptfoo and cases_inspect, not both %s and %s", from, k)
		}
		from = k
	}
	n := doc.get(from)
	switch from {
	case "cases":
		return n, nil
	case "cases_csv":
		return s.csvCases(n)
	case "cases_promptfoo":
		return s.promptfooCases(ctx, n)
	case "cases_inspect":
		return s.inspectCases(n)
	}
	return nil, s.errAt(doc, "cases", "missing: a suite needs a list of cases (or cases_csv, cases_promptfoo, cases_inspect)")
}
