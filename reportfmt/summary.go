// Package reportfmt renders a [proctor.Report] for people and CI systems:
// a terminal table, Markdown for a pull-request comment, JUnit XML, the
// report's JSON written case by case, and one-file HTML pages of a run and
// of a comparison of two runs. It also computes what a reader needs
// beside the four verdict counts: the pass rate with its 95% Wilson
// interval, the flaky rate, pass@k and pass^k over attempts, and the
// reasons cases were not graded, grouped.
//
// A [Summary] accumulates case results one at a time and keeps only a
// bounded number of them, so a run of any size can be rendered in constant
// memory; [Summarize] builds one from a whole report.
//
// Every format has one shape, by what it needs:
//
//   - A format that prints a summary (text, Markdown) is written whole
//     from a Summary: WriteX(w, s *Summary, opts XOptions) error.
//   - A format that holds every case (JSON, JUnit, HTML, the compare page)
//     is written case by case: NewX(w, suite, opts XOptions) *X starts it,
//     Add takes each case result (CompareHTML.Add each pair), and Finish
//     writes what follows the cases (the Summary; for the compare page,
//     the comparison) and flushes w without closing it. Its
//     WriteX(w, r *proctor.Report, opts XOptions) error is a convenience
//     for a report held whole: NewX, Add for each case, Finish.
//
// The zero value of every options struct is the default its fields
// document; the compare page takes [HTMLOptions], as a run's page does.
package reportfmt

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// DefaultRows is how many cases a [Summary] keeps for listing when
// [Summary.Rows] is zero.
const DefaultRows = 50

// Summary is what the report formats print: the verdict counts, rates and
// attempt statistics of a run, its judges and caveats, and a bounded list of
// cases worth reading. Build one with [NewSummary] and [Summary.Add], or
// with [Summarize]. A Summary is not safe for concurrent use.
type Summary struct {
	// Suite names the suite.
	Suite string
	// Totals counts case verdicts.
	Totals proctor.Totals
	// Judges are the judges' identities and costs; set by the caller
	// ([Summarize] copies the report's).
	Judges []proctor.JudgeStats
	// Panels is how the panels convened agreed; nil when none was. Set by
	// the caller ([Summarize] copies the report's).
	Panels *proctor.PanelStats
	// Caveats are the things a reader must know; [Summary.Add] adds the
	// caveats of the grades it sees, once each.
	Caveats []string
	// Bootstrap, when set, adds a cluster bootstrap to the run's
	// clustered pass rate ([Summary.ClusteredRate]).
	Bootstrap *BootstrapOptions
	// GroupBy names the suite's group_by field; set, [Summary.Groups]
	// counts the cases by their [proctor.CaseResult.Group], or, when it
	// is [GroupByTags], under each of their [proctor.CaseResult.Tags].
	GroupBy string
	// Rows is how many cases to keep for listing (default [DefaultRows]).
	// While the run has no more cases than that, every case is kept; after,
	// passed cases are dropped first and counted in OmittedPassed.
	Rows int

	cases         []proctor.CaseResult
	omittedPassed int
	omittedOther  int
	reasons       map[string]int
	attempts      map[[2]int]int // (measured attempts, passed attempts) -> cases
	splits        breakdown
	groups        breakdown // by each case's group field
	tagGroups     breakdown // by each of its tags
	clusters      clusterStats
	calibrated    map[string]*CorrectedRate // by grader name
	calibOrder    []string
	gradeCounts   map[string]*[2]int // by grader name: passed, passed or failed
}

// NewSummary returns an empty Summary for the named suite.
func NewSummary(suite string) *Summary {
	return &Summary{Suite: suite, Judges: []proctor.JudgeStats{}, Caveats: []string{}}
}

// Summarize returns the Summary of a whole report, with its judges and
// caveats.
func Summarize(r *proctor.Report) *Summary {
	s := NewSummary(r.Suite)
	for _, c := range r.Cases {
		s.Add(c)
	}
	// A report whose cases were dropped still carries its counts.
	s.Totals = r.Totals
	s.Judges = append(s.Judges, r.Judges...)
	s.Panels = r.Panels
	for _, c := range r.Caveats {
		s.AddCaveat(c)
	}
	return s
}

