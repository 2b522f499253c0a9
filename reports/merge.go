package reports

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor"
)

// ErrSuiteMismatch is returned by [Merge] when the reports come from
// different suites: different suite names, or shard reports of different
// suite digests.
var ErrSuiteMismatch = errors.New("reports: different suites")

// ErrDuplicateCase is returned by [Merge] when two reports hold the same
// case id: shards of one run never overlap, so the reports are not shards
// of one run.
var ErrDuplicateCase = errors.New("reports: a case id appears in more than one report")

// ErrRepeatedShard is returned by [Merge] when two reports are the same
// shard I/N.
var ErrRepeatedShard = errors.New("reports: a shard is given twice")

// ErrIncompleteShards is returned by [Merge] when shards of the run are
// missing (and [MergeOptions.AllowPartial] is not set), when the shards
// disagree on N, or when shard and whole-run reports are mixed.
var ErrIncompleteShards = errors.New("reports: not a complete set of shards")

// MergeOptions configure [MergeWith].
type MergeOptions struct {
	// AllowPartial merges shard reports that do not make up the whole
	// run; the merged report's caveats name the missing shards.
	AllowPartial bool
	// Names name the reports in errors and caveats (file names, say), by
	// position; a report without a name is "report #K".
	Names []string
}

func (o MergeOptions) name(i int) string {
	if i < len(o.Names) && o.Names[i] != "" {
		return o.Names[i]
	}
	return fmt.Sprintf("report #%d", i+1)
}

// Merge is [MergeWith] with the zero options: every shard of the run must
// be there.
func Merge(reports ...*proctor.Report) (*proctor.Report, error) {
	return MergeWith(MergeOptions{}, reports...)
}

// MergeWith joins the reports of the shards of one run (proctor run
// --shard i/n, each recording its [proctor.ReportShard]) into the report
// of the whole run. Totals are summed, judge statistics are summed by
// judge name, panel statistics are summed with their alpha computed
// again ([proctor.Report.AddPanels]) and caveats are kept once each. When
// every report records its shard with case positions, the cases come out
// in the whole run's order; otherwise in the order given (and each
// report's own order). The inputs are not modified.
//
// Reports of different suites (names, or digests of shard reports) are
// refused with an error wrapping [ErrSuiteMismatch]; reports that share a
// case id with one wrapping [ErrDuplicateCase]; the same shard twice with
// [ErrRepeatedShard]; a set of shards missing one (unless
// opts.AllowPartial), of different N, or mixed with whole-run reports,
// with [ErrIncompleteShards]. Errors name the reports by opts.Names.
// Merging no reports returns an error.
func MergeWith(opts MergeOptions, reports ...*proctor.Report) (*proctor.Report, error) {
	if len(reports) == 0 {
		return nil, errors.New("reports: merge: no reports")
	}
	for i, r := range reports {
		if r == nil {
			return nil, fmt.Errorf("reports: merge: %s is nil", opts.name(i))
		}
	}
	missing, err := checkShards(opts, reports)
	if err != nil {
		return nil, err
	}
	out := proctor.NewReport(reports[0].Suite)
	out.SuiteDigest = reports[0].SuiteDigest
	for i, r := range reports {
		if r.Suite != out.Suite {
			return nil, fmt.Errorf("%w: %s is of suite %q, %s of %q", ErrSuiteMismatch, opts.name(i), r.Suite, opts.name(0), out.Suite)
		}
		mergeTotals(&out.Totals, r.Totals)
		mergeJudges(out, r.Judges)
		out.AddPanels(r.Panels)
		for _, c := range r.Caveats {
			out.AddCaveat(c)
		}
	}
	cases, err := mergeCases(opts, reports)
	if err != nil {
		return nil, err
	}
	out.Cases = cases
	if len(missing) > 0 {
		out.AddCaveat(fmt.Sprintf("partial merge: shards %s of %d missing; the totals count only the %d cases of the shards merged",
			strings.Join(missing, ", "), reports[0].Shard.N, out.Totals.Cases()))
	}
	return out, nil
}

