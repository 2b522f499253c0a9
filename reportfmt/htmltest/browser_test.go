package htmltest

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/reportfmt"
	qs "github.com/proctorhq/proctor/reportfmt/internal/quickstart"
	"github.com/proctorhq/proctor/reports"
)

// chromium returns the path of a Chromium to drive. It skips the test when
// there is none, unless CI is set: CI installs Chromium, so a missing one
// there is a failure, never a silent skip.
func chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PROCTOR_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-headless-shell", "chromium-browser", "google-chrome", "chrome-headless-shell", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	for _, p := range []string{"/usr/lib/chromium/chromium", "/usr/lib/chromium/chrome-headless-shell"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium found and CI is set: install the chromium package (.ci/run does) or set PROCTOR_CHROMIUM")
	}
	t.Skip("no Chromium found: install the chromium package or set PROCTOR_CHROMIUM to run the browser tests (they fail instead of skipping when CI is set)")
	return ""
}

// page is a tab of a headless Chromium that records every console error,
// uncaught exception, failed load and request for anything but the page.
type page struct {
	t   testing.TB
	ctx context.Context

	mu       sync.Mutex
	pageURL  string
	problems []string
}

// open starts Chromium, offline and with a fresh profile, and opens the
// file at path in it.
func open(t testing.TB, path string) *page {
	t.Helper()
	return openAt(t, path, "")
}

// openAt is open with the address hash fragment (without its '#', as
// written, not escaped).
func openAt(t testing.TB, path, fragment string) *page {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true), chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ctx: ctx, pageURL: (&url.URL{Scheme: "file", Path: abs}).String()}

	if err := chromedp.Listen(ctx, p.event); err != nil {
		t.Fatal(err)
	}
	p.do(func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	})
	p.do(chromedp.EmulateViewport(1280, 900))
	addr := p.pageURL
	if fragment != "" {
		addr += "#" + fragment
	}
	p.do(chromedp.Navigate(addr))
	p.waitJS(`document.body.getAttribute("data-ready") === "true"`)
	return p
}

func (p *page) problem(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

// event runs in chromedp's read loop: it only records.
func (p *page) event(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			p.problem("console.%s: %s", ev.Type, strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		p.problem("uncaught exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, msg)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			p.problem("log error (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
		}
	case *network.EventLoadingFailed:
		p.problem("load failed: %s %s", ev.ErrorText, ev.BlockedReason)
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; u != p.pageURL && !strings.HasPrefix(u, "data:") {
			p.problem("request for %s", u)
		}
	}
}

// check fails the test for anything the page did wrong so far.
func (p *page) check() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.problems {
		p.t.Errorf("page: %s", pr)
	}
	p.problems = nil
}

func (p *page) do(a chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, a); err != nil {
		p.t.Fatal(err)
	}
}

// eval returns the value of a JavaScript expression in the page.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitJS waits, at most 30 seconds, until expr is true in the page.
func (p *page) waitJS(expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		p.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// click clicks the element sel matches with the mouse.
func (p *page) click(sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(sel, chromedp.NodeVisible)); err != nil {
		p.t.Fatalf("click %s: %v", sel, err)
	}
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

// search types q into the search box as one edit and waits until done
// is true.
func (p *page) search(q, done string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.getElementById("search"); s.value = %q; s.dispatchEvent(new Event("input")); })()`, q)))
	p.waitJS(done)
}

// rows returns how many cases the table lists for the current filter.
func (p *page) rows() int {
	p.t.Helper()
	return eval[int](p, `+document.getElementById("cases").getAttribute("data-rows")`)
}

// visibleIDs returns the ids of the rows drawn, in order.
func (p *page) visibleIDs() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll("#cases .row")].sort((a, b) => a.dataset.index - b.dataset.index).map(r => r.dataset.id)`)
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	if os.Getenv("PROCTOR_UPDATE_SCREENSHOTS") != "1" {
		return
	}
	b, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "img", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("wrote %s", path)
}

// quickstart runs the quickstart suite as proctor run --html does.
func quickstart(t testing.TB) *proctor.Report {
	t.Helper()
	return qs.Run(t, filepath.Join("..", "..", "examples", "quickstart", "suite.yaml"))
}

var opts = reportfmt.HTMLOptions{Generated: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), Version: "v0.9.0"}

