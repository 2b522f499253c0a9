package reportfmt

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/termsafe"
	"github.com/proctorhq/proctor/metric"
)

// MarkdownOptions say how [WriteMarkdown] writes. It has no fields yet:
// the zero value is the comment described there, and a field added later
// will default to it.
type MarkdownOptions struct{}

// WriteMarkdown writes the report as GitHub-flavoured Markdown, meant for a
// pull-request comment: a table of the four verdict counts with the pass
// rate and its 95% Wilson interval, the flaky rate and attempt statistics,
// the cases that did not pass with each attempt's checks in a collapsed
// section, the not-graded reasons grouped, the judges and the caveats.
// How many cases are listed is the Summary's ([Summary.Rows]).
func WriteMarkdown(w io.Writer, s *Summary, opts MarkdownOptions) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	mdTotals(p, s)
	for _, b := range s.breakdowns() {
		mdBreakdown(bw, b.by, b.rows)
	}
	var notPassed []proctor.CaseResult
	for _, c := range s.Cases() {
		if c.Verdict != proctor.StatusPassed {
			notPassed = append(notPassed, c)
		}
	}
	if len(notPassed) > 0 {
		mdNotPassed(p, s, notPassed)
	}
	if t := s.Totals; t.NotGraded > 0 {
		p("\n#### Not graded (%d)\n\n", t.NotGraded)
		for _, r := range s.NotGradedReasons() {
			p("- %d × %s\n", r.Cases, mdText(clip(r.Reason, 200)))
		}
	}
	mdJudges(p, s)
	if len(s.Caveats) > 0 {
		p("\n#### Caveats\n\n")
		for _, c := range s.Caveats {
			p("- %s\n", mdText(c))
		}
	}
	return bw.Flush()
}

// mdPrintf is how the Markdown writers print.
type mdPrintf func(format string, args ...any)

// mdTotals writes the heading, the totals table and the lines of rates
// under it.
func mdTotals(p mdPrintf, s *Summary) {
	t := s.Totals
	p("### proctor: %s\n\n", mdText(s.Suite))
	p("| passed | failed | flaky | not graded | cases | pass rate (95%% CI) |\n")
	p("|---:|---:|---:|---:|---:|---|\n")
	rate := "n/a (no case passed or failed)"
	if r, d, ok := s.PassRate(); ok {
		lo, hi := metric.Wilson(t.Passed, d)
		rate = fmt.Sprintf("%s of %d (%s-%s)", pct(r), d, pct(lo), pct(hi))
	}
	p("| %d | %d | %d | %d | %d | %s |\n\n", t.Passed, t.Failed, t.Flaky, t.NotGraded, t.Cases(), rate)
	p("The pass rate is passed / (passed + failed); flaky and not graded cases are counted on their own.")
	if r, d, ok := s.FlakyRate(); ok {
		p(" Flaky rate %s (%d of %d measured %s).", pct(r), t.Flaky, d, plural(d, "case", "cases"))
	}
	if r := s.ClusteredRate(); r != nil {
		p(" Cases come in clusters: %s.", clusteredLine(r))
	}
	if line := gateLine(t); line != "" {
		p(" Gate: %s.", line)
	}
	for _, r := range s.Corrected() {
		p(" Judge-corrected %s.", correctedLine(r))
	}
	p("\n")
	if line := attemptLine(s); line != "" {
		p("Attempts: %s.\n", line)
	}
}

// mdNotPassed writes the table of the listed cases that did not pass and
// their attempts and checks.
func mdNotPassed(p mdPrintf, s *Summary, notPassed []proctor.CaseResult) {
	p("\n#### Cases that did not pass\n\n")
	p("| case | verdict | attempts passed | reason |\n|---|---|---:|---|\n")
	for _, c := range notPassed {
		pass, total := attemptCounts(c)
		p("| `%s` | %s | %d/%d | %s |\n", mdCode(c.ID), verdictWord(c.Verdict), pass, total, mdText(clip(CaseReason(c), 120)))
	}
	if _, oo := s.Omitted(); oo > 0 {
		p("\n%d more %s not listed.\n", oo, plural(oo, "case", "cases"))
	}
	p("\n<details><summary>Attempts and checks</summary>\n\n")
	for _, c := range notPassed {
		p("**`%s`**: %s\n\n", mdCode(c.ID), verdictWord(c.Verdict))
		for i, a := range c.Attempts {
			p("- attempt %d: %s", i+1, verdictWord(a.Verdict))
			if a.Error != "" {
				p(" (subject: %s)", mdText(clip(a.Error, 200)))
			}
			p("\n")
			for _, g := range a.Grades {
				p("  - %s: %s", mdText(g.Grader), verdictWord(g.Status))
				if g.Reason != "" {
					p(": %s", mdText(clip(g.Reason, 200)))
				}
				p("\n")
			}
			if len(a.Skipped) > 0 {
				p("  - skipped after a required check: %s\n", mdText(strings.Join(a.Skipped, ", ")))
			}
		}
		p("\n")
	}
	p("</details>\n")
}

