package suite

import "context"

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
