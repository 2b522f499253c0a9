package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reportfmt/internal/quickstart"
	"github.com/proctorhq/proctor/reports"
)

// htmlFixture is fixture() with a scored grader, judge evidence with a
// panel, a split and a recorded output, so the embedded data has every
// part the page draws.
func htmlFixture() *proctor.Report {
	r := fixture()
	out := "The order ships Friday."
	score := func(s float64, st proctor.Status) proctor.Grade {
		return proctor.Grade{Grader: "similarity", Status: st, Score: s, HasScore: true}
	}
	ev := &proctor.JudgeEvidence{PromptVersion: "pv1", Panel: true, PanelReasons: []string{"low confidence"},
		PanelTally: &proctor.PanelTally{Pass: 2, Fail: 1},
		Judges: []proctor.JudgeVote{
			{Name: "j1", Family: "anthropic", Model: "claude-x", Verdict: proctor.VerdictPass, Confidence: proctor.ConfidenceLow, Reasoning: "It answers </script> politely."},
			{Name: "j2", Family: "openai", Model: "gpt-y", Verdict: proctor.VerdictFail, Confidence: proctor.ConfidenceHigh, Reasoning: "No date given."},
			{Name: "j3", Family: "google", Model: "gem-z", Verdict: proctor.VerdictPass, Confidence: proctor.ConfidenceHigh, Reasoning: "Fine."}}}
	for i, s := range []float64{0.91, 0.85, 0.42, 0.3, 0.77} {
		st := proctor.StatusPassed
		if s < 0.5 {
			st = proctor.StatusFailed
		}
		c := proctor.CaseResult{ID: "scored-" + string(rune('a'+i)), Verdict: st, Split: []string{"dev", "holdout"}[i%2],
			Attempts: []proctor.AttemptResult{{Verdict: st, Output: &out, Grades: []proctor.Grade{score(s, st),
				{Grader: "polite", Status: proctor.StatusPassed, Reason: "panel: 2 pass, 1 fail", Evidence: ev}}}}}
		r.Add(c)
	}
	return r
}

var htmlOpts = reportfmt.HTMLOptions{Generated: time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC), Version: "v0.9.0"}

// dataOf returns the JSON embedded in an HTML report, failing unless there
// is exactly one data element.
func dataOf(t *testing.T, page []byte) []byte {
	t.Helper()
	const open = `<script type="application/json" id="proctor-data">`
	if n := bytes.Count(page, []byte(open)); n != 1 {
		t.Fatalf("%d data elements, want 1", n)
	}
	_, rest, _ := bytes.Cut(page, []byte(open))
	// The data ends at the first "</script" whatever it holds: text that
	// could close the element early must have been escaped.
	data, _, ok := bytes.Cut(rest, []byte("</script"))
	if !ok {
		t.Fatal("data element not closed")
	}
	return data
}

func TestWriteHTMLData(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteHTML(&b, htmlFixture(), htmlOpts); err != nil {
		t.Fatal(err)
	}
	data := dataOf(t, b.Bytes())
	var v struct {
		Cases   []proctor.CaseResult `json:"cases"`
		Summary map[string]any       `json:"summary"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("embedded data is not JSON: %v", err)
	}
	if len(v.Cases) != 13 || v.Cases[0].ID != "refund-window" || v.Cases[7].ID != "pipes|and`ticks" {
		t.Errorf("cases = %d, want the 13 of the fixture in order", len(v.Cases))
	}
	if !strings.Contains(string(data), `It answers \u003c/script\u003e politely.`) {
		t.Error("judge reasoning with </script> not escaped as \\u003c/script\\u003e")
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, data, "", " "); err != nil {
		t.Fatal(err)
	}
	golden(t, pretty.Bytes())
}

func TestWriteHTMLEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteHTML(&b, proctor.NewReport("empty"), reportfmt.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, dataOf(t, b.Bytes()), "", " "); err != nil {
		t.Fatal(err)
	}
	golden(t, pretty.Bytes())
}

func TestWriteCompareHTMLData(t *testing.T) {
	base := fixture()
	head := fixture()
	head.Cases[0].Verdict = proctor.StatusFailed // refund-window regresses
	head.Cases[1].Verdict = proctor.StatusPassed // order-status is fixed
	head.Cases = head.Cases[:len(head.Cases)-1]  // pipes|and`ticks is gone
	head.Add(proctor.CaseResult{ID: "brand-new", Verdict: proctor.StatusPassed})
	head.Judges[0].PromptVersion = "v2"
	c := reports.Compare(base, head)
	var b bytes.Buffer
	if err := reportfmt.WriteCompareHTML(&b, base, head, c, htmlOpts); err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, dataOf(t, b.Bytes()), "", " "); err != nil {
		t.Fatal(err)
	}
	golden(t, pretty.Bytes())
	for _, w := range []string{`"kind": "compare"`, `"id": "brand-new"`, `"regressions": [`, "prompt"} {
		if !strings.Contains(pretty.String(), w) {
			t.Errorf("compare data lacks %q", w)
		}
	}
}

