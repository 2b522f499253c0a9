package editdist

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// dpLevenshtein and dpLCS are the textbook dynamic programmes the
// bit-parallel versions must agree with.
func dpLevenshtein(a, b []int32) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func dpTable(a, b []int32) [][]int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				t[i][j] = t[i-1][j-1] + 1
			} else {
				t[i][j] = max(t[i-1][j], t[i][j-1])
			}
		}
	}
	return t
}

func dpBacktrack(ref, can []int32) []int {
	t := dpTable(ref, can)
	var out []int
	i, j := len(ref), len(can)
	for i > 0 && j > 0 {
		if ref[i-1] == can[j-1] {
			out = append([]int{i - 1}, out...)
			i--
			j--
		} else if t[i][j-1] > t[i-1][j] {
			j--
		} else {
			i--
		}
	}
	return out
}

func randSeq(r *rand.Rand, n, alpha int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(r.IntN(alpha))
		if r.IntN(10) == 0 {
			s[i] += 1000 // symbols outside the direct table
		}
	}
	return s
}

func TestAgainstDP(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 2, 7, 63, 64, 65, 127, 128, 129, 200, 300}
	for _, n := range sizes {
		for _, m := range sizes {
			for _, alpha := range []int{2, 4, 30} {
				a, b := randSeq(r, n, alpha), randSeq(r, m, alpha)
				tab := dpTable(a, b)
				want := dpBacktrack(a, b)
				// rare: the default table, every symbol kept as positions
				// only, and a mix.
				for _, rare := range []int{-1, n, 2} {
					if got, want := levenshtein(a, b, rare), dpLevenshtein(a, b); got != want {
						t.Fatalf("Levenshtein(len %d, len %d, alphabet %d, rare %d) = %d, want %d", n, m, alpha, rare, got, want)
					}
					if got, want := lcs(a, b, rare), tab[n][m]; got != want {
						t.Fatalf("LCS(len %d, len %d, alphabet %d, rare %d) = %d, want %d", n, m, alpha, rare, got, want)
					}
					for _, limit := range []int{maxTableWords, 1} { // full table, then checkpoints
						got := lcsIndices(a, b, limit, rare)
						if len(got) != len(want) {
							t.Fatalf("LCSIndices(len %d, len %d, limit %d) = %v, want %v", n, m, limit, got, want)
						}
						for i := range got {
							if got[i] != want[i] {
								t.Fatalf("LCSIndices(len %d, len %d, limit %d) = %v, want %v", n, m, limit, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestDistinctSymbolsMemory compares sequences of distinct symbols: a
// table row per symbol would take 20,000 rows of 313 words (50 MB); the
// rare symbols keep positions only, well under 4 MB in all.
func TestDistinctSymbolsMemory(t *testing.T) {
	const n = 20000
	a, b := make([]int32, n), make([]int32, n)
	for i := range a {
		a[i] = int32(0x10000 + i)
		b[i] = int32(0x10000 + (i*7919)%n)
	}
	b[0], b[n-1] = -1, -2 // no common affix to trim
	for _, f := range []struct {
		name string
		run  func()
	}{
		{"Levenshtein", func() { Levenshtein(a, b) }},
		{"LCS", func() { LCS(a, b) }},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f.run()
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
			t.Errorf("%s of %d distinct symbols allocated %d bytes, want under 4 MiB", f.name, n, got)
		}
	}
}

func FuzzLevenshtein(f *testing.F) {
	f.Add("kitten", "sitting")
	f.Add("", "abc")
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := []int32(x), []int32(y)
		if len(a) > 300 || len(b) > 300 {
			return
		}
		if got, want := Levenshtein(a, b), dpLevenshtein(a, b); got != want {
			t.Fatalf("Levenshtein(%q, %q) = %d, want %d", x, y, got, want)
		}
		if got, want := LCS(a, b), dpTable(a, b)[len(a)][len(b)]; got != want {
			t.Fatalf("LCS(%q, %q) = %d, want %d", x, y, got, want)
		}
	})
}