func writeFile(t testing.TB, name string, write func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var verdicts = []proctor.Status{proctor.StatusPassed, proctor.StatusFailed, proctor.StatusFlaky, proctor.StatusNotGraded}

func TestBrowserReport(t *testing.T) {
	rep := quickstart(t)
	path := writeFile(t, "report.html", func(b *bytes.Buffer) error { return reportfmt.WriteHTML(b, rep, opts) })
	p := open(t, path)
	defer p.check()

	// The totals shown are the report's.
	want := map[proctor.Status]int{}
	for _, c := range rep.Cases {
		want[c.Verdict]++
	}
	shown := map[string]string{}
	for _, v := range verdicts {
		shown[v.String()] = p.text("#total-" + v.String())
		if got := shown[v.String()]; got != fmt.Sprint(want[v]) {
			t.Errorf("total %s shows %q, want %d", v, got, want[v])
		}
	}
	if want[proctor.StatusFlaky] == 0 || want[proctor.StatusNotGraded] == 0 {
		t.Fatalf("the quickstart lost a verdict: %v", want)
	}
	rate, d, _ := rep.PassRate()
	if got, w := p.text("#pass-rate"), fmt.Sprintf("%.1f%%", 100*rate); got != w {
		t.Errorf("pass rate shows %q, want %q", got, w)
	}
	lo, hi := metric.Wilson(rep.Totals.Passed, d)
	if got, w := p.text("#pass-rate-detail"), fmt.Sprintf("%d / %d; 95%% Wilson CI %.1f%%–%.1f%%", rep.Totals.Passed, d, 100*lo, 100*hi); !strings.Contains(got, w) {
		t.Errorf("pass rate detail %q lacks %q", got, w)
	}
	for _, id := range []string{"chart-splits", "chart-graders", "chart-judges", "chart-reasons"} {
		if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll("#%s svg text").length`, id)); n == 0 {
			t.Errorf("chart %s has no text labels", id)
		}
	}
	p.screenshot("html-report-summary.png")

	// Each verdict filter lists the cases of that verdict, and the address
	// keeps it.
	for _, v := range verdicts {
		p.click(fmt.Sprintf(`#filters button[data-filter=%q]`, v.String()))
		if got := p.rows(); got != want[v] {
			t.Errorf("filter %s lists %d rows, want %d", v, got, want[v])
		}
		if ids := p.visibleIDs(); len(ids) != want[v] {
			t.Errorf("filter %s draws %d rows, want %d", v, len(ids), want[v])
		}
		if h := eval[string](p, `location.hash`); !strings.Contains(h, "verdict="+v.String()) {
			t.Errorf("filter %s: address hash %q does not keep it", v, h)
		}
	}
	p.click(`#filters button[data-filter="all"]`)
	if got := p.rows(); got != len(rep.Cases) {
		t.Errorf("all lists %d rows, want %d", got, len(rep.Cases))
	}

	// A link with a filter opens the same view.
	p.do(chromedp.Navigate(p.pageURL + "#verdict=failed&split=holdout"))
	p.do(chromedp.Reload())
	p.waitJS(`document.body.getAttribute("data-ready") === "true"`)
	holdoutFailed := 0
	for _, c := range rep.Cases {
		if c.Split == "holdout" && c.Verdict == proctor.StatusFailed {
			holdoutFailed++
		}
	}
	if got := p.rows(); got != holdoutFailed || holdoutFailed == 0 {
		t.Errorf("link #verdict=failed&split=holdout lists %d rows, want %d", got, holdoutFailed)
	}
	p.do(chromedp.Navigate(p.pageURL + "#"))
	p.do(chromedp.Reload())
	p.waitJS(`document.body.getAttribute("data-ready") === "true"`)

	// The search box matches ids and reasons.
	p.click(`#search`)
	p.do(chromedp.SendKeys(`#search`, "schema"))
	p.waitJS(`document.getElementById("cases").getAttribute("data-rows") === "1"`)
	if ids := p.visibleIDs(); len(ids) != 1 || ids[0] != "ticket-json" {
		t.Errorf("search schema shows %v, want [ticket-json]", ids)
	}
	p.search("connecting", `[...document.querySelectorAll("#cases .row")].map(r => r.dataset.id).join() === "escalation"`)
	if ids := p.visibleIDs(); len(ids) != 1 || ids[0] != "escalation" {
		t.Errorf("search connecting shows %v, want [escalation]", ids)
	}
	p.search("", fmt.Sprintf(`document.getElementById("cases").getAttribute("data-rows") === "%d"`, len(rep.Cases)))

	// Sorting by verdict puts failed cases first.
	p.click(`#cases button[data-sort="verdict"]`)
	if ids := p.visibleIDs(); len(ids) == 0 || caseOf(rep, ids[0]).Verdict != proctor.StatusFailed {
		t.Errorf("sorted by verdict, the first row is %v", ids)
	}
	p.click(`#cases button[data-sort="id"]`)
	if ids := p.visibleIDs(); len(ids) < 2 || ids[0] > ids[1] {
		t.Errorf("sorted by id, rows are %v", ids)
	}

	// A case shows its checks, the ones a required failure skipped too.
	p.click(`#cases .row[data-id="ticket-json"]`)
	p.waitJS(`!!document.getElementById("case-view")`)
	checks := eval[[]string](p, `[...document.querySelectorAll("#case-view .check")].map(c => c.dataset.grader + "=" + c.dataset.status)`)
	wantChecks := []string{"no-disclaimer=passed", "ticket-schema=failed", "has-product=skipped", "polite-reply=skipped"}
	if strings.Join(checks, " ") != strings.Join(wantChecks, " ") {
		t.Errorf("ticket-json shows checks %v, want %v", checks, wantChecks)
	}
	if v := p.text("#case-view"); !strings.Contains(v, "Open a ticket: my blender arrived broken.") || !strings.Contains(v, "I opened ticket T-9") {
		t.Errorf("ticket-json does not show its recorded input and output: %.400s", v)
	}
	if h := eval[string](p, `location.hash`); !strings.Contains(h, "case=ticket-json") {
		t.Errorf("open case: hash %q", h)
	}
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!document.getElementById("case-view")`)

	// A judged case shows the judge's reading.
	p.click(`#cases .row[data-id="damaged-item"]`)
	p.waitJS(`!!document.getElementById("case-view")`)
	if v := p.text("#case-view"); !strings.Contains(v, "scripted offline judge") || !strings.Contains(v, "An apology, and what happens next") {
		t.Errorf("damaged-item does not show the judge's vote: %.300s", v)
	}
	p.screenshot("html-report-case.png")
	p.click(`#case-view .close`)
	p.waitJS(`!document.getElementById("case-view")`)

	// The keyboard moves through rows and opens one.
	p.do(chromedp.Focus(`#cases .viewport`))
	p.do(chromedp.KeyEvent(kb.ArrowDown))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!!document.getElementById("case-view")`)
	second := p.visibleIDs()[1]
	if h := eval[string](p, `location.hash`); !strings.Contains(h, "case="+url.QueryEscape(second)) {
		t.Errorf("ArrowDown, Enter: hash %q, want the second row %s open", h, second)
	}
}

func caseOf(r *proctor.Report, id string) proctor.CaseResult {
	for _, c := range r.Cases {
		if c.ID == id {
			return c
		}
	}
	return proctor.CaseResult{}
}

// headOf is base with one regression, one fix and a new judge prompt
// version: the head run of a comparison.
func headOf(t testing.TB, base *proctor.Report) *proctor.Report {
	t.Helper()
	head := proctor.NewReport(base.Suite)
	for _, c := range base.Cases {
		switch c.ID {
		case "refund-window": // passed -> failed
			c.Verdict = proctor.StatusFailed
			c.Attempts = []proctor.AttemptResult{{Verdict: proctor.StatusFailed, Grades: []proctor.Grade{
				{Grader: "contains", Status: proctor.StatusFailed, Reason: `output does not contain "30 days"`}}}}
		case "disclaimer": // failed -> passed
			c.Verdict = proctor.StatusPassed
			c.Attempts = []proctor.AttemptResult{{Verdict: proctor.StatusPassed, Grades: []proctor.Grade{
				{Grader: "no-disclaimer", Status: proctor.StatusPassed}, {Grader: "contains", Status: proctor.StatusPassed}}}}
		}
		head.Add(c)
	}
	for _, j := range base.Judges {
		j.PromptVersion += "-next"
		head.Judges = append(head.Judges, j)
	}
	return head
}

func TestBrowserCompare(t *testing.T) {
	base := quickstart(t)
	head := headOf(t, base)
	c := reports.Compare(base, head)
	if len(c.Regressions) != 1 || len(c.Fixes) != 1 {
		t.Fatalf("comparison has %d regressions, %d fixes; want 1 and 1", len(c.Regressions), len(c.Fixes))
	}
	path := writeFile(t, "diff.html", func(b *bytes.Buffer) error { return reportfmt.WriteCompareHTML(b, base, head, c, opts) })
	p := open(t, path)
	defer p.check()
	if got := p.text("#n-regressions"); got != "1" {
		t.Errorf("regressions shows %q", got)
	}
	if got := p.text("#n-fixes"); got != "1" {
		t.Errorf("fixes shows %q", got)
	}
	if ids := p.visibleIDs(); len(ids) < 2 || ids[0] != "refund-window" || ids[1] != "disclaimer" {
		t.Errorf("rows %v: want the regression then the fix first", ids)
	}
	if w := p.text("#warnings"); !strings.Contains(w, "prompt") {
		t.Errorf("warnings %q do not flag the judge prompt version change", w)
	}
	if m := p.text("#mcnemar"); !strings.Contains(m, "1 passed → failed, 1 failed → passed") {
		t.Errorf("McNemar line %q", m)
	}
	if d := p.text("#difference"); !strings.Contains(d, "Difference in pass rate (head − base)") || !strings.Contains(d, "95% CI") {
		t.Errorf("difference line %q", d)
	}
	if m := p.text("#mde"); !strings.Contains(m, "Minimum detectable difference") {
		t.Errorf("MDE line %q", m)
	}
	p.screenshot("html-report-compare.png")
	p.click(`#filters button[data-filter="regression"]`)
	if got := p.rows(); got != 1 {
		t.Errorf("regression filter lists %d rows", got)
	}
	p.click(`#filters button[data-filter="unchanged"]`)
	if got := p.rows(); got != len(base.Cases)-2 {
		t.Errorf("unchanged filter lists %d rows, want %d", got, len(base.Cases)-2)
	}
	p.click(`#filters button[data-filter="all"]`)
	p.click(`#cases .row[data-id="refund-window"]`)
	p.waitJS(`!!document.getElementById("case-view")`)
	b, h := p.text(`#case-view [data-side="base"]`), p.text(`#case-view [data-side="head"]`)
	if !strings.Contains(b, "passed") || !strings.Contains(h, `output does not contain "30 days"`) {
		t.Errorf("refund-window before/after: base %q, head %q", b, h)
	}
}

// TestBrowserCatchesProblems checks the harness itself: a page that logs an
// error, throws and loads a file is reported.
func TestBrowserCatchesProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.html")
	page := `<!DOCTYPE html><html><body><img src="missing.png"><script>console.error("boom"); setTimeout(() => { throw new Error("thrown") }, 0); document.body.setAttribute("data-ready", "true");</script></body></html>`
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	p := open(t, path)
	p.waitJS(`new Promise(r => setTimeout(() => r(true), 200))`)
	p.mu.Lock()
	got := strings.Join(p.problems, "\n")
	p.problems = nil
	p.mu.Unlock()
	for _, w := range []string{"boom", "thrown", "missing.png"} {
		if !strings.Contains(got, w) {
			t.Errorf("problems %q do not report %q", got, w)
		}
	}
}

