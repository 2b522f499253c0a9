package proctor

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/proctorhq/proctor/internal/kit"
)

// Totals counts case verdicts. Flaky and not graded are counted on their
// own, never folded into passed or failed.
type Totals struct {
	// Passed counts cases whose every measured attempt passed.
	Passed int `json:"passed"`
	// Failed counts cases whose every measured attempt failed.
	Failed int `json:"failed"`
	// Flaky counts cases with passed and failed attempts.
	Flaky int `json:"flaky"`
	// NotGraded counts cases with no measured attempt.
	NotGraded int `json:"not_graded"`
	// FlakyGatePassed counts the flaky cases that still passed the gate
	// because at least min_pass of their attempts passed
	// ([CaseResult.GatePassed]). They are counted in Flaky too.
	FlakyGatePassed int `json:"flaky_gate_passed,omitempty"`
	// AttemptsSaved counts the attempts stop_early did not make.
	AttemptsSaved int `json:"attempts_saved,omitempty"`
}

// Count adds one case result: its verdict, whether a flaky one passed
// the gate, and the attempts it saved.
func (t *Totals) Count(c CaseResult) {
	t.add(c.Verdict, 1)
	if c.Verdict == StatusFlaky && c.GatePassed() {
		t.FlakyGatePassed++
	}
	t.AttemptsSaved += c.AttemptsSaved
}

// Cases returns the number of cases counted.
func (t Totals) Cases() int { return t.Passed + t.Failed + t.Flaky + t.NotGraded }

// PassRate returns passed / (passed + failed) and that denominator. With a
// zero denominator the rate is not available: ok is false, never 0 or 1.
func (t Totals) PassRate() (rate float64, denominator int, ok bool) {
	d := t.Passed + t.Failed
	if d == 0 {
		return 0, 0, false
	}
	return float64(t.Passed) / float64(d), d, true
}

func (t *Totals) add(v Status, n int) {
	switch v {
	case StatusPassed:
		t.Passed += n
	case StatusFailed:
		t.Failed += n
	case StatusFlaky:
		t.Flaky += n
	default:
		t.NotGraded += n
	}
}

// JudgeStats is what one judge cost in a run.
type JudgeStats struct {
	// Name is the judge's name in the configuration.
	Name string `json:"name"`
	// Family is its model family.
	Family string `json:"family,omitempty"`
	// Model is its model name.
	Model string `json:"model,omitempty"`
	// Calls counts the requests made to the judge, retries included (Retries
	// says how many of them were retries) and so are a client's own
	// fallbacks and retries (see [JudgeReply.Requests]); cache hits are not
	// calls.
	Calls int `json:"calls"`
	// Retries counts calls repeated after a transient error.
	Retries int `json:"retries,omitempty"`
	// CacheHits counts identical calls answered without asking again.
	CacheHits int `json:"cache_hits,omitempty"`
	// Errors counts the calls that returned an error, including transient
	// errors that a retry then got past.
	Errors int `json:"errors,omitempty"`
	// Tokens is the tokens the calls used, where reported.
	Tokens int `json:"tokens,omitempty"`
	// CostUSD is what the calls cost, where prices are known.
	CostUSD float64 `json:"cost_usd,omitempty"`
	// UnpricedCalls counts the calls whose cost is not known (a judge
	// without prices, a reply without usage). When it is above 0, CostUSD
	// counts only the other calls: see [JudgeStats.CostText].
	UnpricedCalls int `json:"unpriced_calls,omitempty"`
	// PromptVersion identifies the prompts the judge was asked with; scores
	// are comparable between runs only with the judge and prompts fixed.
	PromptVersion string `json:"prompt_version,omitempty"`
	// Agreed and Disagreed count the judge's pass or fail votes in grades
	// that ended passed or failed: those that matched the final verdict
	// and those that did not. A drifting judge shows as a falling
	// [JudgeStats.Agreement]. Cached votes count: they are verdicts.
	Agreed    int `json:"agreed,omitempty"`
	Disagreed int `json:"disagreed,omitempty"`
	// Abstained counts the judge's abstentions, failed calls and
	// unreadable replies included.
	Abstained int `json:"abstained,omitempty"`
}

// CostKnown reports whether the cost of every call is known.
func (s JudgeStats) CostKnown() bool { return s.UnpricedCalls == 0 }

// CostText says what the calls cost, never passing an unknown cost off as
// $0: "$0.0123"; "cost unknown" when no call's cost is known; "$0.0123 +
// unknown (3 of 10 calls unpriced)" when some are.
func (s JudgeStats) CostText() string {
	switch {
	case s.UnpricedCalls == 0:
		return fmt.Sprintf("$%.4f", s.CostUSD)
	case s.UnpricedCalls >= s.Calls && s.CostUSD == 0:
		return "cost unknown"
	}
	return fmt.Sprintf("$%.4f + unknown (%d of %d calls unpriced)", s.CostUSD, s.UnpricedCalls, s.Calls)
}