// checkShards checks the reports are one set of shards of one suite and
// returns the shards missing from it ("2/4"), an error when they are not.
func checkShards(opts MergeOptions, reports []*proctor.Report) (missing []string, err error) {
	first := reports[0]
	if first.Shard == nil {
		for i, r := range reports {
			if r.Shard != nil {
				return nil, fmt.Errorf("%w: %s is shard %d/%d, %s is a whole run", ErrIncompleteShards, opts.name(i), r.Shard.I, r.Shard.N, opts.name(0))
			}
		}
		return nil, nil
	}
	n := first.Shard.N
	have := make(map[int]int, n)
	for i, r := range reports {
		switch {
		case r.Shard == nil:
			return nil, fmt.Errorf("%w: %s is a whole run, %s is shard %d/%d", ErrIncompleteShards, opts.name(i), opts.name(0), first.Shard.I, n)
		case r.Shard.N != n:
			return nil, fmt.Errorf("%w: %s is shard %d/%d, %s is shard %d/%d", ErrIncompleteShards, opts.name(i), r.Shard.I, r.Shard.N, opts.name(0), first.Shard.I, n)
		case r.SuiteDigest != first.SuiteDigest:
			return nil, fmt.Errorf("%w: %s has suite digest %s, %s has %s", ErrSuiteMismatch, opts.name(i), cmp.Or(r.SuiteDigest, "(none)"), opts.name(0), cmp.Or(first.SuiteDigest, "(none)"))
		case r.Shard.I < 1 || r.Shard.I > n:
			return nil, fmt.Errorf("%w: %s is shard %d/%d: want 1 <= I <= N", ErrIncompleteShards, opts.name(i), r.Shard.I, n)
		}
		if j, dup := have[r.Shard.I]; dup {
			return nil, fmt.Errorf("%w: %s and %s are both shard %d/%d", ErrRepeatedShard, opts.name(j), opts.name(i), r.Shard.I, n)
		}
		have[r.Shard.I] = i
	}
	for k := 1; k <= n; k++ {
		if _, ok := have[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 && !opts.AllowPartial {
		return nil, fmt.Errorf("%w: shards %s missing (%d of %d given)", ErrIncompleteShards, strings.Join(missing, ", "), len(reports), n)
	}
	return missing, nil
}

func mergeTotals(t *proctor.Totals, add proctor.Totals) {
	t.Passed += add.Passed
	t.Failed += add.Failed
	t.Flaky += add.Flaky
	t.NotGraded += add.NotGraded
	t.FlakyGatePassed += add.FlakyGatePassed
	t.AttemptsSaved += add.AttemptsSaved
}

// mergeJudges sums js into out's judge statistics by judge name.
func mergeJudges(out *proctor.Report, js []proctor.JudgeStats) {
	for _, j := range js {
		k := slices.IndexFunc(out.Judges, func(s proctor.JudgeStats) bool { return s.Name == j.Name })
		if k < 0 {
			out.Judges = append(out.Judges, j)
			continue
		}
		sum := &out.Judges[k]
		if sum.Model != j.Model || sum.Family != j.Family || sum.PromptVersion != j.PromptVersion {
			out.AddCaveat(fmt.Sprintf("judge %q differs between shards (model %q/%q, prompts %q/%q)",
				j.Name, sum.Model, j.Model, sum.PromptVersion, j.PromptVersion))
		}
		sum.Calls += j.Calls
		sum.Retries += j.Retries
		sum.CacheHits += j.CacheHits
		sum.Errors += j.Errors
		sum.Tokens += j.Tokens
		sum.CostUSD += j.CostUSD
		sum.UnpricedCalls += j.UnpricedCalls
		sum.Agreed += j.Agreed
		sum.Disagreed += j.Disagreed
		sum.Abstained += j.Abstained
	}
}

// mergeCases joins the reports' cases, refusing a case id in two of them,
// in the whole run's order when every report has its positions.
func mergeCases(opts MergeOptions, reports []*proctor.Report) ([]proctor.CaseResult, error) {
	type placed struct{ pos, report int }
	var total int
	ordered := true
	for _, r := range reports {
		total += len(r.Cases)
		ordered = ordered && r.Shard != nil && len(r.Shard.Positions) == len(r.Cases)
	}
	seen := make(map[string]int, total)
	cases := make([]proctor.CaseResult, 0, total)
	at := make([]placed, 0, total)
	for i, r := range reports {
		for k, c := range r.Cases {
			if j, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("%w: case %q is in %s and %s", ErrDuplicateCase, c.ID, opts.name(j), opts.name(i))
			}
			seen[c.ID] = i
			cases = append(cases, c)
			if ordered {
				at = append(at, placed{r.Shard.Positions[k], i})
			}
		}
	}
	if !ordered {
		return cases, nil
	}
	idx := make([]int, len(cases))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(at[a].pos, at[b].pos) })
	sorted := make([]proctor.CaseResult, len(cases))
	for k, j := range idx {
		if k > 0 && at[j].pos == at[idx[k-1]].pos {
			return nil, fmt.Errorf("%w: %s and %s both hold position %d", ErrDuplicateCase, opts.name(at[idx[k-1]].report), opts.name(at[j].report), at[j].pos)
		}
		sorted[k] = cases[j]
	}
	return sorted, nil
}
