package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// writeScaleReport writes the JSON report of a run of n cases with four
// checks each, as proctor run --out writes it (about 400 bytes a case);
// one case in seven fails and one in 50 is flaky. With shards > 1 it
// writes the reports of shards 1..shards of that run instead, and returns
// their paths.
func writeScaleReport(tb testing.TB, dir string, n, shards int) []string {
	tb.Helper()
	var files []string
	for s := 1; s <= max(shards, 1); s++ {
		path := filepath.Join(dir, fmt.Sprintf("report-%d-%d-of-%d.json", n, s, max(shards, 1)))
		f, err := os.Create(path)
		if err != nil {
			tb.Fatal(err)
		}
		var rs *proctor.ReportShard
		if shards > 1 {
			rs = &proctor.ReportShard{I: s, N: shards}
			for i := s - 1; i < n; i += shards {
				rs.Positions = append(rs.Positions, i)
			}
		}
		j := reportfmt.NewJSON(f, "scale", reportfmt.JSONOptions{Shard: rs, SuiteDigest: "sha256:" + fmt.Sprintf("%064d", n)})
		sum := reportfmt.NewSummary("scale")
		for i := s - 1; i < n; i += max(shards, 1) {
			c := scaleCase(i)
			sum.Add(c)
			if err := j.Add(c); err != nil {
				tb.Fatal(err)
			}
		}
		if err := j.Finish(sum); err != nil {
			tb.Fatal(err)
		}
		if err := f.Close(); err != nil {
			tb.Fatal(err)
		}
		files = append(files, path)
	}
	return files
}

// scaleCase is case i of the scale report.
func scaleCase(i int) proctor.CaseResult {
	v := proctor.StatusPassed
	grades := []proctor.Grade{
		{Grader: "contains", Status: proctor.StatusPassed},
		{Grader: "regex", Status: proctor.StatusPassed},
		{Grader: "json_valid", Status: proctor.StatusPassed},
		{Grader: "length", Status: proctor.StatusPassed, Score: 1},
	}
	if i%7 == 3 {
		v = proctor.StatusFailed
		grades[1] = proctor.Failf("output does not match %q", `^\d{3}-[A-Z]+$`)
		grades[1].Grader = "regex"
	}
	attempts := []proctor.AttemptResult{{Verdict: v, Grades: grades}}
	if i%50 == 17 {
		v = proctor.StatusFlaky
		attempts = append(attempts, proctor.AttemptResult{Verdict: proctor.StatusPassed, Grades: grades[:1]})
	}
	return proctor.CaseResult{ID: "case-" + strconv.Itoa(i), Verdict: v, Attempts: attempts}
}

// TestWriteScaleReport writes the scale report of $PROCTOR_SCALE_REPORT_N
// cases into $PROCTOR_SCALE_REPORT_DIR (with $PROCTOR_SCALE_SHARDS shards),
// for measuring the binary with /usr/bin/time (BENCHMARKS.md).
func TestWriteScaleReport(t *testing.T) {
	dir, ns := os.Getenv("PROCTOR_SCALE_REPORT_DIR"), os.Getenv("PROCTOR_SCALE_REPORT_N")
	if dir == "" || ns == "" {
		t.Skip("set PROCTOR_SCALE_REPORT_DIR and PROCTOR_SCALE_REPORT_N to write a scale report")
	}
	n, err := strconv.Atoi(ns)
	if err != nil {
		t.Fatal(err)
	}
	shards, _ := strconv.Atoi(os.Getenv("PROCTOR_SCALE_SHARDS"))
	for _, f := range writeScaleReport(t, dir, n, shards) {
		t.Log(f)
	}
}

var scaleSizes = []int{10_000, 100_000, 1_000_000}

// benchReportTool runs one report command over generated reports of each
// size; -benchtime=1x is enough at 1M.
func benchReportTool(b *testing.B, shards int, args func(files []string) []string) {
	for _, n := range scaleSizes {
		b.Run(fmt.Sprintf("cases=%d", n), func(b *testing.B) {
			if n > 100_000 && testing.Short() {
				b.Skip("-short")
			}
			files := writeScaleReport(b, b.TempDir(), n, shards)
			var size int64
			for _, f := range files {
				st, _ := os.Stat(f)
				size += st.Size()
			}
			b.SetBytes(size)
			b.ResetTimer()
			for b.Loop() {
				if code := run(b.Context(), args(files), nil, io.Discard, io.Discard); code > exitFailed {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/case")
		})
	}
}

// BenchmarkReportCompare: proctor compare r.json r.json.
func BenchmarkReportCompare(b *testing.B) {
	benchReportTool(b, 1, func(f []string) []string { return []string{"compare", f[0], f[0]} })
}

// BenchmarkReportMerge: proctor report merge of 10 shard reports.
func BenchmarkReportMerge(b *testing.B) {
	benchReportTool(b, 10, func(f []string) []string { return append([]string{"report", "merge"}, f...) })
}

// BenchmarkReportShow: proctor report show r.json.
func BenchmarkReportShow(b *testing.B) {
	benchReportTool(b, 1, func(f []string) []string { return []string{"report", "show", f[0]} })
}

// BenchmarkReportHTML: proctor report html r.json.
func BenchmarkReportHTML(b *testing.B) {
	benchReportTool(b, 1, func(f []string) []string { return []string{"report", "html", f[0]} })
}

// BenchmarkReportCompareHTML: proctor compare --html p.html r.json r.json.
func BenchmarkReportCompareHTML(b *testing.B) {
	out := filepath.Join(b.TempDir(), "p.html")
	benchReportTool(b, 1, func(f []string) []string { return []string{"compare", "--html", out, f[0], f[0]} })
}
