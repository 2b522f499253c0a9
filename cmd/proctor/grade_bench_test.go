package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/workload"
)

// loadWorkload returns the benchmark workload (see internal/workload),
// generating it on first use; it fails the benchmark when it cannot.
func loadWorkload(b *testing.B) (data []byte, lines int) {
	b.Helper()
	data = workload.Data(b)
	return data, bytes.Count(data, []byte{'\n'})
}

// BenchmarkGradeWorkload streams the benchmark workload through
// `proctor grade --grader '{"type":"contains","value":"Paris"}'`, in
// process: reading, decoding, grading, encoding and writing every line.
// ns/sample is the figure to compare with promptfoo's in-process contains
// assertion (13,873 ns per grade on the same workload, BENCHMARKS.md).
func BenchmarkGradeWorkload(b *testing.B) {
	data, n := loadWorkload(b)
	args := []string{"grade", "--grader", `{"type":"contains","value":"Paris"}`}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if code := run(context.Background(), args, bytes.NewReader(data), io.Discard, io.Discard); code > exitFailed {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
}

// BenchmarkGradeWorkloadOneWorker is BenchmarkGradeWorkload on one
// goroutine, the cost of a line on one core.
func BenchmarkGradeWorkloadOneWorker(b *testing.B) {
	data, n := loadWorkload(b)
	args := []string{"grade", "--concurrency", "1", "--grader", `{"type":"contains","value":"Paris"}`}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if code := run(context.Background(), args, bytes.NewReader(data), io.Discard, io.Discard); code > exitFailed {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
}

// BenchmarkGradeWorkloadStdlib is the baseline: the same work written the
// obvious way with encoding/json (decode each line into a map, test
// strings.Contains, marshal a result), on one goroutine.
func BenchmarkGradeWorkloadStdlib(b *testing.B) {
	data, n := loadWorkload(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		w := bufio.NewWriter(io.Discard)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				b.Fatal(err)
			}
			out, _ := m["output"].(string)
			st := "failed"
			if strings.Contains(out, "Paris") {
				st = "passed"
			}
			r, _ := json.Marshal(map[string]any{"id": m["id"], "grader": "contains", "status": st, "reason": ""})
			w.Write(r)
			w.WriteByte('\n')
		}
		w.Flush()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
}

// BenchmarkDecodeLine compares the line decoder with encoding/json on the
// workload's lines.
func BenchmarkDecodeLine(b *testing.B) {
	data, _ := loadWorkload(b)
	lines := bytes.Split(bytes.TrimSpace(data), []byte{'\n'})[:2000]
	b.Run("proctor", func(b *testing.B) {
		var d lineDecoder
		var ln line
		i := 0
		for b.Loop() {
			if err := d.decode(lines[i%len(lines)], &ln); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	// json.Valid is the calibration point: it took 3,087 ns per line on
	// the machine the alternatives' figures (README) were measured on.
	b.Run("json.Valid", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if !json.Valid(lines[i%len(lines)]) {
				b.Fatal("invalid")
			}
			i++
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			var ln line
			if err := decodeSlow(lines[i%len(lines)], &ln); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkGradeWorkloadPerLineGrader is BenchmarkGradeWorkload with the
// spec on every line instead of --grader: each line's grader is decoded,
// looked up in the compiled-spec cache (compiled once) and applied.
func BenchmarkGradeWorkloadPerLineGrader(b *testing.B) {
	data, n := loadWorkload(b)
	data = bytes.ReplaceAll(data, []byte("\n{"), []byte("\n{\"grader\":{\"type\":\"contains\",\"value\":\"Paris\"},"))
	data = append([]byte(`{"grader":{"type":"contains","value":"Paris"},`), data[1:]...)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if code := run(context.Background(), []string{"grade"}, bytes.NewReader(data), io.Discard, io.Discard); code > exitFailed {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
}
