package proctor

import (
	"errors"
	"fmt"
)

// ErrSuiteMismatch is returned by [MergeReports] when the reports come from
// different suites.
var ErrSuiteMismatch = errors.New("reports are of different suites")

// ErrDuplicateCase is returned by [MergeReports] when two reports hold the
// same case id: shards of one run never overlap, so the reports are not
// shards of one run.
var ErrDuplicateCase = errors.New("a case id appears in more than one report")

// MergeReports joins the reports of the shards of one run (proctor run
// --shard i/n) into the report of the whole run. Totals are summed, cases
// are joined in the order given (the reports' order, and each report's own
// order, which is run order), judge statistics are summed by judge name and
// caveats are kept once each. The inputs are not modified.
//
// Reports of different suites are refused with an error wrapping
// [ErrSuiteMismatch]; reports that share a case id with one wrapping
// [ErrDuplicateCase]. Merging no reports returns an error.
func MergeReports(reports ...*Report) (*Report, error) {
	if len(reports) == 0 {
		return nil, errors.New("proctor: merge: no reports")
	}
	out := NewReport(reports[0].Suite)
	seen := make(map[string]int)
	judges := make(map[string]int)
	for i, r := range reports {
		if r == nil {
			return nil, fmt.Errorf("proctor: merge: report #%d is nil", i+1)
		}
		if r.Suite != out.Suite {
			return nil, fmt.Errorf("proctor: merge: report #%d is of suite %q, report #1 of %q: %w", i+1, r.Suite, out.Suite, ErrSuiteMismatch)
		}
		out.Totals.Passed += r.Totals.Passed
		out.Totals.Failed += r.Totals.Failed
		out.Totals.Flaky += r.Totals.Flaky
		out.Totals.NotGraded += r.Totals.NotGraded
		out.Totals.FlakyGatePassed += r.Totals.FlakyGatePassed
		out.Totals.AttemptsSaved += r.Totals.AttemptsSaved
		for _, c := range r.Cases {
			if j, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("proctor: merge: case %q is in report #%d and report #%d: %w", c.ID, j, i+1, ErrDuplicateCase)
			}
			seen[c.ID] = i + 1
			out.Cases = append(out.Cases, c)
		}
		for _, js := range r.Judges {
			k, ok := judges[js.Name]
			if !ok {
				judges[js.Name] = len(out.Judges)
				out.Judges = append(out.Judges, js)
				continue
			}
			sum := &out.Judges[k]
			if sum.Model != js.Model || sum.Family != js.Family || sum.PromptVersion != js.PromptVersion {
				out.AddCaveat(fmt.Sprintf("judge %q differs between shards (model %q/%q, prompts %q/%q)",
					js.Name, sum.Model, js.Model, sum.PromptVersion, js.PromptVersion))
			}
			sum.Calls += js.Calls
			sum.Retries += js.Retries
			sum.CacheHits += js.CacheHits
			sum.Errors += js.Errors
			sum.Tokens += js.Tokens
			sum.CostUSD += js.CostUSD
			sum.UnpricedCalls += js.UnpricedCalls
			sum.Agreed += js.Agreed
			sum.Disagreed += js.Disagreed
			sum.Abstained += js.Abstained
		}
		if r.Panels != nil {
			out.addPanels(r.Panels)
		}
		for _, c := range r.Caveats {
			out.AddCaveat(c)
		}
	}
	return out, nil
}
