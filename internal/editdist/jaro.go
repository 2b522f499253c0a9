package editdist

// Jaro returns the Jaro similarity of a and b as rapidfuzz's
// Jaro.normalized_similarity defines it: symbols match when equal and at
// most max(len(a), len(b))/2 - 1 positions apart, each symbol matching at
// most once, scanning a left to right and taking the first free match in
// b; half the matched symbols out of order are transpositions. The result
// is 0 when either sequence is empty (so two empty sequences score 0, as
// in rapidfuzz) and 0 when nothing matches.
func Jaro(a, b []int32) float64 {
	la, lb := len(a), len(b)
	if la == 0 || lb == 0 {
		return 0
	}
	if la == 1 && lb == 1 {
		if a[0] == b[0] {
			return 1
		}
		return 0
	}
	window := max(la, lb)/2 - 1
	var small [256]bool
	var flags []bool
	if la+lb <= len(small) {
		flags = small[:la+lb]
	} else {
		flags = make([]bool, la+lb)
	}
	fa, fb := flags[:la], flags[la:]
	var common int
	if la*(2*window+1) <= 4096 {
		common = jaroMatchScan(a, b, fa, fb, window)
	} else {
		common = jaroMatchIndex(a, b, fa, fb, window)
	}
	if common == 0 {
		return 0
	}
	trans, k := 0, 0
	for i, matched := range fa {
		if !matched {
			continue
		}
		for !fb[k] {
			k++
		}
		if a[i] != b[k] {
			trans++
		}
		k++
	}
	m := float64(common)
	return (m/float64(la) + m/float64(lb) + (m-float64(trans/2))/m) / 3
}

// JaroWinkler returns the Jaro-Winkler similarity of a and b as
// rapidfuzz's JaroWinkler.normalized_similarity defines it: when the Jaro
// similarity exceeds 0.7 it is raised by prefixWeight for each of the first
// (at most four) symbols the sequences share, in proportion to what it
// lacks of 1.
func JaroWinkler(a, b []int32, prefixWeight float64) float64 {
	prefix := 0
	for prefix < min(len(a), len(b), 4) && a[prefix] == b[prefix] {
		prefix++
	}
	sim := Jaro(a, b)
	if sim > 0.7 {
		sim += float64(prefix) * prefixWeight * (1 - sim)
	}
	return sim
}

// Hamming returns the Hamming distance of a and b as rapidfuzz defines it
// (padding the shorter): the positions below the shorter length that
// differ, plus the difference in length.
func Hamming(a, b []int32) int {
	n := min(len(a), len(b))
	d := max(len(a), len(b))
	for i := range n {
		if a[i] == b[i] {
			d--
		}
	}
	return d
}

// jaroMatchScan flags the matching symbols by scanning each window, as the
// definition reads, and returns how many matched.
func jaroMatchScan(a, b []int32, fa, fb []bool, window int) int {
	common := 0
	for i, c := range a {
		lo, hi := max(0, i-window), min(i+window, len(b)-1)
		for j := lo; j <= hi; j++ {
			if !fb[j] && b[j] == c {
				fa[i], fb[j] = true, true
				common++
				break
			}
		}
	}
	return common
}

// jaroMatchIndex flags the same matches as jaroMatchScan in linear time:
// for each symbol it keeps the positions in b still worth trying. The
// first free position of a symbol at or after the window's start is the
// one the scan takes; positions a symbol skips (before the window, which
// only moves right) or takes are never tried again.
func jaroMatchIndex(a, b []int32, fa, fb []bool, window int) int {
	pos := make(map[int32][]int, 64)
	for j, c := range b {
		pos[c] = append(pos[c], j)
	}
	common := 0
	for i, c := range a {
		ps := pos[c]
		lo, hi := i-window, i+window
		for len(ps) > 0 && ps[0] < lo {
			ps = ps[1:]
		}
		if len(ps) > 0 && ps[0] <= hi {
			fa[i], fb[ps[0]] = true, true
			common++
			ps = ps[1:]
		}
		pos[c] = ps
	}
	return common
}
