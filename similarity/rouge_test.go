package similarity

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func TestRougeInvalidTypes(t *testing.T) {
	// testInvalidRougeTypes: rougen, rouge0 and rouge10 are errors.
	for _, v := range []string{"rougen", "rouge0", "rouge10", "rougel"} {
		if _, err := NewRouge(RougeOptions{Variant: v}); err == nil {
			t.Errorf("NewRouge(%q): got nil error", v)
		}
	}
}

func TestRougeGrader(t *testing.T) {
	g := must(NewRouge(RougeOptions{Variant: "rouge1", Measure: RougeRecall}))
	s := &proctor.Sample{Output: "testing", References: []string{"totally different", "testing one two"}}
	gr := g.Grade(t.Context(), s)
	// Best reference by F-measure is the second: recall 1/3 < 0.5.
	if gr.Status != proctor.StatusFailed || math.Abs(gr.Score-1.0/3) > 1e-12 {
		t.Errorf("got %v %v, want failed 0.3333", gr.Status, gr.Score)
	}
	if gr := g.Grade(t.Context(), &proctor.Sample{Output: "x"}); gr.Status != proctor.StatusNotGraded {
		t.Errorf("no reference: got %v, want not_graded", gr.Status)
	}
}

// TestRougeLimitStatesPairs: the rougeL pair limit counts tokens: one
// long word against 150,000 tokens is graded, and 150,000 tokens on each
// side are refused with the pair count they make.
func TestRougeLimitStatesPairs(t *testing.T) {
	t.Parallel()
	g := must(NewRouge(RougeOptions{Variant: "rougeL"}))
	many := strings.Repeat("a ", 150_000)
	word := strings.Repeat("a", 300_000)
	if got := g.Grade(context.Background(), &proctor.Sample{Output: word, Expected: &many}); got.Status == proctor.StatusNotGraded {
		t.Errorf("1 token against 150000: not graded (%s), want graded", got.Reason)
	}
	got := g.Grade(context.Background(), &proctor.Sample{Output: many, Expected: &many})
	if got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "(150000 tokens) make 22500000000 token pairs") {
		t.Errorf("150000 tokens each: %v (%s), want not graded stating 22500000000 pairs", got.Status, got.Reason)
	}
}
