package reportfmt

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// JUnit writes a JUnit XML report case by case: one <testcase> per case,
// named by its id. A failed case has a <failure>; a not graded case is
// <skipped> with the reason, never a failure; a flaky case passes, with a
// property verdict=flaky and one <flakyFailure> per failed attempt as Maven
// Surefire writes them, so CI systems show it apart. Every testcase's
// <system-out> lists each attempt's checks.
//
// The counts in the <testsuite> element are only known at the end, so the
// testcases are written to a scratch buffer first ([JUnitOptions.Scratch])
// and copied out to w by [JUnit.Finish]: nothing is written to w before
// Finish. A JUnit is not safe for concurrent use.
type JUnit struct {
	w       io.Writer
	suite   string
	scratch io.ReadWriter
	bw      *bufio.Writer
	err     error
}

// JUnitOptions say where a [JUnit] keeps its testcases until Finish. The
// zero value keeps them in memory.
type JUnitOptions struct {
	// Scratch holds the testcases until Finish copies them after the
	// counts; nil keeps them in a bytes.Buffer. For a run too large for
	// memory give a temporary *os.File: Finish seeks an io.Seeker back to
	// its start, and the caller closes and removes it after Finish.
	Scratch io.ReadWriter
}

// NewJUnit starts a JUnit report of the named suite on w.
func NewJUnit(w io.Writer, suite string, opts JUnitOptions) *JUnit {
	scratch := opts.Scratch
	if scratch == nil {
		scratch = new(bytes.Buffer)
	}
	return &JUnit{w: w, suite: suite, scratch: scratch, bw: bufio.NewWriter(scratch)}
}

// Add writes one case's testcase.
func (j *JUnit) Add(c proctor.CaseResult) error {
	if j.err != nil {
		return j.err
	}
	w := j.bw
	fmt.Fprintf(w, "    <testcase name=%s classname=%s>\n", xmlAttr(c.ID), xmlAttr(j.suite))
	pass, total := attemptCounts(c)
	switch c.Verdict {
	case proctor.StatusFailed:
		fmt.Fprintf(w, "      <failure message=%s type=\"failed\">%s</failure>\n", xmlAttr(clip(CaseReason(c), 500)), xmlText(attemptsText(c)))
	case proctor.StatusNotGraded:
		fmt.Fprintf(w, "      <skipped message=%s></skipped>\n", xmlAttr("not graded: "+clip(CaseReason(c), 500)))
	case proctor.StatusFlaky:
		fmt.Fprintf(w, "      <properties>\n        <property name=\"verdict\" value=\"flaky\"></property>\n      </properties>\n")
		for i, a := range c.Attempts {
			if a.Verdict != proctor.StatusFailed {
				continue
			}
			fmt.Fprintf(w, "      <flakyFailure message=%s type=\"failed\">%s</flakyFailure>\n",
				xmlAttr(fmt.Sprintf("attempt %d of %d failed", i+1, total)), xmlText(attemptText(i, a)))
		}
	}
	fmt.Fprintf(w, "      <system-out>%s</system-out>\n", xmlText(fmt.Sprintf("%s: %d of %d attempts passed\n%s", verdictWord(c.Verdict), pass, total, attemptsText(c))))
	_, err := io.WriteString(w, "    </testcase>\n")
	j.err = err
	return err
}