// maxReasons bounds the distinct not-graded reasons a Summary keeps; the
// rest are counted under one line.
const maxReasons = 200

const otherReasons = "(other reasons)"

// Add counts one case result and keeps it for listing if there is room.
func (s *Summary) Add(c proctor.CaseResult) {
	s.Totals.Count(c)
	s.splits.add(c.Split, c)
	// Counted whether or not GroupBy is set yet: a reader of a report
	// learns it from the report's tail, after the cases.
	s.addGroups(c)
	s.clusters.add(c)
	s.countCalibrated(c)
	var n, pass int
	for _, a := range c.Attempts {
		switch a.Verdict {
		case proctor.StatusPassed:
			n++
			pass++
		case proctor.StatusFailed:
			n++
		}
		for _, g := range a.Grades {
			for _, cv := range g.Caveats {
				s.AddCaveat(cv)
			}
		}
	}
	if n > 0 {
		if s.attempts == nil {
			s.attempts = map[[2]int]int{}
		}
		s.attempts[[2]int{n, pass}]++
	}
	if c.Verdict == proctor.StatusNotGraded {
		if s.reasons == nil {
			s.reasons = map[string]int{}
		}
		r := firstLine(CaseReason(c))
		if _, ok := s.reasons[r]; !ok && len(s.reasons) >= maxReasons {
			r = otherReasons
		}
		s.reasons[r]++
	}
	s.keep(c)
}

// Keeps reports whether [Summary.Add] would keep a case of verdict v
// given to it next for listing, so a caller decoding cases can decode
// whole only those and give Add the rest with just the fields it counts
// (verdict, split, group, cluster, attempts' verdicts, grades' graders,
// statuses and caveats; a not-graded case's reason too).
func (s *Summary) Keeps(v proctor.Status) bool {
	if len(s.cases) < cmp.Or(s.Rows, DefaultRows) {
		return true
	}
	return v != proctor.StatusPassed && slices.ContainsFunc(s.cases, func(k proctor.CaseResult) bool { return k.Verdict == proctor.StatusPassed })
}

func (s *Summary) keep(c proctor.CaseResult) {
	limit := cmp.Or(s.Rows, DefaultRows)
	if len(s.cases) < limit {
		s.cases = append(s.cases, c)
		return
	}
	if c.Verdict == proctor.StatusPassed {
		s.omittedPassed++
		return
	}
	// Make room by dropping the earliest passed case kept.
	if i := slices.IndexFunc(s.cases, func(k proctor.CaseResult) bool { return k.Verdict == proctor.StatusPassed }); i >= 0 {
		s.cases = slices.Delete(s.cases, i, i+1)
		s.omittedPassed++
		s.cases = append(s.cases, c)
		return
	}
	s.omittedOther++
}

// SplitTotals are the verdict counts of the cases of one split.
type SplitTotals struct {
	// Split names the split; "" for the cases that name none.
	Split string `json:"split"`
	// Totals counts the split's case verdicts.
	Totals proctor.Totals `json:"totals"`
	// ClusteredSE is the split's pass rate with its cluster-robust
	// standard error, when cases name clusters.
	ClusteredSE *ClusteredRate `json:"clustered_se,omitempty"`
}

// Splits returns the verdict counts of each split (a case's
// [proctor.CaseResult.Split]: development, holdout...), by split name,
// the cases with no split first; nil when no case named a split, so a
// report of an unsplit suite shows no breakdown. A split's pass rate is
// its Totals.PassRate, computed as the run's.
func (s *Summary) Splits() []SplitTotals {
	if len(s.splits) == 0 || (len(s.splits) == 1 && s.splits[""] != nil) {
		return nil
	}
	return splitsOf(s.splits.list())
}

// GroupByTags is the [Summary.GroupBy] that groups cases by their tags
// ([proctor.CaseResult.Tags]): a case with several tags is counted under
// each, a case with none under the group "" ("(no tag)" in print), so the
// groups' counts can add up to more than the run's.
const GroupByTags = "tags"

