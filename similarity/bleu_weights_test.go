package similarity_test

import (
	"context"
	"math"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/similarity"
)

// TestBLEUWeights checks custom n-gram weights against values worked out
// by hand from the clipped counts: reference "the hungry gray dog ate the
// tasty treat", hypothesis with "the" → "a" at position 6: unigrams 7/8,
// bigrams 5/7, trigrams 3/6, 4-grams 2/5, lengths equal (BP 1).
func TestBLEUWeights(t *testing.T) {
	ref := []string{"the hungry gray dog ate the tasty treat"}
	hyp := "the hungry gray dog ate a tasty treat"
	tests := []struct {
		weights []float64
		want    float64
	}{
		{[]float64{1}, 7.0 / 8},
		{[]float64{0.5, 0.5}, math.Sqrt(7.0 / 8 * 5.0 / 7)},
		{[]float64{0, 1}, 5.0 / 7},
		{[]float64{0.25, 0.25, 0.25, 0.25}, math.Pow(7.0/8*5.0/7*3.0/6*2.0/5, 0.25)},
		{[]float64{0.1, 0.2, 0.3, 0.4}, math.Exp(0.1*math.Log(7.0/8) + 0.2*math.Log(5.0/7) + 0.3*math.Log(3.0/6) + 0.4*math.Log(2.0/5))},
	}
	for _, tt := range tests {
		got, err := metric.WeightedSentenceBLEU(hyp, ref, tt.weights)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Score-tt.want) > 1e-12 {
			t.Errorf("weights %v: got %v, want %v", tt.weights, got.Score, tt.want)
		}
	}
	// Uniform weights over four orders equal sacreBLEU's default when the
	// hypothesis is long enough for every order.
	def := metric.SentenceBLEU(hyp, ref)
	if u, _ := metric.WeightedSentenceBLEU(hyp, ref, []float64{0.25, 0.25, 0.25, 0.25}); math.Abs(u.Score-def.Score) > 1e-12 {
		t.Errorf("uniform weights %v != default %v", u.Score, def.Score)
	}
	for _, bad := range [][]float64{{}, {0, 0}, {-1, 1}, {1, 1, 1, 1, 1}, {math.NaN()}} {
		if _, err := metric.WeightedSentenceBLEU(hyp, ref, bad); err == nil {
			t.Errorf("weights %v: want an error", bad)
		}
		if g, err := similarity.NewBLEU(similarity.BLEUOptions{Weights: bad}); err == nil {
			t.Errorf("NewBLEU weights %v: got %v, want an error", bad, g)
		}
	}
	c := proctor.NewCompiler(similarity.Types())
	for spec, wantErr := range map[string]bool{
		`{"type":"bleu","weights":[0.5,0.5],"threshold":0.79}`: false,
		`{"type":"bleu","weights":[]}`:                         true,
		`{"type":"bleu","weights":[1,2,3,4,5]}`:                true,
		`{"type":"bleu","weights":"uniform"}`:                  true,
	} {
		ch, err := c.Compile([]byte(spec))
		if (err != nil) != wantErr {
			t.Errorf("%s: err = %v, want error %v", spec, err, wantErr)
			continue
		}
		if err == nil {
			if got := ch.Grade(context.Background(), &proctor.Sample{Output: hyp, Expected: proctor.Ptr(ref[0])}); got.Status != proctor.StatusPassed {
				t.Errorf("%s: got %v, want passed (0.7906)", spec, got)
			}
		}
	}
}