// Finish writes the whole document to w: the <testsuites> and <testsuite>
// elements with the counts from s (failures = failed cases, skipped = not
// graded cases; flaky cases count as tests that passed), the run's pass rate
// and flaky count as properties, then the testcases. It flushes but does
// not close the writer.
func (j *JUnit) Finish(s *Summary) error {
	if j.err != nil {
		return j.err
	}
	if err := j.bw.Flush(); err != nil {
		return err
	}
	if sk, ok := j.scratch.(io.Seeker); ok {
		if _, err := sk.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	t := s.Totals
	bw := bufio.NewWriter(j.w)
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(bw, "<testsuites name=\"proctor\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", t.Cases(), t.Failed, t.NotGraded)
	fmt.Fprintf(bw, "  <testsuite name=%s tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", xmlAttr(s.Suite), t.Cases(), t.Failed, t.NotGraded)
	fmt.Fprintf(bw, "    <properties>\n")
	prop := func(name, value string) {
		fmt.Fprintf(bw, "      <property name=%s value=%s></property>\n", xmlAttr(name), xmlAttr(value))
	}
	prop("passed", fmt.Sprint(t.Passed))
	prop("failed", fmt.Sprint(t.Failed))
	prop("flaky", fmt.Sprint(t.Flaky))
	prop("not_graded", fmt.Sprint(t.NotGraded))
	if r, d, ok := s.PassRate(); ok {
		lo, hi := metric.Wilson(t.Passed, d)
		prop("pass_rate", fmt.Sprintf("%.4f", r))
		prop("pass_rate_denominator", fmt.Sprint(d))
		prop("pass_rate_95ci", fmt.Sprintf("%.4f-%.4f", lo, hi))
	}
	for _, j := range s.Judges {
		// The cost as text: "cost unknown" is never written as 0.
		prop("judge."+j.Name+".calls", fmt.Sprint(j.Calls))
		prop("judge."+j.Name+".cost", j.CostText())
	}
	if r := s.ClusteredRate(); r != nil {
		prop("clustered_se", fmt.Sprintf("%.4f", r.SE))
		prop("design_effect", fmt.Sprintf("%.4f", r.DesignEffect))
		prop("clusters", fmt.Sprint(r.Clusters))
	}
	groupProps(prop, s)
	for _, r := range s.Corrected() {
		if c := r.Corrected; c != nil {
			prop("corrected_pass_rate."+r.Grader, fmt.Sprintf("%.4f", c.Rate))
			prop("corrected_pass_rate_95ci."+r.Grader, fmt.Sprintf("%.4f-%.4f", c.Low, c.High))
		}
	}
	if t.FlakyGatePassed > 0 {
		prop("flaky_gate_passed", fmt.Sprint(t.FlakyGatePassed))
	}
	if t.AttemptsSaved > 0 {
		prop("attempts_saved", fmt.Sprint(t.AttemptsSaved))
	}
	for i, c := range s.Caveats {
		prop(fmt.Sprintf("caveat.%d", i+1), c)
	}
	fmt.Fprintf(bw, "    </properties>\n")
	if _, err := io.Copy(bw, j.scratch); err != nil {
		return err
	}
	fmt.Fprintf(bw, "  </testsuite>\n</testsuites>\n")
	return bw.Flush()
}

// WriteJUnit writes a whole report as [JUnit] writes it: NewJUnit, Add
// for each case, and Finish with [Summarize] of r.
func WriteJUnit(w io.Writer, r *proctor.Report, opts JUnitOptions) error {
	j := NewJUnit(w, r.Suite, opts)
	for _, c := range r.Cases {
		if err := j.Add(c); err != nil {
			return err
		}
	}
	return j.Finish(Summarize(r))
}

// attemptsText lists every attempt's checks, one per line.
func attemptsText(c proctor.CaseResult) string {
	var b strings.Builder
	for i, a := range c.Attempts {
		b.WriteString(attemptText(i, a))
	}
	return b.String()
}

func attemptText(i int, a proctor.AttemptResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "attempt %d: %s\n", i+1, verdictWord(a.Verdict))
	if a.Error != "" {
		fmt.Fprintf(&b, "  subject: %s\n", a.Error)
	}
	for _, g := range a.Grades {
		fmt.Fprintf(&b, "  %s: %s", g.Grader, verdictWord(g.Status))
		if g.Reason != "" {
			fmt.Fprintf(&b, ": %s", g.Reason)
		}
		b.WriteByte('\n')
	}
	if len(a.Skipped) > 0 {
		fmt.Fprintf(&b, "  skipped after a required check: %s\n", strings.Join(a.Skipped, ", "))
	}
	return b.String()
}

// xmlAttr returns s quoted and escaped as an XML attribute value.
func xmlAttr(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	_ = xml.EscapeText(&b, []byte(s))
	b.WriteByte('"')
	return b.String()
}

// xmlText escapes s as XML character data, keeping line breaks and
// replacing characters XML 1.0 cannot carry with U+FFFD.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\n' || r == '\t' || r == '\r':
			b.WriteRune(r)
		case r < 0x20 || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// groupProps writes the group_by breakdown as properties: group_by names
// the field, and each group's counts, pass rate with its 95% Wilson
// interval and, when cases name clusters, clustered SE and design effect
// are group.NAME.passed, .failed, .flaky, .not_graded, .pass_rate,
// .pass_rate_denominator, .pass_rate_95ci, .clustered_se and
// .design_effect, NAME as the terminal prints it ("(no tag)" for the
// cases with no tag).
func groupProps(prop func(name, value string), s *Summary) {
	groups := s.Groups()
	if len(groups) == 0 {
		return
	}
	prop("group_by", s.GroupBy)
	for _, g := range groups {
		at := "group." + s.groupName(g.Group) + "."
		t := g.Totals
		prop(at+"passed", fmt.Sprint(t.Passed))
		prop(at+"failed", fmt.Sprint(t.Failed))
		prop(at+"flaky", fmt.Sprint(t.Flaky))
		prop(at+"not_graded", fmt.Sprint(t.NotGraded))
		if r, d, ok := t.PassRate(); ok {
			lo, hi := metric.Wilson(t.Passed, d)
			prop(at+"pass_rate", fmt.Sprintf("%.4f", r))
			prop(at+"pass_rate_denominator", fmt.Sprint(d))
			prop(at+"pass_rate_95ci", fmt.Sprintf("%.4f-%.4f", lo, hi))
		}
		if c := g.ClusteredSE; c != nil {
			prop(at+"clustered_se", fmt.Sprintf("%.4f", c.SE))
			prop(at+"design_effect", fmt.Sprintf("%.4f", c.DesignEffect))
		}
	}
}
