package proctest

import (
	"context"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// Prose1K returns about 1 KB of ordinary model prose followed by tail:
// the output the per-grader benchmarks grade.
func Prose1K(tail string) string {
	const para = "The request asks for a comparison of the three proposals. Each one trades cost against delivery time, and the second also changes the support terms. Looking at the figures given, the totals differ by a few percent. "
	var b strings.Builder
	for b.Len() < 1024-len(tail) {
		b.WriteString(para)
	}
	return b.String()[:1024-len(tail)] + tail
}

// BenchGrade checks that g grades s as want, then benchmarks grading it,
// with allocations and s's output size reported.
func BenchGrade(b *testing.B, g proctor.Grader, s *proctor.Sample, want proctor.Status) {
	b.Helper()
	ctx := context.Background()
	if got := g.Grade(ctx, s); got.Status != want {
		b.Fatalf("got %v (%s), want %v", got.Status, got.Reason, want)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(s.Output)))
	for b.Loop() {
		g.Grade(ctx, s)
	}
}
