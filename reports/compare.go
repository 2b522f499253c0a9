package reports

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// CaseChange is a case whose verdict differs between two runs.
type CaseChange struct {
	// ID is the case's id.
	ID string `json:"id"`
	// Base and Head are the case's verdicts in the base and head runs.
	Base proctor.Status `json:"base"`
	Head proctor.Status `json:"head"`
}

// Comparison is what changed between a base run and a head run of the same
// suite, case by case, and whether the change in pass/fail is more than
// chance would give.
type Comparison struct {
	// Regressions are cases that passed in base and failed or were flaky
	// in head.
	Regressions []CaseChange `json:"regressions"`
	// Fixes are cases that failed or were flaky in base and passed in head.
	Fixes []CaseChange `json:"fixes"`
	// Changed are the other verdict changes (to or from not graded, failed
	// to flaky and back).
	Changed []CaseChange `json:"changed"`
	// OnlyBase and OnlyHead are case ids present in one run only.
	OnlyBase []string `json:"only_base"`
	OnlyHead []string `json:"only_head"`
	// Paired is the number of cases measured (passed or failed) in both
	// runs: the pairs McNemar's test reads.
	Paired int `json:"paired"`
	// PassToFail and FailToPass are the discordant pairs among them.
	PassToFail int `json:"pass_to_fail"`
	FailToPass int `json:"fail_to_pass"`
	// PValue is the exact two-sided McNemar p-value over the discordant
	// pairs; 1 when there are none.
	PValue float64 `json:"p_value"`
	// MCNemarP is PValue again, under the name the statistics use.
	MCNemarP float64 `json:"mcnemar_p"`
	// Difference is head's pass rate minus base's over the pairs, with
	// its 95% interval; nil when no case was measured in both runs.
	Difference *Difference `json:"difference"`
	// NonInferior is the non-inferiority test, when a margin was given
	// ([CompareWith]).
	NonInferior *NonInferiorTest `json:"non_inferior,omitempty"`
	// MDE is the minimum detectable difference at this number of pairs
	// and discordance; nil when no case was measured in both runs.
	MDE *MDE `json:"mde"`
	// Warnings say why the two runs may not be comparable: different
	// suites, judges, judge models or prompt versions.
	Warnings []string `json:"warnings"`
}

// Compare pairs the cases of base and head by id and returns the
// regressions, fixes and other changes, in base's case order (then head's
// for new cases), with the exact McNemar test on the cases that passed or
// failed in both runs. Flaky and not graded verdicts are listed as changes
// but left out of the test: they are not a pass or a fail.
func Compare(base, head *proctor.Report) *Comparison {
	return compareVerdicts(base, head, ComparedCases(base.Cases), ComparedCases(head.Cases))
}

// ComparedCase is what a comparison needs of one case: its id, its verdict
// and its cluster. A caller comparing reports too large to hold keeps only
// these per case and calls [CompareVerdicts].
type ComparedCase struct {
	// ID is the case's id, which pairs it with the other run's case.
	ID string
	// Verdict is the case's verdict in its run.
	Verdict proctor.Status
	// Cluster is the case's cluster ("" for none), for the clustered
	// interval of the difference.
	Cluster string
}

// ComparedCases returns what a comparison needs of each case.
func ComparedCases(cases []proctor.CaseResult) []ComparedCase {
	out := make([]ComparedCase, len(cases))
	for i, c := range cases {
		out[i] = ComparedCase{ID: c.ID, Verdict: c.Verdict, Cluster: c.Cluster}
	}
	return out
}

