package similarity

import (
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func TestLocalizationF1(t *testing.T) {
	want := `{"a.go": [[1, 10]], "b.go": [[5, 5]]}`
	tests := []struct {
		name      string
		output    string
		threshold float64
		status    proctor.Status
		score     float64
		why       string
	}{
		{"exact", "a.go:1-10\nb.go:5", 0.5, proctor.StatusPassed, 1, "every file and line cited"},
		// files 1/1 vs 1/2 -> F1 2/3; lines 10/10 vs 10/11 -> F1 20/21.
		{"one file", "a.go:1-10", 0.5, proctor.StatusPassed, (2.0/3 + 20.0/21) / 2, "half the files, most lines"},
		// files F1 1; lines 5 of 5 cited, 5 of 11 expected -> F1 10/16.
		{"right files, some lines", "a.go:1-4 b.go:5", 0.9, proctor.StatusFailed, (1 + 10.0/16) / 2, "right files, wrong lines is not a full match"},
		{"nothing cited fails at 0", "I could not find it.", 0, proctor.StatusFailed, 0, "empty candidates fail even at threshold 0"},
		{"wrong file fails at 0", "c.go:1-3", 0, proctor.StatusFailed, 0, "zero-quality candidates fail even at threshold 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := must(NewLocalizationF1(LocalizationF1Options{Threshold: &tt.threshold}))
			gr := g.Grade(t.Context(), &proctor.Sample{Output: tt.output, Expected: &want})
			if gr.Status != tt.status || math.Abs(gr.Score-tt.score) > 1e-12 {
				t.Errorf("got %v %.6f (%s), want %v %.6f: %s", gr.Status, gr.Score, gr.Reason, tt.status, tt.score, tt.why)
			}
		})
	}
	if gr := must(NewLocalizationF1(LocalizationF1Options{})).Grade(t.Context(), &proctor.Sample{Output: "a.go:1"}); gr.Status != proctor.StatusNotGraded {
		t.Errorf("no expected: got %v, want not_graded", gr.Status)
	}
	bad := "no citations here"
	if gr := must(NewLocalizationF1(LocalizationF1Options{})).Grade(t.Context(), &proctor.Sample{Output: "a.go:1", Expected: &bad}); gr.Status != proctor.StatusNotGraded {
		t.Errorf("unreadable expected: got %v, want not_graded", gr.Status)
	}
	// Files only in the expected locations: the score is the file F1.
	files := `{"a.go": [], "b.go": []}`
	if gr := must(NewLocalizationF1(LocalizationF1Options{})).Grade(t.Context(), &proctor.Sample{Output: "a.go:3", Expected: &files}); math.Abs(gr.Score-2.0/3) > 1e-12 {
		t.Errorf("files only: got %v, want 2/3", gr.Score)
	}
	// Huge ranges are counted, not enumerated.
	huge := "a.go:1-1000000000000"
	if gr := must(NewLocalizationF1(LocalizationF1Options{})).Grade(t.Context(), &proctor.Sample{Output: strings.Repeat(huge+"\n", 3), Expected: &huge}); gr.Status != proctor.StatusPassed {
		t.Errorf("huge range: got %v (%s), want passed", gr.Status, gr.Reason)
	}
}

func FuzzLocalizationF1(f *testing.F) {
	for _, s := range []string{"a.go:1-5", "x/y.py#L3-L9", `{"a.go": [[1,2]]}`, "```json\n{\"a\": [1]}\n```", "a.go:99999999999999999999", ""} {
		f.Add(s)
	}
	want := "a.go:1-10"
	g := must(NewLocalizationF1(LocalizationF1Options{}))
	f.Fuzz(func(t *testing.T, s string) {
		gr := g.Grade(t.Context(), &proctor.Sample{Output: s, Expected: &want})
		if gr.Status != proctor.StatusPassed && gr.Status != proctor.StatusFailed {
			t.Fatalf("%q: status %v, want passed or failed", s, gr.Status)
		}
	})
}
