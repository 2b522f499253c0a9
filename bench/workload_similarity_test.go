package bench_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/workload"
	"github.com/proctorhq/proctor/similarity"
)

// BenchmarkWorkloadSimilarity grades the benchmark workload's samples with
// the checks internal/workload/checks.json defines, reporting ns per grade
// beside the alternatives' figures (README's Performance table, one core):
//
//	levenshtein  JS direct 476,271   Go floor (bit-parallel) 131,697
//	rouge_l      JS direct 5,558,918 Go floor 124,852
//	rouge_n      promptfoo 230,209   Go floor 58,835
//	bleu         promptfoo 457,459   Go floor 133,756
func BenchmarkWorkloadSimilarity(b *testing.B) {
	checks := []struct {
		check  string
		grader func(threshold float64) proctor.Grader
	}{
		{"levenshtein", func(t float64) proctor.Grader {
			return must(similarity.NewLevenshtein(similarity.EditSimilarityOptions{Threshold: &t}))
		}},
		{"rouge_l", func(t float64) proctor.Grader {
			return must(similarity.NewRouge(similarity.RougeOptions{Variant: "rougeL", Threshold: &t}))
		}},
		{"rouge_n", func(t float64) proctor.Grader {
			return must(similarity.NewRouge(similarity.RougeOptions{Variant: "rouge1", Threshold: &t}))
		}},
		{"bleu", func(t float64) proctor.Grader {
			return must(similarity.NewBLEU(similarity.BLEUOptions{Threshold: &t}))
		}},
	}
	for _, c := range checks {
		b.Run(c.check, func(b *testing.B) {
			w := workload.Load(b, c.check)
			threshold := w.MinScore
			if c.check == "levenshtein" {
				threshold = w.MinSimil
			}
			g := c.grader(threshold)
			samples := make([]proctor.Sample, len(w.SampleSet))
			for i, s := range w.SampleSet {
				samples[i] = proctor.Sample{Output: s.Output, Expected: proctor.Ptr(s.Expected)}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for i := range samples {
					g.Grade(b.Context(), &samples[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(samples)), "ns/grade")
		})
	}
}
