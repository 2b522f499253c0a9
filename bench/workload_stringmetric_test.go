package bench_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/workload"
)

// BenchmarkWorkloadStringMetrics grades the shared workload's levenshtein
// sample set with the string metrics rapidfuzz and sacreBLEU define,
// reporting ns per grade; levenshtein runs beside them as the yardstick
// whose alternatives' figures BenchmarkWorkloadSimilarity lists.
func BenchmarkWorkloadStringMetrics(b *testing.B) {
	jw, _ := proctor.NewJaroWinkler(proctor.JaroWinklerOptions{})
	chrf, _ := proctor.NewChrF(proctor.ChrFOptions{})
	chrfpp, _ := proctor.NewChrF(proctor.ChrFOptions{ChrFConfig: proctor.ChrFConfig{WordOrder: 2}})
	graders := []struct {
		name string
		g    proctor.Grader
	}{
		{"levenshtein", must(proctor.NewLevenshtein(proctor.EditSimilarityOptions{}))},
		{"jaro", must(proctor.NewJaro(proctor.EditSimilarityOptions{}))},
		{"jaro_winkler", jw},
		{"hamming", must(proctor.NewHamming(proctor.EditSimilarityOptions{}))},
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
