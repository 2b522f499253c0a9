package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

// comparePages returns the compare page written from the whole reports
// and the one streamed from their files.
func comparePages(t *testing.T, base, head string, opts reportfmt.HTMLOptions) (whole, stream string) {
	t.Helper()
	b, err := readReport(base)
	if err != nil {
		t.Fatal(err)
	}
	h, err := readReport(head)
	if err != nil {
		t.Fatal(err)
	}
	var want, got bytes.Buffer
	if err := reportfmt.WriteCompareHTML(&want, b, h, reports.Compare(b, h), opts); err != nil {
		t.Fatal(err)
	}
	gb, gh, c, err := reportio.CompareFiles(base, head, reports.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := streamCompareHTML(&got, base, head, gb, gh, c, opts); err != nil {
		t.Fatal(err)
	}
	return want.String(), got.String()
}

// TestCompareHTMLStreamEqualsWhole: compare --html, streaming both
// reports and pairing their cases by id (in different orders, some in
// one report only), writes byte for byte the page written from the whole
// reports, text that needs escaping in a script element included.
func TestCompareHTMLStreamEqualsWhole(t *testing.T) {
	opts := reportfmt.HTMLOptions{Generated: time.Unix(1, 0), Version: "v"}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 30, 3000} {
		base, head := randomReport(t, rng, n, n+n/3+1), randomReport(t, rng, n, n+n/3+1)
		if whole, stream := comparePages(t, base, head, opts); whole != stream {
			t.Errorf("%d cases: pages differ:\n%s", n, cmp.Diff(whole, stream))
		}
	}
	evil := "</script><!-- & \u2028 <b>"
	mk := func(ids ...string) string {
		r := proctor.NewReport("s")
		for _, id := range ids {
			r.Add(proctor.CaseResult{ID: id, Verdict: proctor.StatusFailed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusFailed,
				Grades: []proctor.Grade{{Grader: evil, Status: proctor.StatusFailed, Reason: evil}}}}})
		}
		return writeReportFile(t, r)
	}
	whole, stream := comparePages(t, mk(evil, "b", "c"), mk("c", "d", evil), opts)
	if whole != stream || strings.Contains(stream, "</script><!--") {
		t.Errorf("escaped pages differ or hold the text raw:\n%s", cmp.Diff(whole, stream))
	}
}

// TestCompareHTMLBudget: past MaxBytes the page leaves out the cases
// passed in both runs, counts them, and keeps every other pair.
func TestCompareHTMLBudget(t *testing.T) {
	path := randomReport(t, rand.New(rand.NewPCG(7, 8)), 500, 500)
	r, _ := readReport(path)
	passed := r.Totals.Passed
	whole, stream := comparePages(t, path, path, reportfmt.HTMLOptions{MaxBytes: 1})
	// WriteCompareHTML is the same NewCompareHTML, Add, Finish: the same bound.
	if whole != stream {
		t.Errorf("whole and streamed pages differ under MaxBytes:\n%s", cmp.Diff(whole, stream))
	}
	start := strings.Index(stream, `{"cases":[`)
	end := start + strings.Index(stream[start:], "</script>")
	var data struct {
		Cases   []struct{ ID string }
		Summary struct {
			Omitted int `json:"omitted_passed"`
		}
	}
	if err := json.Unmarshal([]byte(stream[start:end]), &data); err != nil {
		t.Fatal(err)
	}
	// The first pair is embedded before the bound is reached.
	if data.Summary.Omitted != passed-1 && !(r.Cases[0].Verdict != proctor.StatusPassed && data.Summary.Omitted == passed) {
		t.Errorf("omitted %d of %d passed cases", data.Summary.Omitted, passed)
	}
	if len(data.Cases)+data.Summary.Omitted != len(r.Cases) {
		t.Errorf("%d embedded + %d omitted, want %d cases", len(data.Cases), data.Summary.Omitted, len(r.Cases))
	}
}
