package openaievals

import (
	"context"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// prose1K returns about 1 KB of ordinary model prose followed by tail.
func prose1K(tail string) string {
	const para = "The request asks for a comparison of the three proposals. Each one trades cost against delivery time, and the second also changes the support terms. Looking at the figures given, the totals differ by a few percent. "
	var b strings.Builder
	for b.Len() < 1024-len(tail) {
		b.WriteString(para)
	}
	s := b.String()[:1024-len(tail)]
	return s + tail
}

var benchCtx = context.Background()

func sampleOut(out string) *proctor.Sample { return &proctor.Sample{Output: out} }

func benchGrade(b *testing.B, g proctor.Grader, s *proctor.Sample, want proctor.Status) {
	b.Helper()
	if got := g.Grade(benchCtx, s); got.Status != want {
		b.Fatalf("got %v (%s), want %v", got.Status, got.Reason, want)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(s.Output)))
	for b.Loop() {
		g.Grade(benchCtx, s)
	}
}

func BenchmarkStringCheck(b *testing.B) {
	g, err := NewStringCheck(StringOpILike, "%{{item.answer}}%", StringCheckOptions{})
	if err != nil {
		b.Fatal(err)
	}
	s := sampleOut(prose1K(" The capital is Paris."))
	s.Item = map[string]any{"answer": "paris"}
	benchGrade(b, g, s, proctor.StatusPassed)
}

// BenchmarkStringCheckBare is the primitive: lower-case and contains.
func BenchmarkStringCheckBare(b *testing.B) {
	s := prose1K(" The capital is Paris.")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = strings.Contains(strings.ToLower(s), "paris")
	}
}

func BenchmarkStringCheckEq(b *testing.B) {
	g, _ := NewStringCheck(StringOpEq, "{{item.answer}}", StringCheckOptions{})
	s := sampleOut(prose1K(""))
	s.Item = map[string]any{"answer": s.Output}
	benchGrade(b, g, s, proctor.StatusPassed)
}

// TestStringCheckAllocs pins the allocation promise of string_check's
// passing path: none.
func TestStringCheckAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	eq, _ := NewStringCheck(StringOpEq, "{{item.answer}}", StringCheckOptions{})
	s := sampleOut(prose1K(""))
	s.Item = map[string]any{"answer": s.Output}
	if got := testing.AllocsPerRun(20, func() { eq.Grade(benchCtx, s) }); got > 0 {
		t.Errorf("string_check eq: %v allocations per passing grade, want 0", got)
	}
}
