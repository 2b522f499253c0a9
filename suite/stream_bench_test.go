package suite_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/suite"
)

// writeJSONL writes a .jsonl suite of n cases (a quarter failing) and a
// grader file, and returns the suite's path.
func writeJSONL(b *testing.B, n int) string {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		out := "Paris is the capital of France."
		if i%4 == 3 {
			out = "Lyon, probably."
		}
		fmt.Fprintf(w, `{"id":"case-%07d","input":"What is the capital of France? (%d)","expected":"Paris","outputs":[%q],"checks":[{"type":"contains","value":"Paris"}]}`+"\n", i, i, out)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	os.WriteFile(filepath.Join(dir, "graders.json"), []byte(`[{"type":"not_contains","value":"As an AI"}]`), 0o644)
	return path
}

// peakHeap samples the live heap every few milliseconds until stop is
// called and returns the largest value seen.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapAlloc > peak.Load() {
			peak.Store(m.HeapAlloc)
		}
	}
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		sample()
		return peak.Load()
	}
}

// BenchmarkStreamJSONL loads, grades and reports a .jsonl suite as proctor
// run does (JSON report written case by case, summary kept bounded) and
// reports the peak live heap: it must not grow with the suite's length.
func BenchmarkStreamJSONL(b *testing.B) {
	for _, n := range []int{20_000, 200_000} {
		b.Run(fmt.Sprintf("cases=%d", n), func(b *testing.B) {
			path := writeJSONL(b, n)
			var peak uint64
			for b.Loop() {
				runtime.GC()
				stop := peakHeap()
				s, err := suite.Load(path, suite.Options{GraderFile: filepath.Join(filepath.Dir(path), "graders.json")})
				if err != nil {
					b.Fatal(err)
				}
				r := proctor.NewRunner(s.RunnerOptions()...)
				sum := reportfmt.NewSummary(s.Name)
				j := reportfmt.NewJSON(io.Discard, s.Name, reportfmt.JSONOptions{})
				got, err := suite.Run(context.Background(), r, s.Cases(), 4, func(c proctor.CaseResult) error {
					sum.Add(c)
					return j.Add(c)
				})
				if err != nil || got != n {
					b.Fatalf("Run = %d, %v", got, err)
				}
				if err := j.Finish(sum); err != nil {
					b.Fatal(err)
				}
				s.Close()
				peak = max(peak, stop())
				if sum.Totals.Failed != n/4 {
					b.Fatalf("totals %+v", sum.Totals)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(n), "cases/op")
			if peak > 64<<20 {
				b.Errorf("peak heap %.1f MB over the 64 MB budget for %d cases", float64(peak)/(1<<20), n)
			}
		})
	}
}

// BenchmarkRunCase is the bare primitive the stream adds to: one recorded
// case graded by Runner.RunCase.
func BenchmarkRunCase(b *testing.B) {
	g, _ := proctor.NewContains([]string{"Paris"}, proctor.ContainsOptions{})
	r := proctor.NewRunner()
	c := proctor.Case{ID: "c", Outputs: []proctor.Sample{{Output: "Paris is the capital of France."}}, Checks: []proctor.Check{{Grader: g}}}
	ctx := context.Background()
	for b.Loop() {
		r.RunCase(ctx, &c)
	}
}

// BenchmarkRun is suite.Run over 1000 in-memory cases per op, beside
// BenchmarkRunCase: what the in-order emitter adds per case.
func BenchmarkRun(b *testing.B) {
	g, _ := proctor.NewContains([]string{"Paris"}, proctor.ContainsOptions{})
	r := proctor.NewRunner()
	cases := make([]proctor.Case, 1000)
	for i := range cases {
		cases[i] = proctor.Case{ID: fmt.Sprint(i), Outputs: []proctor.Sample{{Output: "Paris is the capital of France."}}, Checks: []proctor.Check{{Grader: g}}}
	}
	seq := func(yield func(proctor.Case, error) bool) {
		for _, c := range cases {
			if !yield(c, nil) {
				return
			}
		}
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := suite.Run(ctx, r, seq, 4, func(proctor.CaseResult) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}
