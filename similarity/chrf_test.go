package similarity_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/similarity"
)

func TestChrFSpec(t *testing.T) {
	// The first of the chrF metric card's examples (metric/chrf_test.go).
	s := &proctor.Sample{Output: "The relationship between cats and dogs is not exactly friendly.",
		Expected: proctor.Ptr("The relationship between dogs and cats is not exactly friendly.")}
	runSpecRows(t, s, []specRow{
		{Spec: `{"type":"chrf","threshold":0.8}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"chrf","word_order":2,"threshold":0.99}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"chrf","expected":"zzz","threshold":0.1}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"chrf","char_order":-2}`, WantErr: true},
		{Spec: `{"type":"chrf","word_order":100}`, WantErr: true},
		{Spec: `{"type":"chrf","beta":-1}`, WantErr: true},
		{Spec: `{"type":"chrf","variant":"chrF++"}`, WantErr: true},
	})
	_, err := similarity.NewChrF(similarity.ChrFOptions{ChrFConfig: similarity.ChrFConfig{Beta: -1}})
	var se *metric.ChrFSettingError
	if !errors.As(err, &se) || se.Setting != "beta" || err.Error() != "similarity: chrF beta: want 1..1000, got -1" {
		t.Errorf("NewChrF with beta -1: got %v, want the package's error for beta wrapping a metric.ChrFSettingError", err)
	}
	g, _ := similarity.NewChrF(similarity.ChrFOptions{})
	if got := g.Grade(context.Background(), &proctor.Sample{Output: "x"}); got.Status != proctor.StatusNotGraded {
		t.Errorf("no reference: got %v, want not graded", got)
	}
}

// TestNGramTextLimit: bleu and chrf do not compare an output or a
// reference past proctor.MaxNGramText; at the limit they grade.
func TestNGramTextLimit(t *testing.T) {
	chrf, err := similarity.NewChrF(similarity.ChrFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bleu, err := similarity.NewBLEU(similarity.BLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at, over := strings.Repeat("a b ", similarity.MaxNGramText/4), strings.Repeat("a b ", similarity.MaxNGramText/4)+"c"
	for _, g := range []proctor.Grader{bleu, chrf} {
		for _, tc := range []struct {
			out, ref string
			graded   bool
		}{{at, at, true}, {over, at, false}, {at, over, false}} {
			got := g.Grade(context.Background(), &proctor.Sample{Output: tc.out, Expected: &tc.ref})
			if graded := got.Status != proctor.StatusNotGraded; graded != tc.graded || (!graded && !strings.Contains(got.Reason, "over the limit of 262144")) {
				t.Errorf("%s on %d/%d bytes: %v %q, want graded %v", g.Name(), len(tc.out), len(tc.ref), got.Status, got.Reason, tc.graded)
			}
		}
	}
}
