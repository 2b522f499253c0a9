package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/<test name>.golden, rewriting it with
// -update.
func golden(t *testing.T, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", strings.ReplaceAll(t.Name(), "/", "_")+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", path, d)
	}
}

func g(grader string, st proctor.Status, reason string) proctor.Grade {
	return proctor.Grade{Grader: grader, Status: st, Reason: reason}
}

const (
	P = proctor.StatusPassed
	F = proctor.StatusFailed
	K = proctor.StatusFlaky
	N = proctor.StatusNotGraded
)

// fixture is a run with every verdict, a required check's short-circuit,
// a subject error, a judge and a caveat.
func fixture() *proctor.Report {
	r := proctor.NewReport("support-bot")
	r.Add(proctor.CaseResult{ID: "refund-window", Verdict: P, Attempts: []proctor.AttemptResult{
		{Verdict: P, Grades: []proctor.Grade{g("not_contains", P, ""), g("exact_match", P, "")}}}})
	r.Add(proctor.CaseResult{ID: "order-status", Verdict: F, Severity: proctor.SeverityHigh, Attempts: []proctor.AttemptResult{
		{Verdict: F, Grades: []proctor.Grade{g("not_contains", P, ""), g("exact_match", F, `output "Lyon" does not equal expected "Paris"`)}}}})
	r.Add(proctor.CaseResult{ID: "greeting", Verdict: K, Attempts: []proctor.AttemptResult{
		{Verdict: P, Grades: []proctor.Grade{g("contains", P, "")}},
		{Verdict: F, Grades: []proctor.Grade{g("contains", F, `output does not contain "hello" <sic> & more`)}},
		{Verdict: P, Grades: []proctor.Grade{g("contains", P, "")}}}})
	r.Add(proctor.CaseResult{ID: "no-expected", Verdict: N, Attempts: []proctor.AttemptResult{
		{Verdict: N, Grades: []proctor.Grade{g("exact_match", N, "no expected value: set expected on the case or the spec")}}}})
	r.Add(proctor.CaseResult{ID: "leaks-prompt", Verdict: F, Attempts: []proctor.AttemptResult{
		{Verdict: F, Grades: []proctor.Grade{g("not_contains", F, `output contains "As an AI"`)}, Skipped: []string{"tone", "polite"}}}})
	r.Add(proctor.CaseResult{ID: "bot-crashed", Verdict: N, Attempts: []proctor.AttemptResult{
		{Verdict: N, Error: "exit status 3: panic: boom", Grades: []proctor.Grade{g("subject", N, "subject failed: exit status 3: panic: boom")}}}})
	r.Add(proctor.CaseResult{ID: "also-no-expected", Verdict: N, Attempts: []proctor.AttemptResult{
		{Verdict: N, Grades: []proctor.Grade{g("exact_match", N, "no expected value: set expected on the case or the spec")}}}})
	r.Add(proctor.CaseResult{ID: "pipes|and`ticks", Verdict: P, Attempts: []proctor.AttemptResult{
		{Verdict: P, Grades: []proctor.Grade{g("exact_match", P, "")}},
		{Verdict: P, Grades: []proctor.Grade{g("exact_match", P, "")}},
		{Verdict: P, Grades: []proctor.Grade{g("exact_match", P, "")}}}})
	r.Judges = []proctor.JudgeStats{{Name: "j1", Family: "anthropic", Model: "claude-x", Calls: 12, CacheHits: 3, Tokens: 4200, CostUSD: 0.0123, PromptVersion: "v1"}}
	r.Caveats = []string{"a same-family judge was allowed for 1 check"}
	return r
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteText(&b, reportfmt.Summarize(fixture()), reportfmt.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
	for _, w := range []string{"flaky", "not graded", "95% CI", "pass@3", "pass^3"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("terminal report lacks %q", w)
		}
	}
}

func TestWriteTextEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteText(&b, reportfmt.Summarize(proctor.NewReport("empty")), reportfmt.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteMarkdown(&b, reportfmt.Summarize(fixture()), reportfmt.MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
}

// junitDoc is the part of a JUnit document CI systems read.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			Flaky []struct{} `xml:"flakyFailure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestWriteJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteJUnit(&b, fixture(), reportfmt.JUnitOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
	var doc junitDoc
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v", err)
	}
	if doc.Tests != 8 || doc.Failures != 2 || doc.Skipped != 3 {
		t.Errorf("tests/failures/skipped = %d/%d/%d, want 8/2/3: flaky is not a failure, not graded is skipped",
			doc.Tests, doc.Failures, doc.Skipped)
	}
	got := map[string]string{}
	for _, c := range doc.Suites[0].Cases {
		switch {
		case c.Failure != nil:
			got[c.Name] = "failure"
		case c.Skipped != nil:
			got[c.Name] = "skipped"
		case len(c.Flaky) > 0:
			got[c.Name] = "flaky"
		default:
			got[c.Name] = "pass"
		}
	}
	want := map[string]string{"refund-window": "pass", "order-status": "failure", "greeting": "flaky", "no-expected": "skipped",
		"leaks-prompt": "failure", "bot-crashed": "skipped", "also-no-expected": "skipped", "pipes|and`ticks": "pass"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("testcase outcomes (-want +got):\n%s", d)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	rep := fixture()
	var b bytes.Buffer
	j := reportfmt.NewJSON(&b, rep.Suite, reportfmt.JSONOptions{})
	s := reportfmt.NewSummary(rep.Suite)
	for _, c := range rep.Cases {
		if err := j.Add(c); err != nil {
			t.Fatal(err)
		}
		s.Add(c)
	}
	s.Judges = rep.Judges
	s.Caveats = rep.Caveats
	if err := j.Finish(s); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
	var back proctor.Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("streamed JSON does not decode as a Report: %v", err)
	}
	want, _ := json.Marshal(rep)
	got, _ := json.Marshal(&back)
	var wv, gv any
	_ = json.Unmarshal(want, &wv)
	_ = json.Unmarshal(got, &gv)
	if d := cmp.Diff(wv, gv); d != "" {
		t.Errorf("streamed JSON differs from Report.MarshalJSON (-want +got):\n%s", d)
	}
	// And the streamed bytes themselves hold the same fields as MarshalJSON.
	var sv any
	_ = json.Unmarshal(b.Bytes(), &sv)
	if d := cmp.Diff(wv, sv); d != "" {
		t.Errorf("streamed JSON fields differ from Report.MarshalJSON (-want +got):\n%s", d)
	}
}

func TestSummaryRows(t *testing.T) {
	s := reportfmt.NewSummary("s")
	s.Rows = 3
	for i, v := range []proctor.Status{P, P, F, P, N, K, F, P} {
		s.Add(proctor.CaseResult{ID: string(rune('a' + i)), Verdict: v})
	}
	var ids []string
	for _, c := range s.Cases() {
		ids = append(ids, c.ID)
	}
	// Passed cases make way for the others; past the limit the rest are counted.
	if d := cmp.Diff([]string{"c", "e", "f"}, ids); d != "" {
		t.Errorf("kept cases (-want +got):\n%s", d)
	}
	op, oo := s.Omitted()
	if op != 4 || oo != 1 {
		t.Errorf("omitted = %d passed, %d other; want 4, 1", op, oo)
	}
	if s.Totals != (proctor.Totals{Passed: 4, Failed: 2, Flaky: 1, NotGraded: 1}) {
		t.Errorf("totals = %+v", s.Totals)
	}
}