// compareVerdicts is [Compare] over the reports' headers (suite, judges)
// and their cases' verdicts.
func compareVerdicts(base, head *proctor.Report, baseCases, headCases []ComparedCase) *Comparison {
	c := &Comparison{Regressions: []CaseChange{}, Fixes: []CaseChange{}, Changed: []CaseChange{},
		OnlyBase: []string{}, OnlyHead: []string{}, Warnings: []string{}}
	if base.Suite != head.Suite {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the reports are of different suites (%q and %q)", base.Suite, head.Suite))
	}
	c.Warnings = append(c.Warnings, judgeWarnings(base.Judges, head.Judges)...)
	// One map, of head's ids to their place, and a mark per head case
	// paired: what a million-case compare holds beside the cases.
	headAt := make(map[string]int32, len(headCases))
	for i, hc := range headCases {
		headAt[hc.ID] = int32(i)
	}
	paired := make([]bool, len(headCases))
	clustered := false // a pair measured in both runs names a cluster
	for _, bc := range baseCases {
		if bc.Cluster == "" || !measured(bc.Verdict) {
			continue
		}
		if i, ok := headAt[bc.ID]; ok && measured(headCases[i].Verdict) {
			clustered = true
			break
		}
	}
	var pairs metric.Pairs
	var diffs []float64 // with clusters only: the per-case differences
	var clusters []string
	for _, bc := range baseCases {
		i, ok := headAt[bc.ID]
		if !ok {
			c.OnlyBase = append(c.OnlyBase, bc.ID)
			continue
		}
		paired[i] = true
		bv, hv := bc.Verdict, headCases[i].Verdict
		if measured(bv) && measured(hv) {
			addPair(&pairs, bv, hv)
			if clustered {
				diffs = append(diffs, pass01(hv)-pass01(bv))
				clusters = append(clusters, cmp.Or(bc.Cluster, "\x00"+bc.ID))
			}
		}
		if bv != hv {
			c.addChange(CaseChange{ID: bc.ID, Base: bv, Head: hv})
		}
	}
	for _, hc := range headCases {
		if !paired[headAt[hc.ID]] { // its id is not in base
			c.OnlyHead = append(c.OnlyHead, hc.ID)
		}
	}
	c.Paired, c.PassToFail, c.FailToPass = pairs.N(), pairs.BaseOnly, pairs.HeadOnly
	c.PValue = metric.McNemarExact(c.PassToFail, c.FailToPass)
	c.pairedStats(pairs, diffs, clusters)
	return c
}

// addChange files a case whose verdict changed as a regression, a fix or
// another change.
func (c *Comparison) addChange(ch CaseChange) {
	bv, hv := ch.Base, ch.Head
	switch {
	case bv == proctor.StatusPassed && (hv == proctor.StatusFailed || hv == proctor.StatusFlaky):
		c.Regressions = append(c.Regressions, ch)
	case hv == proctor.StatusPassed && (bv == proctor.StatusFailed || bv == proctor.StatusFlaky):
		c.Fixes = append(c.Fixes, ch)
	default:
		c.Changed = append(c.Changed, ch)
	}
}

func measured(s proctor.Status) bool { return s == proctor.StatusPassed || s == proctor.StatusFailed }

// judgeWarnings names the judges whose identity differs between two runs:
// scores are comparable only with the judge and its prompts fixed.
func judgeWarnings(base, head []proctor.JudgeStats) []string {
	key := func(j proctor.JudgeStats) string {
		return fmt.Sprintf("%s (model %q, family %q, prompts %q)", j.Name, j.Model, j.Family, j.PromptVersion)
	}
	var bk, hk []string
	for _, j := range base {
		bk = append(bk, key(j))
	}
	for _, j := range head {
		hk = append(hk, key(j))
	}
	slices.Sort(bk)
	slices.Sort(hk)
	if slices.Equal(bk, hk) {
		return nil
	}
	var w []string
	for _, k := range bk {
		if !slices.Contains(hk, k) {
			w = append(w, "judge only in base: "+k)
		}
	}
	for _, k := range hk {
		if !slices.Contains(bk, k) {
			w = append(w, "judge only in head: "+k)
		}
	}
	return append([]string{"the runs used different judges or judge prompt versions: verdicts of model-graded checks are not comparable"}, w...)
}