// addGroups counts c in its group_by groups: its Group, or each of its
// distinct tags when grouping by tags.
func (s *Summary) addGroups(c proctor.CaseResult) {
	s.groups.add(c.Group, c)
	if len(c.Tags) == 0 {
		s.tagGroups.add("", c)
		return
	}
	for i, tag := range c.Tags {
		if !slices.Contains(c.Tags[:i], tag) {
			s.tagGroups.add(tag, c)
		}
	}
}

// groupName is a group as reports print it: "(no tag)" or "(none)" for
// the cases with no value.
func (s *Summary) groupName(g string) string {
	switch {
	case g != "":
		return g
	case s.GroupBy == GroupByTags:
		return "(no tag)"
	}
	return "(none)"
}

// GroupTotals are the verdict counts of the cases of one group of the
// suite's group_by field.
type GroupTotals struct {
	// Group is the group's value; "" for the cases that have none.
	Group string `json:"group"`
	// Totals counts the group's case verdicts.
	Totals proctor.Totals `json:"totals"`
	// ClusteredSE is the group's pass rate with its cluster-robust
	// standard error, when cases name clusters.
	ClusteredSE *ClusteredRate `json:"clustered_se,omitempty"`
}

// Groups returns the verdict counts of each group of the suite's group_by
// field ([proctor.CaseResult.Group], or each tag with [GroupByTags]), by
// group name, the cases with no value first; nil when GroupBy is not set.
func (s *Summary) Groups() []GroupTotals {
	if s.GroupBy == "" {
		return nil
	}
	b := s.groups
	if s.GroupBy == GroupByTags {
		b = s.tagGroups
	}
	var out []GroupTotals
	for _, e := range b.list() {
		out = append(out, GroupTotals{Group: e.key, Totals: e.Totals, ClusteredSE: e.ClusteredSE})
	}
	return out
}

func splitsOf(es []keyed) []SplitTotals {
	out := make([]SplitTotals, len(es))
	for i, e := range es {
		out[i] = SplitTotals{Split: e.key, Totals: e.Totals, ClusteredSE: e.ClusteredSE}
	}
	return out
}

// keyed is one entry of a breakdown.
type keyed struct {
	key         string
	Totals      proctor.Totals
	ClusteredSE *ClusteredRate
}

// breakdown counts verdicts and clusters by a key: a split or a group.
type breakdown map[string]*struct {
	totals   proctor.Totals
	clusters clusterStats
}

func (b *breakdown) add(key string, c proctor.CaseResult) {
	if *b == nil {
		*b = breakdown{}
	}
	e := (*b)[key]
	if e == nil {
		e = &struct {
			totals   proctor.Totals
			clusters clusterStats
		}{}
		(*b)[key] = e
	}
	e.totals.Count(c)
	e.clusters.add(c)
}

// list returns the entries sorted by key.
func (b breakdown) list() []keyed {
	keys := slices.Sorted(maps.Keys(b))
	out := make([]keyed, 0, len(keys))
	for _, k := range keys {
		out = append(out, keyed{key: k, Totals: b[k].totals, ClusteredSE: b[k].clusters.rate(nil)})
	}
	return out
}

// splitName is a split as reports print it.
func splitName(s string) string {
	if s == "" {
		return "(no split)"
	}
	return s
}

// AddCaveat adds a caveat unless the summary already has it.
func (s *Summary) AddCaveat(c string) {
	if c != "" && !slices.Contains(s.Caveats, c) {
		s.Caveats = append(s.Caveats, c)
	}
}

// Cases returns the cases kept for listing, in the order they were added.
func (s *Summary) Cases() []proctor.CaseResult { return s.cases }

// Omitted returns how many passed and how many other cases were not kept
// for listing.
func (s *Summary) Omitted() (passed, other int) { return s.omittedPassed, s.omittedOther }

// PassRate returns passed / (passed + failed) and that denominator; ok is
// false when the denominator is zero.
func (s *Summary) PassRate() (rate float64, denominator int, ok bool) {
	return s.Totals.PassRate()
}

