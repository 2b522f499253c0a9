package openaievals

import (
	"context"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

var benchCtx = context.Background()

func sampleOut(out string) *proctor.Sample { return &proctor.Sample{Output: out} }

func BenchmarkStringCheck(b *testing.B) {
	g, err := NewStringCheck(StringOpILike, "%{{item.answer}}%", StringCheckOptions{})
	if err != nil {
		b.Fatal(err)
	}
	s := sampleOut(proctest.Prose1K(" The capital is Paris."))
	s.Item = map[string]any{"answer": "paris"}
	proctest.BenchGrade(b, g, s, proctor.StatusPassed)
}

// BenchmarkStringCheckBare is the primitive: lower-case and contains.
func BenchmarkStringCheckBare(b *testing.B) {
	s := proctest.Prose1K(" The capital is Paris.")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = strings.Contains(strings.ToLower(s), "paris")
	}
}

func BenchmarkStringCheckEq(b *testing.B) {
	g, _ := NewStringCheck(StringOpEq, "{{item.answer}}", StringCheckOptions{})
	s := sampleOut(proctest.Prose1K(""))
	s.Item = map[string]any{"answer": s.Output}
	proctest.BenchGrade(b, g, s, proctor.StatusPassed)
}

// TestStringCheckAllocs pins the allocation promise of string_check's
// passing path: none.
func TestStringCheckAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	eq, _ := NewStringCheck(StringOpEq, "{{item.answer}}", StringCheckOptions{})
	s := sampleOut(proctest.Prose1K(""))
	s.Item = map[string]any{"answer": s.Output}
	if got := testing.AllocsPerRun(20, func() { eq.Grade(benchCtx, s) }); got > 0 {
		t.Errorf("string_check eq: %v allocations per passing grade, want 0", got)
	}
}
