package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

// randomReport writes a report of n cases drawn from rng, ids from a pool
// of pool (so two reports share some and not others), to a file.
func randomReport(t *testing.T, rng *rand.Rand, n, pool int) string {
	t.Helper()
	statuses := []proctor.Status{proctor.StatusPassed, proctor.StatusFailed, proctor.StatusFlaky, proctor.StatusNotGraded}
	r := proctor.NewReport("s")
	for _, k := range rng.Perm(pool)[:n] {
		v := statuses[rng.IntN(len(statuses))]
		r.Add(proctor.CaseResult{ID: fmt.Sprintf("c%d", k), Verdict: v, Split: []string{"", "dev"}[rng.IntN(2)],
			Attempts: []proctor.AttemptResult{{Verdict: v, Grades: []proctor.Grade{{Grader: "g", Status: v, Reason: "r", Caveats: []string{fmt.Sprintf("cv%d", k%3)}}}}}})
	}
	r.Judges = []proctor.JudgeStats{{Name: "j", Model: fmt.Sprint("m", rng.IntN(2)), Calls: rng.IntN(9)}}
	return writeReportFile(t, r)
}

// TestCompareFilesEqualsCompare: the streaming comparison is the
// one reports.Compare gives on the whole reports, over random pairs with
// cases in one report only and more than a chunk of pairs.
func TestCompareFilesEqualsCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 30, 9000} {
		base, head := randomReport(t, rng, n, n+n/3+1), randomReport(t, rng, n, n+n/3+1)
		b, _ := readReport(base)
		h, _ := readReport(head)
		want := reports.Compare(b, h)
		gb, gh, got, err := reportio.CompareFiles(base, head, reports.CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%d cases: comparison differs (-whole +stream):\n%s", n, d)
		}
		if gb.Totals != b.Totals || gh.Totals != h.Totals || len(gb.Cases) != 0 {
			t.Errorf("%d cases: totals %+v %+v, want %+v %+v", n, gb.Totals, gh.Totals, b.Totals, h.Totals)
		}
	}
}

// TestShowStreamEqualsWhole: report show and report html print what they
// printed from the whole report.
func TestShowStreamEqualsWhole(t *testing.T) {
	path := randomReport(t, rand.New(rand.NewPCG(3, 4)), 400, 500)
	r, err := readReport(path)
	if err != nil {
		t.Fatal(err)
	}
	checkShowFormats(t, path, r)
	var want, got bytes.Buffer
	opts := reportfmt.HTMLOptions{Generated: time.Unix(1, 0), Version: "v"}
	want.Reset()
	if err := reportfmt.WriteHTML(&want, r, opts); err != nil {
		t.Fatal(err)
	}
	got.Reset()
	if err := writeHTMLStream(path, &got, opts); err != nil {
		t.Fatal(err)
	}
	if want.String() != got.String() {
		t.Errorf("html differs:\n%s", cmp.Diff(want.String(), got.String()))
	}
}

// TestMergeStreamEqualsMerge: the streaming merge gives the report
// reports.MergeWith gives, for shards with positions, without, and a
// partial set.
func TestMergeStreamEqualsMerge(t *testing.T) {
	dir := t.TempDir()
	withPos := writeScaleReport(t, dir, 2000, 4)
	plain := []string{randomReport(t, rand.New(rand.NewPCG(5, 6)), 50, 50)}
	for name, tc := range map[string]struct {
		files   []string
		partial bool
	}{"positions": {withPos, false}, "plain": {plain, false}, "partial": {withPos[1:], true}} {
		t.Run(name, func(t *testing.T) {
			var reps []*proctor.Report
			for _, f := range tc.files {
				r, err := readReport(f)
				if err != nil {
					t.Fatal(err)
				}
				reps = append(reps, r)
			}
			want, err := reports.MergeWith(reports.MergeOptions{AllowPartial: tc.partial, Names: tc.files}, reps...)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := mergeStream(tc.files, tc.partial, &buf); err != nil {
				t.Fatal(err)
			}
			var got proctor.Report
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, &got); d != "" {
				t.Errorf("streamed merge differs (-whole +stream):\n%s", d)
			}
		})
	}
}
