package editdist

import (
	"math/rand/v2"
	"testing"
)

// TestJaroMatchIndexAgreesWithScan checks the linear matcher against the
// window scan on random sequences over small alphabets (many repeats).
func TestJaroMatchIndexAgreesWithScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		a, b := randSeq(r, r.IntN(80), 1+r.IntN(4)), randSeq(r, r.IntN(80), 1+r.IntN(4))
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		w := max(0, max(len(a), len(b))/2-1)
		fa1, fb1 := make([]bool, len(a)), make([]bool, len(b))
		fa2, fb2 := make([]bool, len(a)), make([]bool, len(b))
		n1 := jaroMatchScan(a, b, fa1, fb1, w)
		n2 := jaroMatchIndex(a, b, fa2, fb2, w)
		if n1 != n2 {
			t.Fatalf("trial %d: %d matches by scan, %d by index", trial, n1, n2)
		}
		for i := range fa1 {
			if fa1[i] != fa2[i] {
				t.Fatalf("trial %d: a[%d] flagged %v by scan, %v by index", trial, i, fa1[i], fa2[i])
			}
		}
		for j := range fb1 {
			if fb1[j] != fb2[j] {
				t.Fatalf("trial %d: b[%d] flagged %v by scan, %v by index", trial, j, fb1[j], fb2[j])
			}
		}
	}
}
