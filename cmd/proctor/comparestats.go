package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reports"
)

// compareOptions reads --margin and --alpha.
func compareOptions(margin string, alpha float64) (reports.CompareOptions, error) {
	if margin == "" {
		return reports.CompareOptions{}, nil
	}
	m, err := parseShare("--margin", margin)
	if err != nil {
		return reports.CompareOptions{}, err
	}
	if !(alpha > 0 && alpha < 0.5) {
		return reports.CompareOptions{}, fmt.Errorf("--alpha %g: want a one-sided level between 0 and 0.5, such as 0.05", alpha)
	}
	return reports.CompareOptions{Margin: m, Alpha: alpha}, nil
}

// pts writes a proportion as signed percentage points.
func pts(v float64) string { return fmt.Sprintf("%+.1f", 100*v) }

// statLines are the paired statistics of c in words, one figure a line.
func statLines(c *reports.Comparison) []string {
	d := c.Difference
	if d == nil {
		return []string{"no case passed or failed in both runs: no difference, interval or detectable difference"}
	}
	how := "Newcombe, paired"
	if d.Clusters > 0 {
		how += fmt.Sprintf("; widened by the design effect %.2f of %d clusters", d.DesignEffect, d.Clusters)
	}
	out := []string{fmt.Sprintf("difference in pass rate (head - base) over %s: %s points, 95%% CI %s to %s (%s)",
		plural(d.N, "case"), pts(d.Estimate), pts(d.Low), pts(d.High), how)}
	if ni := c.NonInferior; ni != nil {
		verdict := "head is no worse than base by the margin"
		if !ni.NonInferior {
			verdict = "non-inferiority NOT shown"
		}
		out = append(out, fmt.Sprintf("non-inferiority at a %.1f-point margin (one-sided alpha %g): %s (lower bound %s points vs -%.1f)",
			100*ni.Margin, ni.Alpha, verdict, pts(ni.Low), 100*ni.Margin))
	}
	return append(out, mdeLine(c.MDE))
}

func mdeLine(m *reports.MDE) string {
	head := fmt.Sprintf("minimum detectable difference (80%% power, two-sided 5%%, %s, %.1f%% discordant)",
		plural(m.N, "effective case"), 100*m.Discordance)
	switch {
	case m.Value != nil:
		return fmt.Sprintf("%s: %.1f points", head, 100**m.Value)
	case m.Discordance == 0:
		return head + ": none, no case changed between pass and fail"
	default:
		return head + ": none, too few cases"
	}
}

// writeComparisonMarkdown writes c as Markdown: the pass rates, the
// figures as a table and the changed cases.
func writeComparisonMarkdown(w io.Writer, out comparisonJSON, base, head *proctor.Report) {
	c := out.Comparison
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("## proctor compare: %s\n\n", mdEscape(head.Suite))
	for _, warn := range c.Warnings {
		p("> **warning:** %s\n\n", mdEscape(warn))
	}
	p("| | base | head |\n|---|---|---|\n")
	p("| passed / failed / flaky / not graded | %s | %s |\n\n", counts(base.Totals), counts(head.Totals))
	p("| figure | value | from |\n|---|---|---|\n")
	if d := c.Difference; d != nil {
		cl := ""
		if d.Clusters > 0 {
			cl = fmt.Sprintf("; %d clusters, design effect %.2f", d.Clusters, d.DesignEffect)
		}
		p("| difference (head - base) | %s pp, 95%% CI %s to %s | %d pairs: %d both passed, %d passed -> failed, %d failed -> passed, %d both failed%s |\n",
			pts(d.Estimate), pts(d.Low), pts(d.High), d.N, d.BothPassed, d.PassToFail, d.FailToPass, d.BothFailed, cl)
	}
	p("| McNemar exact p | %.4g | %d passed -> failed, %d failed -> passed |\n", c.MCNemarP, c.PassToFail, c.FailToPass)
	if ni := c.NonInferior; ni != nil {
		p("| non-inferior | %v | lower bound %s pp vs margin %.1f pp, one-sided alpha %g |\n", ni.NonInferior, pts(ni.Low), 100*ni.Margin, ni.Alpha)
	}
	if m := c.MDE; m != nil {
		v := "none"
		if m.Value != nil {
			v = fmt.Sprintf("%.1f pp", 100**m.Value)
		}
		p("| minimum detectable difference | %s | %d pairs, %.1f%% discordant, 80%% power, two-sided 5%% |\n", v, m.N, 100*m.Discordance)
	}
	for _, line := range append(runFigureLines("base", out.Base), runFigureLines("head", out.Head)...) {
		name, rest, _ := strings.Cut(line, " ")
		p("| %s | %s | the run's report |\n", name, mdEscape(rest))
	}
	list := func(title string, ch []reports.CaseChange) {
		if len(ch) == 0 {
			return
		}
		p("\n**%s (%d):**\n\n", title, len(ch))
		for _, x := range ch {
			p("- `%s` %s -> %s\n", mdEscape(x.ID), word(x.Base), word(x.Head))
		}
	}
	list("Regressions", c.Regressions)
	list("Fixes", c.Fixes)
	list("Other changes", c.Changed)
}

func counts(t proctor.Totals) string {
	return fmt.Sprintf("%d / %d / %d / %d", t.Passed, t.Failed, t.Flaky, t.NotGraded)
}

// mdEscape keeps text from breaking a Markdown table or code span.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "'", "\n", " ", "\r", " ").Replace(s)
}