// TestHTMLScriptEscape checks that no case text can end the data element
// or start markup: ids and reasons with </script>, <!-- and quotes.
func TestHTMLScriptEscape(t *testing.T) {
	r := proctor.NewReport(`suite </title><script>alert(1)</script>`)
	evil := "</script><script>alert(1)</script><!-- & \u2028 '\""
	r.Add(proctor.CaseResult{ID: evil, Verdict: proctor.StatusFailed, Attempts: []proctor.AttemptResult{
		{Verdict: proctor.StatusFailed, Error: evil, Grades: []proctor.Grade{{Grader: evil, Status: proctor.StatusFailed, Reason: evil}}}}})
	var b bytes.Buffer
	if err := reportfmt.WriteHTML(&b, r, reportfmt.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d <script elements, want 2 (data and code)", n)
	}
	if strings.Contains(page, "alert(1)</script>") || strings.Contains(page, "<title>proctor report: suite </title>") {
		t.Error("case text reached the page unescaped")
	}
	var v struct {
		Cases []proctor.CaseResult `json:"cases"`
	}
	if err := json.Unmarshal(dataOf(t, b.Bytes()), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) != 1 || v.Cases[0].ID != evil {
		t.Errorf("id did not round-trip: %+v", v.Cases)
	}
}

// The places a page can name a resource: the attributes of a tag that
// load or link, CSS url() and @import, the script calls that make
// requests, and attributes the script would set.
var (
	tagRE  = regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	attrRE = regexp.MustCompile(`(?i)\s(?:src|href|action|srcset|poster|data|formaction|xlink:href|background|ping|manifest|codebase|cite|longdesc|icon)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`)
	cssRE  = regexp.MustCompile(`(?i)url\(\s*['"]?([^'")]*)|@import`)
	apiRE  = regexp.MustCompile(`(?i)\bfetch\s*\(|XMLHttpRequest|\bimport\s*\(|\bWebSocket\b|EventSource|sendBeacon|\.src\s*=|window\.open|\b(?:src|href|srcset|action|poster)\s*:|setAttribute\(\s*["'](?:src|href)`)
)

// externalRefs returns the references of page that leave it: anything but
// an in-page fragment ("#...") or an inline data: URL. The embedded report
// data is left out of the scan: it is JSON in an element the browser never
// runs, and it quotes whatever the graded outputs said.
func externalRefs(page string) []string {
	const open = `<script type="application/json" id="proctor-data">`
	if before, rest, ok := strings.Cut(page, open); ok {
		_, after, _ := strings.Cut(rest, "</script>")
		page = before + open + "</script>" + after
	}
	var bad []string
	local := func(v string) bool {
		v = strings.ToLower(strings.TrimSpace(v))
		return v == "" || strings.HasPrefix(v, "#") || strings.HasPrefix(v, "data:")
	}
	for _, tag := range tagRE.FindAllString(page, -1) {
		for _, m := range attrRE.FindAllStringSubmatch(tag, -1) {
			if !local(m[1] + m[2] + m[3]) {
				bad = append(bad, m[0])
			}
		}
	}
	for _, m := range cssRE.FindAllStringSubmatch(page, -1) {
		if m[0] == "@import" || !local(m[1]) {
			bad = append(bad, m[0])
		}
	}
	return append(bad, apiRE.FindAllString(page, -1)...)
}

func TestExternalRefsFinds(t *testing.T) {
	for _, page := range []string{`<img src="https://x.example/a.png">`, `<link href=//cdn.example/x.css>`,
		`a{background:url( "http://e.example/i.png")}`, `<script>fetch("/x")</script>`, `<a href='file:///etc/passwd'>`,
		`@import "x.css";`, `<script src="report.js"></script>`, `el("img", {src: u})`, `<object data="x.swf">`} {
		if len(externalRefs(page)) == 0 {
			t.Errorf("no external reference found in %s", page)
		}
	}
	if bad := externalRefs(`<a href="#case=x">x</a><img src="data:image/png;base64,AA"> url(#grad)`); len(bad) > 0 {
		t.Errorf("in-page references reported: %q", bad)
	}
}

