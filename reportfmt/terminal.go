package reportfmt

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/termsafe"
	"github.com/proctorhq/proctor/metric"
)

// TextOptions say how [WriteText] writes. It has no fields yet: the zero
// value is the table described there, and a field added later will
// default to it.
type TextOptions struct{}

// WriteText writes the report as a terminal table: one row per case kept
// (verdict, passed attempts of those made, the reason), then the four
// verdict counts, the pass rate with its 95% Wilson interval, the flaky
// rate, pass@k and pass^k when cases had several attempts, the not-graded
// reasons grouped, the judges and the caveats. Plain ASCII, no colour:
// control and bidirectional characters in any text the report carries
// (reasons, ids, judge names) are written as escapes such as \x1b. How
// many cases are listed is the Summary's ([Summary.Rows]).
func WriteText(w io.Writer, s *Summary, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("suite %s: %d %s\n\n", termsafe.String(s.Suite), s.Totals.Cases(), plural(s.Totals.Cases(), "case", "cases"))
	cases := s.Cases()
	if len(cases) > 0 {
		idw, reasonw := len("CASE"), 90
		for _, c := range cases {
			idw = max(idw, len(tclip(c.ID, 40)))
		}
		p("  %-*s  %-10s  %-8s  %s\n", idw, "CASE", "VERDICT", "ATTEMPTS", "REASON")
		for _, c := range cases {
			row := fmt.Sprintf("  %-*s  %-10s  %-8s  %s", idw, tclip(c.ID, 40), verdictWord(c.Verdict),
				attemptsCell(c), tclip(CaseReason(c), reasonw))
			p("%s\n", strings.TrimRight(row, " "))
		}
		if op, oo := s.Omitted(); op+oo > 0 {
			p("  (%s not listed)\n", omittedText(op, oo))
		}
		p("\n")
	}
	t := s.Totals
	p("passed %d | failed %d | flaky %d | not graded %d   (%d %s)\n", t.Passed, t.Failed, t.Flaky, t.NotGraded, t.Cases(), plural(t.Cases(), "case", "cases"))
	if line := gateLine(t); line != "" {
		p("gate        %s\n", line)
	}
	writeRates(bw, s)
	if line := attemptLine(s); line != "" {
		p("attempts    %s\n", line)
	}
	for _, b := range s.breakdowns() {
		writeBreakdown(bw, "by "+b.by, b.rows)
	}
	if t.NotGraded > 0 {
		p("not graded  %d %s, left out of the pass rate:\n", t.NotGraded, plural(t.NotGraded, "case", "cases"))
		for _, r := range s.NotGradedReasons() {
			p("  %5d  %s\n", r.Cases, tclip(r.Reason, 100))
		}
	}
	if len(s.Judges) == 0 {
		p("judges      none\n")
	} else {
		p("judges\n")
		for _, j := range s.Judges {
			p("  %s\n", termsafe.String(judgeLine(j)))
		}
		if line := panelLine(s.Panels); line != "" {
			p("  %s\n", line)
		}
	}
	if len(s.Caveats) == 0 {
		p("caveats     none\n")
	} else {
		p("caveats\n")
		for _, c := range s.Caveats {
			p("  - %s\n", termsafe.String(c))
		}
	}
	return bw.Flush()
}

// writeRates writes the pass rate with its Wilson interval, the
// clustered and judge-corrected rates and the flaky rate.
func writeRates(w io.Writer, s *Summary) {
	t := s.Totals
	if rate, d, ok := s.PassRate(); ok {
		lo, hi := metric.Wilson(t.Passed, d)
		fmt.Fprintf(w, "pass rate   %s  = %d of %d passed or failed; 95%% CI %s-%s (Wilson)\n", pct(rate), t.Passed, d, pct(lo), pct(hi))
		if r := s.ClusteredRate(); r != nil {
			fmt.Fprintf(w, "            %s\n", clusteredLine(r))
		}
	} else {
		fmt.Fprintf(w, "pass rate   n/a  no case passed or failed\n")
	}
	for _, r := range s.Corrected() {
		fmt.Fprintf(w, "corrected   %s\n", correctedLine(r))
	}
	if rate, d, ok := s.FlakyRate(); ok {
		fmt.Fprintf(w, "flaky rate  %s  = %d of %d measured %s\n", pct(rate), t.Flaky, d, plural(d, "case", "cases"))
	}
}

// breakdownRow is one line of a by-split or by-group breakdown.
type breakdownRow struct {
	name      string
	totals    proctor.Totals
	clustered *ClusteredRate
}

// breakdownSection is the rows of one breakdown: by split, or by the
// suite's group_by field.
type breakdownSection struct {
	by   string
	rows []breakdownRow
}

// breakdowns returns the by-split and by-group sections that have rows.
func (s *Summary) breakdowns() []breakdownSection {
	var out []breakdownSection
	if splits := s.Splits(); len(splits) > 0 {
		rows := make([]breakdownRow, len(splits))
		for i, sp := range splits {
			rows[i] = breakdownRow{splitName(sp.Split), sp.Totals, sp.ClusteredSE}
		}
		out = append(out, breakdownSection{"split", rows})
	}
	if groups := s.Groups(); len(groups) > 0 {
		rows := make([]breakdownRow, len(groups))
		for i, g := range groups {
			rows[i] = breakdownRow{s.groupName(g.Group), g.Totals, g.ClusteredSE}
		}
		out = append(out, breakdownSection{s.GroupBy, rows})
	}
	return out
}

