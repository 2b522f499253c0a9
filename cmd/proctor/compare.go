package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/internal/termsafe"
	"github.com/proctorhq/proctor/reports"
)

const compareUsage = `usage: proctor compare [--json | --markdown] [--html FILE] [--allow-missing] [--margin 2pp [--alpha 0.05]] BASE.json HEAD.json

Pairs the cases of two JSON reports (as proctor run --out writes them) by
id and prints the regressions (passed -> failed or flaky), the fixes, the
other verdict changes, and, over the cases that passed or failed in both
runs: the difference in pass rate with its 95% interval (Newcombe's, for
paired outcomes; widened by the design effect when cases name clusters),
the exact McNemar test, and the smallest difference this many cases
could detect (80% power, 5% level). With --margin, it also says whether
head is no worse than base by more than the margin. A case of base
missing from head is a regression unless --allow-missing. Warns when the
runs used different judges or judge prompt versions. docs/statistics.md
explains each figure.

Exit status: 0 when no case regressed, 1 when one did, 2 for a usage error
or a file that is not a proctor JSON report.

flags:
`

func cmdCompare(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("compare", stderr)
	asJSON := fs.Bool("json", false, "print the comparison as JSON")
	htmlOut := fs.String("html", "", "also write the comparison as a self-contained HTML page to `FILE`")
	allowMissing := fs.Bool("allow-missing", false, "a case of base missing from head is not a regression")
	asMarkdown := fs.Bool("markdown", false, "print the comparison as Markdown")
	margin := fs.String("margin", "", "test that head is no worse than base by more than `MARGIN` points: 2pp, 2% or 0.02")
	alpha := fs.Float64("alpha", 0.05, "one-sided level of the --margin test")
	files, code, done := parseArgs(fs, compareUsage, args, stdout)
	if done {
		return code
	}
	opts, err := compareOptions(*margin, *alpha)
	if err != nil {
		fmt.Fprintf(stderr, "proctor compare: %v\n", err)
		return exitUsage
	}
	if len(files) != 2 {
		fmt.Fprintln(stderr, "proctor compare: want BASE.json and HEAD.json")
		printUsage(stderr, fs, compareUsage)
		return exitUsage
	}
	cmp, err := reportio.CompareRecorded(files[0], files[1], opts)
	if err != nil {
		fmt.Fprintf(stderr, "proctor compare: %v\n", err)
		return exitUsage
	}
	base, head, c := cmp.Base, cmp.Head, cmp.Comparison
	out := comparisonJSON{Comparison: c}
	if out.Base, err = figuresOf(base, cmp.BaseRecorded); err == nil {
		out.Head, err = figuresOf(head, cmp.HeadRecorded)
	}
	if err != nil {
		fmt.Fprintf(stderr, "proctor compare: %v\n", err)
		return exitUsage
	}
	if *htmlOut != "" {
		if err := writeCompareHTML(*htmlOut, files[0], files[1], base, head, c); err != nil {
			fmt.Fprintf(stderr, "proctor compare: %v\n", err)
			return exitUsage
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "proctor compare: %v\n", err)
			return exitUsage
		}
	} else if *asMarkdown {
		writeComparisonMarkdown(stdout, out, base, head)
	} else {
		writeComparison(stdout, out, base, head, *allowMissing)
	}
	if len(c.Regressions) > 0 || (len(c.OnlyBase) > 0 && !*allowMissing) {
		return exitFailed
	}
	return exitOK
}

func writeComparison(w io.Writer, out comparisonJSON, base, head *proctor.Report, allowMissing bool) {
	c := out.Comparison
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	// Case ids and reasons come from the reports: escaped for the terminal.
	p := func(format string, args ...any) { fmt.Fprintf(termsafe.Writer{W: bw}, format, args...) }
	for _, warn := range c.Warnings {
		p("warning: %s\n", warn)
	}
	if len(c.Warnings) > 0 {
		p("\n")
	}
	rate := func(r *proctor.Report) string {
		if v, d, ok := r.PassRate(); ok {
			return fmt.Sprintf("%.1f%% of %d", 100*v, d)
		}
		return "n/a"
	}
	p("base %s: pass rate %s (passed %d, failed %d, flaky %d, not graded %d)\n", base.Suite, rate(base),
		base.Totals.Passed, base.Totals.Failed, base.Totals.Flaky, base.Totals.NotGraded)
	p("head %s: pass rate %s (passed %d, failed %d, flaky %d, not graded %d)\n\n", head.Suite, rate(head),
		head.Totals.Passed, head.Totals.Failed, head.Totals.Flaky, head.Totals.NotGraded)
	list := func(title string, ch []reports.CaseChange) {
		if len(ch) == 0 {
			return
		}
		p("%s (%d):\n", title, len(ch))
		for _, x := range ch {
			p("  %-40s %s -> %s\n", x.ID, word(x.Base), word(x.Head))
		}
	}
	list("regressions", c.Regressions)
	list("fixes", c.Fixes)
	list("other changes", c.Changed)
	switch {
	case len(c.OnlyBase) > 0 && allowMissing:
		p("only in base (%d): %s\n", len(c.OnlyBase), joinMax(c.OnlyBase, 20))
	case len(c.OnlyBase) > 0:
		p("missing from head, counted as regressions (%d; --allow-missing allows them): %s\n", len(c.OnlyBase), joinMax(c.OnlyBase, 20))
	}
	if len(c.OnlyHead) > 0 {
		p("only in head (%d): %s\n", len(c.OnlyHead), joinMax(c.OnlyHead, 20))
	}
	if len(c.Regressions)+len(c.Fixes)+len(c.Changed) == 0 {
		p("no case changed its verdict\n")
	}
	p("\nMcNemar exact test over %s passed or failed in both runs: %d passed -> failed, %d failed -> passed, two-sided p = %.4g",
		plural(c.Paired, "case"), c.PassToFail, c.FailToPass, c.PValue)
	switch {
	case c.PassToFail+c.FailToPass == 0:
		p(" (no discordant pairs)\n")
	case c.PValue < 0.05:
		p(" (significant at 0.05)\n")
	default:
		p(" (not significant at 0.05)\n")
	}
	for _, line := range statLines(c) {
		p("%s\n", line)
	}
	for _, line := range append(runFigureLines("base", out.Base), runFigureLines("head", out.Head)...) {
		p("%s\n", line)
	}
}

func word(s proctor.Status) string {
	if s == proctor.StatusNotGraded {
		return "not graded"
	}
	return s.String()
}

func joinMax(ids []string, n int) string {
	out := ""
	for i, id := range ids {
		if i == n {
			return out + fmt.Sprintf(", ... (%d more)", len(ids)-n)
		}
		if i > 0 {
			out += ", "
		}
		out += id
	}
	return out
}