// Agreement returns the share of the judge's pass or fail votes that
// matched the final verdict, and false when it cast none in a decided
// grade.
func (s JudgeStats) Agreement() (float64, bool) {
	n := s.Agreed + s.Disagreed
	if n == 0 {
		return 0, false
	}
	return float64(s.Agreed) / float64(n), true
}

// Report is the result of a run: the four verdict counts, the pass rate with
// its denominator, per-case results, what the judges cost and the caveats a
// reader must know. The JSON form is the report of docs/formats.md, which report merge
// and compare read.
type Report struct {
	// Suite is the suite's name.
	Suite string `json:"suite"`
	// Shard is the slice of the suite a shard report covers (proctor run
	// --shard); nil for a whole run and a merged one.
	Shard *ReportShard `json:"shard,omitempty"`
	// SuiteDigest identifies the suite's content (docs/sharding.md), so
	// a merge can refuse shards of different suites; empty when unknown.
	SuiteDigest string `json:"suite_digest,omitempty"`
	// Totals counts the case verdicts.
	Totals Totals `json:"totals"`
	// Cases are the case results in input order.
	Cases []CaseResult `json:"cases"`
	// Judges are the judges asked and what they cost.
	Judges []JudgeStats `json:"judges"`
	// Panels measures the agreement of the panels convened; nil when none
	// was.
	Panels *PanelStats `json:"panels,omitempty"`
	// Caveats are what a reader must know about how the verdicts were
	// reached, each once.
	Caveats []string `json:"caveats"`
}

// ReportShard says which slice of a suite a shard report covers (proctor
// run --shard I/N).
type ReportShard struct {
	// I is the shard, from 1 to N.
	I int `json:"i"`
	// N is the number of shards of the run.
	N int `json:"n"`
	// Positions are the places (from 0) the report's cases have in the
	// whole suite, one per case in the order of [Report.Cases], so a
	// merge can put the cases back in the order one run gives them.
	Positions []int `json:"positions,omitempty"`
}

// NewReport returns an empty report for the named suite.
func NewReport(suite string) *Report {
	return &Report{Suite: suite, Cases: []CaseResult{}, Judges: []JudgeStats{}, Caveats: []string{}}
}

// Add counts a case result, keeps it, and takes its grades' caveats.
func (r *Report) Add(c CaseResult) {
	r.Totals.Count(c)
	r.Cases = append(r.Cases, c)
	for _, a := range c.Attempts {
		for _, g := range a.Grades {
			for _, cv := range g.Caveats {
				r.AddCaveat(cv)
			}
		}
	}
}

// AddCaveat adds a caveat unless the report already has it.
func (r *Report) AddCaveat(c string) {
	if c != "" && !slices.Contains(r.Caveats, c) {
		r.Caveats = append(r.Caveats, c)
	}
}

// PassRate returns the report's pass rate; see [Totals.PassRate].
func (r *Report) PassRate() (rate float64, denominator int, ok bool) { return r.Totals.PassRate() }

// reportJSON adds the derived fields to the wire form.
type reportJSON struct {
	Suite               string       `json:"suite"`
	Shard               *ReportShard `json:"shard,omitempty"`
	SuiteDigest         string       `json:"suite_digest,omitempty"`
	Totals              Totals       `json:"totals"`
	PassRate            *float64     `json:"pass_rate"`
	PassRateDenominator int          `json:"pass_rate_denominator"`
	Cases               []CaseResult `json:"cases"`
	Judges              []JudgeStats `json:"judges"`
	Panels              *PanelStats  `json:"panels,omitempty"`
	Caveats             []string     `json:"caveats"`
}

// MarshalJSON writes the report with pass_rate (null when not available)
// and pass_rate_denominator derived from the totals.
func (r *Report) MarshalJSON() ([]byte, error) {
	w := reportJSON{Suite: r.Suite, Shard: r.Shard, SuiteDigest: r.SuiteDigest, Totals: r.Totals, Cases: r.Cases, Judges: r.Judges, Panels: r.Panels, Caveats: r.Caveats}
	if rate, d, ok := r.Totals.PassRate(); ok {
		w.PassRate = &rate
		w.PassRateDenominator = d
	}
	if w.Cases == nil {
		w.Cases = []CaseResult{}
	}
	if w.Judges == nil {
		w.Judges = []JudgeStats{}
	}
	if w.Caveats == nil {
		w.Caveats = []string{}
	}
	return kit.MarshalPlain(w)
}

// UnmarshalJSON reads a report written by [Report.MarshalJSON]; the derived
// fields are recomputed from the totals, not trusted.
func (r *Report) UnmarshalJSON(b []byte) error {
	var w reportJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = Report{Suite: w.Suite, Shard: w.Shard, SuiteDigest: w.SuiteDigest, Totals: w.Totals, Cases: w.Cases, Judges: w.Judges, Panels: w.Panels, Caveats: w.Caveats}
	return nil
}
