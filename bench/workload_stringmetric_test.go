package bench_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/workload"
	"github.com/proctorhq/proctor/similarity"
)

// BenchmarkWorkloadStringMetrics grades the shared workload's levenshtein
// sample set with the string metrics rapidfuzz and sacreBLEU define,
// reporting ns per grade; levenshtein runs beside them as the yardstick
// whose alternatives' figures BenchmarkWorkloadSimilarity lists.
func BenchmarkWorkloadStringMetrics(b *testing.B) {
	jw, _ := similarity.NewJaroWinkler(similarity.JaroWinklerOptions{})
	chrf, _ := similarity.NewChrF(similarity.ChrFOptions{})
	chrfpp, _ := similarity.NewChrF(similarity.ChrFOptions{ChrFConfig: similarity.ChrFConfig{WordOrder: 2}})
	graders := []struct {
		name string
		g    proctor.Grader
	}{
		{"levenshtein", must(similarity.NewLevenshtein(similarity.EditSimilarityOptions{}))},
		{"jaro", must(similarity.NewJaro(similarity.EditSimilarityOptions{}))},
		{"jaro_winkler", jw},
		{"hamming", must(similarity.NewHamming(similarity.EditSimilarityOptions{}))},
		{"chrf", chrf},
		{"chrf++", chrfpp},
	}
	w := workload.Load(b, "levenshtein")
	samples := make([]proctor.Sample, len(w.SampleSet))
	for i, s := range w.SampleSet {
		samples[i] = proctor.Sample{Output: s.Output, Expected: proctor.Ptr(s.Expected)}
	}
	for _, c := range graders {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range samples {
					c.g.Grade(b.Context(), &samples[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(samples)), "ns/grade")
		})
	}
}
