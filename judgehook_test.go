package proctor

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestGradeCustom(t *testing.T) {
	// A score_model-like grader: the prompt asks for a bare number in
	// [0, 1]; 0.85 or more passes.
	prompt := func(s *Sample, redact func(string) string) (string, string) {
		return "Rate this summary from 0 to 1: " + redact(s.Output), ""
	}
	read := func(reply string) (customReading, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(reply), 64)
		if err != nil {
			return customReading{}, errors.New("not a number")
		}
		v := VerdictFail
		if f >= 0.85 {
			v = VerdictPass
		}
		return customReading{Verdict: v, Confidence: ConfidenceHigh, Score: f, HasScore: true}, nil
	}
	tests := []struct {
		reply string
		want  Status
		calls int
	}{
		{"0.9", StatusPassed, 1},
		{"0.5", StatusFailed, 1},
		{"good", StatusNotGraded, 1},
	}
	for _, tt := range tests {
		j := replies("j", "fam-a", tt.reply)
		jc := judgeConfigOf([]Option{judgePoolOf(j), WithRedactor(RedactBasic)})
		s := judgeSample()
		s.Output = "mail ann@example.com"
		g := jc.gradeCustom(context.Background(), s, SeverityUnset, prompt, read)
		if g.Status != tt.want || j.calls() != tt.calls {
			t.Errorf("reply %q: got %v (%s) with %d calls, want %v with %d", tt.reply, g.Status, g.Reason, j.calls(), tt.want, tt.calls)
		}
		if strings.Contains(j.prompts[0], "ann@example.com") {
			t.Errorf("redactor not applied: %q", j.prompts[0])
		}
	}
}