// TestBrowserMalformedHash: an address hash that does not decode
// (decodeURIComponent throws URIError on it) shows the default view, on
// load and on a hash change, instead of a blank page.
func TestBrowserMalformedHash(t *testing.T) {
	rep := quickstart(t)
	path := writeFile(t, "report.html", func(b *bytes.Buffer) error { return reportfmt.WriteHTML(b, rep, opts) })
	const bad = "case=%E0%A4%A&verdict=%"
	all := len(rep.Cases)
	p := openAt(t, path, bad)
	defer p.check()
	// The page shows the default view and says so in the address.
	if h := eval[string](p, `location.hash`); h != "" {
		t.Errorf("opened at #%s, the hash is %q, want none", bad, h)
	}
	if got := p.rows(); got != all {
		t.Errorf("loaded with a malformed hash: %d rows, want %d", got, all)
	}
	// A hash change to a good view, then to a malformed hash again.
	p.waitJS(`(location.hash = "#verdict=passed", new Promise(r => setTimeout(() => r(true), 100)))`)
	if got := p.rows(); got == all {
		t.Fatalf("the filter in the hash did not apply: %d rows", got)
	}
	p.waitJS(`(location.hash = "#` + bad + `", new Promise(r => setTimeout(() => r(true), 100)))`)
	if got := p.rows(); got != all || eval[bool](p, `!!document.getElementById("case-view")`) {
		t.Errorf("after a malformed hash change: %d rows, want %d and no case open", got, all)
	}
}
