package htmltest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// synthetic returns case i of a large run: a mix of verdicts, one to three
// attempts, two checks each with reasons on failures, a scored check and,
// on every tenth case, a judge's vote with its reasoning.
func synthetic(i int) proctor.CaseResult {
	id := fmt.Sprintf("case-%06d", i)
	split := []string{"dev", "dev", "dev", "holdout"}[i%4]
	v := proctor.StatusPassed
	switch {
	case i%7 == 0:
		v = proctor.StatusFailed
	case i%29 == 0:
		v = proctor.StatusFlaky
	case i%31 == 0:
		v = proctor.StatusNotGraded
	}
	attempt := func(st proctor.Status) proctor.AttemptResult {
		a := proctor.AttemptResult{Verdict: st}
		score := float64(i%100) / 100
		g1 := proctor.Grade{Grader: "contains", Status: proctor.StatusPassed}
		g2 := proctor.Grade{Grader: "similarity", Status: proctor.StatusPassed, Score: max(score, 0.6), HasScore: true}
		switch st {
		case proctor.StatusFailed:
			g2 = proctor.Grade{Grader: "similarity", Status: proctor.StatusFailed, Score: score / 2, HasScore: true,
				Reason: fmt.Sprintf("similarity %.2f below threshold 0.60 for %s", score/2, id)}
		case proctor.StatusNotGraded:
			g2 = proctor.Grade{Grader: "exact_match", Status: proctor.StatusNotGraded, Reason: "no expected value: set expected on the case or the spec"}
		}
		a.Grades = []proctor.Grade{g1, g2}
		if i%10 == 0 {
			a.Grades = append(a.Grades, proctor.Grade{Grader: "polite", Status: proctor.StatusPassed, Reason: "judge: pass (high confidence)",
				Evidence: &proctor.JudgeEvidence{PromptVersion: "proctor-judge/1", Judges: []proctor.JudgeVote{{Name: "j1", Family: "openai", Model: "gpt-4.1",
					Verdict: proctor.VerdictPass, Confidence: proctor.ConfidenceHigh, Reasoning: "The reply apologises and gives the next step with a date."}}}})
		}
		return a
	}
	c := proctor.CaseResult{ID: id, Verdict: v, Split: split}
	switch v {
	case proctor.StatusFlaky:
		c.Attempts = []proctor.AttemptResult{attempt(proctor.StatusPassed), attempt(proctor.StatusFailed), attempt(proctor.StatusPassed)}
	default:
		c.Attempts = []proctor.AttemptResult{attempt(v)}
	}
	return c
}

// writeSynthetic writes an n-case HTML report to w, case by case as proctor
// run does.
func writeSynthetic(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	h := reportfmt.NewHTML(bw, "synthetic", opts)
	s := reportfmt.NewSummary("synthetic")
	for i := range n {
		c := synthetic(i)
		s.Add(c)
		if err := h.Add(c); err != nil {
			return err
		}
	}
	if err := h.Finish(s); err != nil {
		return err
	}
	return bw.Flush()
}

// TestBrowserScale opens reports of 1,000 and 20,000 cases (and 200,000
// with PROCTOR_SCALE_200K=1) and logs the file size, the time until the
// page is drawn and the time to filter, sort and search. It asserts what
// the page shows, never a time: run it with -v to read them.
func TestBrowserScale(t *testing.T) {
	sizes := []int{1000, 20000}
	if os.Getenv("PROCTOR_SCALE_200K") == "1" {
		sizes = append(sizes, 200000)
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.html")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := writeSynthetic(f, n); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			wrote := time.Since(start)
			st, _ := os.Stat(path)
			if st.Size() >= 100<<20 {
				t.Errorf("%d cases: %d bytes, want under 100 MB", n, st.Size())
			}
			start = time.Now()
			p := open(t, path)
			opened := time.Since(start)
			defer p.check()
			ready := eval[float64](p, `+document.body.getAttribute("data-ready-ms")`)
			failed := 0
			for i := range n {
				if synthetic(i).Verdict == proctor.StatusFailed {
					failed++
				}
			}
			// Filters, sort and search run synchronously in the page; the
			// time is measured there around the click.
			timed := func(js string) float64 {
				return eval[float64](p, `(() => { const t = performance.now(); `+js+`; return performance.now() - t; })()`)
			}
			filterMS := timed(`document.querySelector('#filters button[data-filter="failed"]').click()`)
			if got := p.rows(); got != failed {
				t.Errorf("failed filter lists %d rows, want %d", got, failed)
			}
			if drawn := len(p.visibleIDs()); drawn == 0 || drawn > 60 {
				t.Errorf("%d rows in the DOM: want only those in view", drawn)
			}
			sortMS := timed(`document.querySelector('#cases button[data-sort="reason"]').click()`)
			allMS := timed(`document.querySelector('#filters button[data-filter="all"]').click()`)
			// The search runs after a pause for typing: check its result.
			timed(`(() => { const s = document.getElementById("search"); s.value = "case-0001"; s.dispatchEvent(new Event("input")); })()`)
			p.waitJS(`document.getElementById("cases").getAttribute("data-rows") === "100"`)
			t.Logf("%d cases: %.1f MB written in %v; opened in %v (page drawn %.0f ms after navigation began); filter failed %.0f ms, sort by reason %.0f ms, show all %.0f ms",
				n, float64(st.Size())/(1<<20), wrote.Round(time.Millisecond), opened.Round(time.Millisecond), ready, filterMS, sortMS, allMS)
		})
	}
}

// BenchmarkWriteHTML200k writes a 200,000-case HTML report to io.Discard
// and reports its size.
func BenchmarkWriteHTML200k(b *testing.B) {
	var size int64
	for b.Loop() {
		cw := &countWriter{}
		if err := writeSynthetic(cw, 200000); err != nil {
			b.Fatal(err)
		}
		size = cw.n
	}
	b.ReportMetric(float64(size)/(1<<20), "MB")
	if size >= 100<<20 {
		b.Errorf("200,000 cases: %d bytes, want under 100 MB", size)
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
