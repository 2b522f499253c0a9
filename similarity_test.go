package proctor

import (
	"strings"
	"testing"
)

func TestEditSimilarityTooLong(t *testing.T) {
	huge := strings.Repeat("x", 1<<18)
	gr := NewLevenshtein(EditSimilarityOptions{References: []string{huge}}).Grade(t.Context(), &Sample{Output: huge})
	if gr.Status != StatusNotGraded {
		t.Errorf("2^36 code-point pairs: got %v, want not_graded", gr.Status)
	}
}