// TestHTMLNoExternalURL scans the report and compare pages for anything
// that would make the browser load a file or go to the network.
func TestHTMLNoExternalURL(t *testing.T) {
	var rep, cmp bytes.Buffer
	if err := reportfmt.WriteHTML(&rep, htmlFixture(), htmlOpts); err != nil {
		t.Fatal(err)
	}
	if err := reportfmt.WriteCompareHTML(&cmp, fixture(), htmlFixture(), reports.Compare(fixture(), htmlFixture()), htmlOpts); err != nil {
		t.Fatal(err)
	}
	for name, page := range map[string]string{"report": rep.String(), "compare": cmp.String()} {
		if bad := externalRefs(page); len(bad) > 0 {
			t.Errorf("%s page refers outside itself: %q", name, bad)
		}
		for _, w := range []string{"<style>", "default-src 'none'", `<script type="application/json" id="proctor-data">`} {
			if !strings.Contains(page, w) {
				t.Errorf("%s page lacks %q", name, w)
			}
		}
	}
}

// TestHTMLRedactsHoldout writes the quickstart's report as HTML and looks
// for the outputs of its holdout cases and the judge's reading of one.
func TestHTMLRedactsHoldout(t *testing.T) {
	rep := quickstart.Run(t, filepath.Join("..", "examples", "quickstart", "suite.yaml"))
	var b bytes.Buffer
	if err := reportfmt.WriteHTML(&b, rep, reportfmt.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, secret := range []string{"Order A-18 shipped yesterday", "A-18", "Parcels are sometimes late", "No apology, and no next step"} {
		if strings.Contains(page, secret) {
			t.Errorf("holdout text %q is in the HTML report", secret)
		}
	}
	// The development cases' evidence is there: redaction is not blanket.
	for _, w := range []string{"late-delivery", "hidden: holdout case", "An apology, and what happens next"} {
		if !strings.Contains(page, w) {
			t.Errorf("HTML report lacks %q", w)
		}
	}
}

// TestHTMLMaxBytes checks that past the size bound passed cases are
// counted but not embedded, and every other case still is.
func TestHTMLMaxBytes(t *testing.T) {
	var b bytes.Buffer
	h := reportfmt.NewHTML(&b, "big", reportfmt.HTMLOptions{MaxBytes: 2000})
	s := reportfmt.NewSummary("big")
	for i := range 200 {
		v := proctor.StatusPassed
		if i%10 == 0 {
			v = proctor.StatusFailed
		}
		c := proctor.CaseResult{ID: "case-" + strings.Repeat("x", i%7) + string(rune('a'+i%26)), Verdict: v,
			Attempts: []proctor.AttemptResult{{Verdict: v, Grades: []proctor.Grade{{Grader: "exact_match", Status: v}}}}}
		s.Add(c)
		if err := h.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Finish(s); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Cases   []proctor.CaseResult `json:"cases"`
		Summary struct {
			Omitted int            `json:"omitted_passed"`
			Totals  proctor.Totals `json:"totals"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(dataOf(t, b.Bytes()), &v); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, c := range v.Cases {
		if c.Verdict == proctor.StatusFailed {
			failed++
		}
	}
	if failed != 20 || v.Summary.Totals.Failed != 20 || v.Summary.Totals.Passed != 180 {
		t.Errorf("embedded %d failed cases, totals %+v; want all 20 failed and 180 passed counted", failed, v.Summary.Totals)
	}
	if v.Summary.Omitted == 0 || len(v.Cases)+v.Summary.Omitted != 200 {
		t.Errorf("embedded %d, omitted %d; want some omitted and 200 in all", len(v.Cases), v.Summary.Omitted)
	}
}

// FuzzHTMLData checks that no case text, whatever it holds, ends the data
// element early or comes back changed.
func FuzzHTMLData(f *testing.F) {
	for _, s := range []string{"", "</script>", "<!--<script>", "</SCRIPT", "\u2028\u2029", "&lt;/script&gt;", "\xff\xfe", "]]>"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, id, reason string) {
		if !utf8.ValidString(id) || !utf8.ValidString(reason) {
			return // JSON carries text; invalid bytes become U+FFFD by design
		}
		r := proctor.NewReport(id)
		r.Add(proctor.CaseResult{ID: id, Verdict: proctor.StatusFailed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusFailed,
			Grades: []proctor.Grade{{Grader: "g", Status: proctor.StatusFailed, Reason: reason}}}}})
		var b bytes.Buffer
		if err := reportfmt.WriteHTML(&b, r, reportfmt.HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		var v struct {
			Cases []proctor.CaseResult `json:"cases"`
		}
		if err := json.Unmarshal(dataOf(t, b.Bytes()), &v); err != nil {
			t.Fatalf("data element does not hold the JSON: %v", err)
		}
		if len(v.Cases) != 1 || v.Cases[0].ID != id || v.Cases[0].Attempts[0].Grades[0].Reason != reason {
			t.Fatalf("case text changed: %+v", v.Cases)
		}
	})
}
