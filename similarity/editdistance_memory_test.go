package similarity

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// distinctRunes returns n distinct code points from start, in an order
// set by step (coprime with n).
func distinctRunes(n, start, step int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(rune(start + (i*step)%n))
	}
	return b.String()
}

// TestEditSimilarityDistinctMemory grades 20,000 distinct code points on
// each side (about 80 KB each): a pattern table with a row per distinct
// symbol would allocate 50 MB (20,000 rows of 313 words); it must stay
// within a few megabytes.
func TestEditSimilarityDistinctMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("grades 4·10^8 code-point pairs")
	}
	const n = 20_000
	out, ref := distinctRunes(n, 0x4E00, 1), distinctRunes(n, 0x4E00, 7919)
	for _, g := range []*EditSimilarity{must(NewLevenshtein(EditSimilarityOptions{})), must(NewFuzzyMatch(EditSimilarityOptions{}))} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res := g.Grade(context.Background(), &proctor.Sample{Output: out, Expected: &ref})
		runtime.ReadMemStats(&after)
		if res.Status == proctor.StatusNotGraded {
			t.Fatalf("%s: not graded: %s", g.Name(), res.Reason)
		}
		t.Logf("%s: %d bytes allocated", g.Name(), after.TotalAlloc-before.TotalAlloc)
		if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
			t.Errorf("%s of %d distinct code points allocated %d bytes, want under 4 MiB", g.Name(), n, got)
		}
	}
}