// FlakyRate returns flaky / (passed + failed + flaky), the share of
// measured cases whose attempts disagreed, and that denominator; ok is false
// when no case was measured.
func (s *Summary) FlakyRate() (rate float64, denominator int, ok bool) {
	d := s.Totals.Passed + s.Totals.Failed + s.Totals.Flaky
	if d == 0 {
		return 0, 0, false
	}
	return float64(s.Totals.Flaky) / float64(d), d, true
}

// MaxAttempts returns the largest number of measured (passed or failed)
// attempts any case had.
func (s *Summary) MaxAttempts() int {
	m := 0
	for k := range s.attempts {
		m = max(m, k[0])
	}
	return m
}

// PassAtK returns the mean of [metric.PassAtK] and of [metric.PassHatK] over the cases
// with at least k measured attempts, and how many cases that is. Attempts
// that were not graded are left out, never counted as failures.
func (s *Summary) PassAtK(k int) (passAt, passHat float64, cases int) {
	var sumAt, sumHat float64
	for key, cnt := range s.attempts {
		n, c := key[0], key[1]
		if n < k {
			continue
		}
		sumAt += float64(cnt) * metric.PassAtK(n, c, k)
		sumHat += float64(cnt) * metric.PassHatK(n, c, k)
		cases += cnt
	}
	if cases == 0 {
		return math.NaN(), math.NaN(), 0
	}
	return sumAt / float64(cases), sumHat / float64(cases), cases
}

// ReasonCount is a reason cases were not graded and how many were.
type ReasonCount struct {
	// Reason is the first line of the case's [CaseReason]; past a bound on
	// 200 distinct reasons, new ones are counted under "(other reasons)".
	Reason string
	// Cases is how many cases were not graded for it.
	Cases int
}

// NotGradedReasons returns the reasons cases were not graded, most common
// first, then by reason.
func (s *Summary) NotGradedReasons() []ReasonCount {
	out := make([]ReasonCount, 0, len(s.reasons))
	for r, n := range s.reasons {
		out = append(out, ReasonCount{r, n})
	}
	slices.SortFunc(out, func(a, b ReasonCount) int {
		return cmp.Or(cmp.Compare(b.Cases, a.Cases), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}

// CaseReason returns the sentence that best says why a case got its
// verdict: the first failed check of a failed (or flaky) case, the first
// not-graded check or subject error of a not-graded case, "" for a passed
// one. It reads "grader: reason".
func CaseReason(c proctor.CaseResult) string {
	want := proctor.StatusFailed
	if c.Verdict == proctor.StatusNotGraded {
		want = proctor.StatusNotGraded
	} else if c.Verdict == proctor.StatusPassed {
		return ""
	}
	for _, a := range c.Attempts {
		for i, g := range a.Grades {
			if g.Status == want {
				r := g.Grader
				// The skipped checks come before the reason, so a clipped
				// reason never hides them.
				if len(a.Skipped) > 0 && i == len(a.Grades)-1 {
					r += " [required: skipped " + strings.Join(a.Skipped, ", ") + "]"
				}
				switch {
				case strings.HasPrefix(g.Reason, g.Grader+" ") && len(a.Skipped) == 0:
					// "subject failed: ..." names its grader already.
					r = g.Reason
				case g.Reason != "":
					r += ": " + g.Reason
				}
				return r
			}
		}
		if want == proctor.StatusNotGraded && a.Error != "" {
			return "subject: " + a.Error
		}
	}
	if want == proctor.StatusNotGraded && len(c.Attempts) == 0 {
		return "no attempt was made"
	}
	if want == proctor.StatusNotGraded {
		return "no check graded the output"
	}
	return ""
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// clip shortens s to n runes, marking the cut.
func clip(s string, n int) string {
	s = firstLine(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

// attemptCounts returns a case's passed and total attempts.
func attemptCounts(c proctor.CaseResult) (passed, total int) {
	for _, a := range c.Attempts {
		if a.Verdict == proctor.StatusPassed {
			passed++
		}
	}
	return passed, len(c.Attempts)
}

// verdictWord is a verdict as people read it: "not graded" with a space.
func verdictWord(v proctor.Status) string {
	if v == proctor.StatusNotGraded {
		return "not graded"
	}
	return v.String()
}
