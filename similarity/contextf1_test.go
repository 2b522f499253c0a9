package similarity_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

func TestContextF1(t *testing.T) {
	tests := []struct {
		name   string
		opts   similarity.ContextF1Options
		sample proctor.Sample
		want   proctor.Status
		p, r   float64
		why    string
	}{
		{"contract text", similarity.ContextF1Options{Threshold: proctor.Ptr(0.6)},
			proctor.Sample{Context: []string{"Paris is in France.", "Lyon is big."}, References: []string{"paris is in  france.", "Nice is sunny."}},
			proctor.StatusFailed, 0.5, 0.5, "SPEC's example: F1 0.5 below 0.6"},
		{"contract ids", similarity.ContextF1Options{Threshold: proctor.Ptr(0.5)},
			proctor.Sample{ContextIDs: []string{"d1", "d2"}, ReferenceIDs: []string{"d1", "d2"}},
			proctor.StatusPassed, 1, 1, "same ids"},
		{"default threshold 0.5 passes at 0.5", similarity.ContextF1Options{},
			proctor.Sample{Context: []string{"a", "b"}, References: []string{"a", "c"}},
			proctor.StatusPassed, 0.5, 0.5, "the default threshold is 0.5, inclusive"},
		{"ids ignore retrieved texts", similarity.ContextF1Options{ExpectedIDs: []string{"x"}},
			proctor.Sample{Context: []string{"some text"}, ContextIDs: []string{"x"}},
			proctor.StatusPassed, 1, 1, "expected ids compare with retrieved ids only"},
		{"nothing retrieved fails at threshold 0", similarity.ContextF1Options{Threshold: proctor.Ptr(0.0)},
			proctor.Sample{References: []string{"a"}},
			proctor.StatusFailed, 0, 0, "empty retrieval is never a pass"},
		{"no relevant items", similarity.ContextF1Options{},
			proctor.Sample{Context: []string{"a"}},
			proctor.StatusNotGraded, 0, 0, "nothing to compare with"},
		{"mixed ids and texts", similarity.ContextF1Options{Expected: []string{"Alpha"}, ExpectedIDs: []string{"7"}},
			proctor.Sample{Context: []string{"alpha", "beta"}, ContextIDs: []string{"7"}},
			proctor.StatusPassed, 2.0 / 3, 1, "both kinds scored when both are expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := similarity.NewContextF1(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := g.Grade(context.Background(), &tt.sample)
			if got.Status != tt.want {
				t.Errorf("status = %v (%s), want %v (%s)", got.Status, got.Reason, tt.want, tt.why)
			}
			if tt.want == proctor.StatusNotGraded {
				return
			}
			ev, ok := got.Evidence.(similarity.ContextF1Evidence)
			if !ok {
				t.Fatalf("evidence is %T, want ContextF1Evidence", got.Evidence)
			}
			if math.Abs(ev.Precision-tt.p) > 1e-9 || math.Abs(ev.Recall-tt.r) > 1e-9 {
				t.Errorf("P, R = %v, %v, want %v, %v (%s)", ev.Precision, ev.Recall, tt.p, tt.r, tt.why)
			}
			wantF1 := 0.0
			if tt.p+tt.r > 0 {
				wantF1 = 2 * tt.p * tt.r / (tt.p + tt.r)
			}
			if math.Abs(ev.F1-wantF1) > 1e-9 || math.Abs(got.Score-wantF1) > 1e-9 {
				t.Errorf("F1 = %v, score = %v, want %v", ev.F1, got.Score, wantF1)
			}
		})
	}
}

func TestContextF1SpecErrors(t *testing.T) {
	comp := proctor.NewCompiler(similarity.Types())
	for _, spec := range []string{
		`{"type":"context_f1","measure":"f2"}`,
		`{"type":"context_f1","threshold":1.5}`,
		`{"type":"context_f1","expected_contexts":"x"}`,
		`{"type":"context_f1","expected_contexts":[]}`,
		`{"type":"context_f1","expected_contexts":[{"name":"x"}]}`,
		`{"type":"context_f1","k":3}`,
	} {
		_, err := comp.Compile([]byte(spec))
		var se *proctor.SpecError
		if !errors.As(err, &se) {
			t.Errorf("Compile(%s) error = %v, want a *SpecError", spec, err)
		}
	}
}

func BenchmarkContextF1(b *testing.B) {
	g, err := similarity.NewContextF1(similarity.ContextF1Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := &proctor.Sample{Context: []string{"Paris is in France.", "Lyon is big.", "x y z"}, References: []string{"paris is in  france.", "Nice is sunny."}}
	ctx := context.Background()
	for b.Loop() {
		g.Grade(ctx, s)
	}
}