// writeBreakdown writes a titled breakdown, one line per split or group
// with its counts, pass rate and clustered SE.
func writeBreakdown(w io.Writer, title string, rows []breakdownRow) {
	fmt.Fprintf(w, "%s\n", title)
	width := 0
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	for _, r := range rows {
		st := r.totals
		rate := "n/a"
		if v, d, ok := st.PassRate(); ok {
			lo, hi := metric.Wilson(st.Passed, d)
			rate = fmt.Sprintf("%s (%d of %d), 95%% CI %s-%s", pct(v), st.Passed, d, pct(lo), pct(hi))
		}
		if c := r.clustered; c != nil {
			rate += fmt.Sprintf(", clustered SE %.1f points, design effect %.2f", 100*c.SE, c.DesignEffect)
		}
		fmt.Fprintf(w, "  %-*s  passed %d | failed %d | flaky %d | not graded %d   pass rate %s\n", width, termsafe.String(r.name), st.Passed, st.Failed, st.Flaky, st.NotGraded, rate)
	}
}

// attemptsCell is a case's passed attempts of those made, "k of n, min
// m" when the case has a min_pass.
func attemptsCell(c proctor.CaseResult) string {
	pass, total := attemptCounts(c)
	if c.MinPass > 0 {
		return fmt.Sprintf("%d of %d, min %d", pass, total, c.MinPass)
	}
	return fmt.Sprintf("%d/%d", pass, total)
}

// gateLine says how many flaky cases min_pass let through and how many
// attempts stop_early saved; "" when neither happened.
func gateLine(t proctor.Totals) string {
	var parts []string
	if t.FlakyGatePassed > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d flaky %s passed the gate with min_pass (still counted flaky)",
			t.FlakyGatePassed, t.Flaky, plural(t.Flaky, "case", "cases")))
	}
	if t.AttemptsSaved > 0 {
		parts = append(parts, fmt.Sprintf("stop_early saved %d %s", t.AttemptsSaved, plural(t.AttemptsSaved, "attempt", "attempts")))
	}
	return strings.Join(parts, "; ")
}

// tclip is [clip] for a terminal: the clipped text with control and
// bidirectional characters escaped.
func tclip(s string, n int) string { return termsafe.String(clip(s, n)) }

// attemptLine says pass@1, pass@k and pass^k over the cases with k
// measured attempts, k the most any case had; "" when no case had more
// than one.
func attemptLine(s *Summary) string {
	k := s.MaxAttempts()
	if k < 2 {
		return ""
	}
	at1, _, n1 := s.PassAtK(1)
	atk, hatk, nk := s.PassAtK(k)
	return fmt.Sprintf("pass@1 %.3f over %d %s; pass@%d %.3f, pass^%d %.3f over %d %s with %d measured attempts; %d flaky",
		at1, n1, plural(n1, "case", "cases"), k, atk, k, hatk, nk, plural(nk, "case", "cases"), k, s.Totals.Flaky)
}

func judgeLine(j proctor.JudgeStats) string {
	var b strings.Builder
	b.WriteString(j.Name)
	if j.Model != "" || j.Family != "" {
		fmt.Fprintf(&b, " (%s", cmpOr(j.Model, "?"))
		if j.Family != "" {
			fmt.Fprintf(&b, ", %s", j.Family)
		}
		b.WriteString(")")
	}
	if j.PromptVersion != "" {
		fmt.Fprintf(&b, " prompts %s", j.PromptVersion)
	}
	fmt.Fprintf(&b, ": %d %s, %d %s", j.Calls, plural(j.Calls, "call", "calls"), j.CacheHits, plural(j.CacheHits, "cache hit", "cache hits"))
	if j.Retries > 0 {
		fmt.Fprintf(&b, ", %d %s", j.Retries, plural(j.Retries, "retry", "retries"))
	}
	if j.Errors > 0 {
		fmt.Fprintf(&b, ", %d %s", j.Errors, plural(j.Errors, "error", "errors"))
	}
	fmt.Fprintf(&b, ", %d %s, %s", j.Tokens, plural(j.Tokens, "token", "tokens"), j.CostText())
	if a, ok := j.Agreement(); ok {
		n := j.Agreed + j.Disagreed
		fmt.Fprintf(&b, ", agreed with %.0f%% of %d %s", 100*a, n, plural(n, "verdict", "verdicts"))
	}
	return b.String()
}

// panelLine says how many panels were convened and how their judges
// agreed; "" when none was.
func panelLine(ps *proctor.PanelStats) string {
	if ps == nil || ps.Convened == 0 {
		return ""
	}
	alpha := "undefined"
	if ps.Alpha != nil {
		alpha = fmt.Sprintf("%.3f", *ps.Alpha)
	}
	return fmt.Sprintf("panels: %d convened, Krippendorff's alpha %s over the %d with two or more votes", ps.Convened, alpha, ps.Paired)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func omittedText(passed, other int) string {
	var parts []string
	if passed > 0 {
		parts = append(parts, fmt.Sprintf("%d passed %s", passed, plural(passed, "case", "cases")))
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d more %s", other, plural(other, "case", "cases")))
	}
	return strings.Join(parts, " and ")
}

// pct formats a rate as a percentage with one decimal.
func pct(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