// mdJudges writes the judges table and the panels' agreement.
func mdJudges(p mdPrintf, s *Summary) {
	if len(s.Judges) == 0 {
		return
	}
	p("\n#### Judges\n\n| judge | model | family | prompts | calls | cache hits | tokens | cost (USD) |\n|---|---|---|---|---:|---:|---:|---:|\n")
	for _, j := range s.Judges {
		p("| %s | %s | %s | %s | %d | %d | %d | %s |\n", mdText(j.Name), mdText(j.Model), mdText(j.Family),
			mdText(j.PromptVersion), j.Calls, j.CacheHits, j.Tokens, mdText(strings.TrimPrefix(j.CostText(), "$")))
	}
	if line := panelLine(s.Panels); line != "" {
		p("\n%s\n", mdText(line))
	}
}

// mdReplacer escapes text for a Markdown table cell or list item, so
// that nothing a model wrote renders as anything but text under GitHub's
// Markdown (cmark-gfm with its autolink extension): no image, link,
// autolink, raw HTML, mention or issue reference. Markdown punctuation is
// backslash-escaped; where GitHub links plain text (http://, www., an
// e-mail address, @user, @org/team, #123) a zero-width space (U+200B) is
// put where the pattern needs adjacent characters, which reads the same.
var mdReplacer = strings.NewReplacer(
	"|", `\|`, "\n", " ", "\r", " ", "&", "&amp;", "<", "&lt;", ">", "&gt;", "`", "'",
	"*", `\*`, "_", `\_`, "!", `\!`, "[", `\[`, "]", `\]`, "\\", `\\`, "~", `\~`,
	"@", "\\@"+zwsp, "#", "#"+zwsp)

// zwsp is the zero-width space that breaks GitHub's plain-text links.
const zwsp = "\u200b"

// mdPlainLink finds, in any case, the www. and the scheme colons
// (http:, https:, ftp:, mailto:, xmpp:) that GitHub's autolink extension
// starts a link at; mdText puts a zero-width space before their last
// character.
var mdPlainLink = regexp.MustCompile(`(?i)(www\.|(https?|ftp|mailto|xmpp):)`)

// mdText makes s inert text for a Markdown table cell or list item, with
// control and bidirectional characters escaped as on a terminal.
func mdText(s string) string {
	s = mdReplacer.Replace(termsafe.String(s))
	return mdPlainLink.ReplaceAllStringFunc(s, func(w string) string { return w[:len(w)-1] + zwsp + w[len(w)-1:] })
}

// mdCode makes s safe inside a code span, where nothing is linked.
var mdCodeReplacer = strings.NewReplacer("`", "'", "|", `\|`, "\n", " ")

func mdCode(s string) string { return mdCodeReplacer.Replace(termsafe.String(s)) }

// mdBreakdown writes a by-split or by-group table.
func mdBreakdown(w io.Writer, by string, rows []breakdownRow) {
	fmt.Fprintf(w, "\n#### By %s\n\n| %s | passed | failed | flaky | not graded | pass rate (95%% CI) |\n|---|---:|---:|---:|---:|---|\n", mdText(by), mdText(by))
	for _, r := range rows {
		st := r.totals
		rate := "n/a"
		if v, d, ok := st.PassRate(); ok {
			lo, hi := metric.Wilson(st.Passed, d)
			rate = fmt.Sprintf("%s of %d (%s-%s)", pct(v), d, pct(lo), pct(hi))
		}
		if c := r.clustered; c != nil {
			rate += fmt.Sprintf("; clustered SE %.1f pp, design effect %.2f", 100*c.SE, c.DesignEffect)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %s |\n", mdText(r.name), st.Passed, st.Failed, st.Flaky, st.NotGraded, rate)
	}
}
