package bench_test

import (
	"testing"

	"github.com/proctorhq/proctor/internal/race"
	"github.com/proctorhq/proctor/metric"
)

func TestSimilarityAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts differ under -race")
	}
	out, exp := benchPair(200)
	tests := []struct {
		name string
		f    func()
		max  float64
	}{
		{"LevenshteinSimilarity", func() { metric.LevenshteinSimilarity(out, exp) }, 0},
		{"IndelSimilarity", func() { metric.IndelSimilarity(out, exp) }, 0},
		// One copy of each tokenised text plus the references' lengths.
		{"SentenceBLEU", func() { metric.SentenceBLEU(out, []string{exp}) }, 4},
	}
	for _, tt := range tests {
		tt.f() // warm the pools
		if got := testing.AllocsPerRun(50, tt.f); got > tt.max {
			t.Errorf("%s: %v allocs per run, want <= %v", tt.name, got, tt.max)
		}
	}
}
