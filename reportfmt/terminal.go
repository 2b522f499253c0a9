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

// WriteText writes the report as a terminal table: one row per case kept
// (verdict, passed attempts of those made, the reason), then the four
// verdict counts, the pass rate with its 95% Wilson interval, the flaky
// rate, pass@k and pass^k when cases had several attempts, the not-graded
// reasons grouped, the judges and the caveats. Plain ASCII, no colour:
// control and bidirectional characters in any text the report carries
// (reasons, ids, judge names) are written as escapes such as \x1b.
func WriteText(w io.Writer, s *Summary) error {
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
			pass, total := attemptCounts(c)
			row := fmt.Sprintf("  %-*s  %-10s  %-8s  %s", idw, tclip(c.ID, 40), verdictWord(c.Verdict),
				fmt.Sprintf("%d/%d", pass, total), tclip(CaseReason(c), reasonw))
			p("%s\n", strings.TrimRight(row, " "))
		}
		if op, oo := s.Omitted(); op+oo > 0 {
			p("  (%s not listed)\n", omittedText(op, oo))
		}
		p("\n")
	}
	t := s.Totals
	p("passed %d | failed %d | flaky %d | not graded %d   (%d %s)\n", t.Passed, t.Failed, t.Flaky, t.NotGraded, t.Cases(), plural(t.Cases(), "case", "cases"))
	if rate, d, ok := s.PassRate(); ok {
		lo, hi := metric.Wilson(t.Passed, d)
		p("pass rate   %s  = %d of %d passed or failed; 95%% CI %s-%s (Wilson)\n", pct(rate), t.Passed, d, pct(lo), pct(hi))
	} else {
		p("pass rate   n/a  no case passed or failed\n")
	}
	if rate, d, ok := s.FlakyRate(); ok {
		p("flaky rate  %s  = %d of %d measured %s\n", pct(rate), t.Flaky, d, plural(d, "case", "cases"))
	}
	if line := attemptLine(s); line != "" {
		p("attempts    %s\n", line)
	}
	if splits := s.Splits(); len(splits) > 0 {
		p("by split\n")
		w := 0
		for _, sp := range splits {
			w = max(w, len(splitName(sp.Split)))
		}
		for _, sp := range splits {
			st := sp.Totals
			rate := "n/a"
			if r, d, ok := st.PassRate(); ok {
				rate = fmt.Sprintf("%s (%d of %d)", pct(r), st.Passed, d)
			}
			p("  %-*s  passed %d | failed %d | flaky %d | not graded %d   pass rate %s\n", w, termsafe.String(splitName(sp.Split)), st.Passed, st.Failed, st.Flaky, st.NotGraded, rate)
		}
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
	fmt.Fprintf(&b, ", %d %s, $%.4f", j.Tokens, plural(j.Tokens, "token", "tokens"), j.CostUSD)
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
