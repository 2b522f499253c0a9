// Package editdist computes edit distances and longest common
// subsequences over sequences of int32 symbols (code points, or token ids)
// with bit-parallel algorithms: Hyyrö's formulation of Myers' algorithm
// for Levenshtein distance and Hyyrö's bit-vector LCS, both with 64-bit
// blocks for long patterns. Time is O(⌈m/64⌉·n) and memory O(m) (the LCS
// table for back-tracking is O(⌈m/64⌉·n)).
package editdist

import (
	"math"
	"math/bits"
	"sync"
)

// peq holds, for each symbol of the pattern, the bit vector of the
// positions where it occurs.
type peq struct {
	words int
	small [256]int32      // symbol < 256 -> row index; 0 means absent
	other map[int32]int32 // other symbols -> row index
	rows  []uint64        // row r is rows[r*words : (r+1)*words]; row 0 is all zeros
	vp    []uint64        // scratch vectors
	vn    []uint64
}

var pool = sync.Pool{New: func() any { return &peq{other: map[int32]int32{}} }}

func newPeq(a []int32) *peq {
	p := pool.Get().(*peq)
	p.words = (len(a) + 63) / 64
	p.rows = p.rows[:0]
	p.rows = append(p.rows, make([]uint64, p.words)...)
	for i, c := range a {
		r := p.row(c)
		if r == 0 {
			r = int32(len(p.rows) / p.words)
			if c >= 0 && c < 256 {
				p.small[c] = r
			} else {
				p.other[c] = r
			}
			p.rows = append(p.rows, make([]uint64, p.words)...)
		}
		p.rows[int(r)*p.words+i/64] |= 1 << (uint(i) % 64)
	}
	return p
}

func (p *peq) release() {
	clear(p.small[:])
	clear(p.other)
	pool.Put(p)
}

func (p *peq) row(c int32) int32 {
	if c >= 0 && c < 256 {
		return p.small[c]
	}
	if len(p.other) == 0 {
		return 0
	}
	return p.other[c]
}

func (p *peq) vec(c int32) []uint64 {
	r := int(p.row(c)) * p.words
	return p.rows[r : r+p.words]
}

func trimAffixes(a, b []int32) ([]int32, []int32) {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	return a, b
}

// Levenshtein returns the edit distance (insertions, deletions and
// substitutions of one symbol, each costing 1) between a and b.
func Levenshtein(a, b []int32) int {
	a, b = trimAffixes(a, b)
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return len(b)
	}
	p := newPeq(a)
	defer p.release()
	m := len(a)
	dist := m
	last := uint64(1) << (uint(m-1) % 64)
	if p.words == 1 {
		vp, vn := ^uint64(0), uint64(0)
		for _, c := range b {
			x := p.rows[p.row(c)]
			d0 := (((x & vp) + vp) ^ vp) | x | vn
			hp := vn | ^(d0 | vp)
			hn := d0 & vp
			if hp&last != 0 {
				dist++
			} else if hn&last != 0 {
				dist--
			}
			hp = hp<<1 | 1
			hn <<= 1
			vp = hn | ^(d0 | hp)
			vn = hp & d0
		}
		return dist
	}
	w := p.words
	p.vp = append(p.vp[:0], make([]uint64, w)...)
	p.vn = append(p.vn[:0], make([]uint64, w)...)
	vps, vns := p.vp, p.vn
	for i := range vps {
		vps[i] = ^uint64(0)
	}
	for _, c := range b {
		row := p.vec(c)
		hpCarry, hnCarry := uint64(1), uint64(0)
		for k := 0; k < w; k++ {
			vp, vn := vps[k], vns[k]
			x := row[k] | hnCarry
			d0 := (((x & vp) + vp) ^ vp) | x | vn
			hp := vn | ^(d0 | vp)
			hn := d0 & vp
			var hpOut, hnOut uint64
			if k < w-1 {
				hpOut, hnOut = hp>>63, hn>>63
			} else {
				if hp&last != 0 {
					hpOut = 1
				}
				if hn&last != 0 {
					hnOut = 1
				}
			}
			hp = hp<<1 | hpCarry
			hn = hn<<1 | hnCarry
			vps[k] = hn | ^(d0 | hp)
			vns[k] = hp & d0
			hpCarry, hnCarry = hpOut, hnOut
		}
		dist += int(hpCarry) - int(hnCarry)
	}
	return dist
}

// LCS returns the length of a longest common subsequence of a and b.
func LCS(a, b []int32) int {
	n0 := len(a)
	a, b = trimAffixes(a, b)
	common := n0 - len(a)
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return common
	}
	p := newPeq(a)
	defer p.release()
	w := p.words
	if w == 1 {
		s := ^uint64(0)
		for _, c := range b {
			u := s & p.rows[p.row(c)]
			s = (s + u) | (s - u)
		}
		return common + zeros(s, len(a))
	}
	p.vp = append(p.vp[:0], make([]uint64, w)...)
	s := p.vp
	for i := range s {
		s[i] = ^uint64(0)
	}
	for _, c := range b {
		row := p.vec(c)
		var carry uint64
		for k := 0; k < w; k++ {
			u := s[k] & row[k]
			var x uint64
			x, carry = bits.Add64(s[k], u, carry)
			s[k] = x | (s[k] - u)
		}
	}
	n := 0
	for k := 0; k < w; k++ {
		n += zeros(s[k], min(64, len(a)-64*k))
	}
	return common + n
}

// zeros counts the zero bits among the low n bits of s.
func zeros(s uint64, n int) int {
	if n < 64 {
		s |= ^uint64(0) << uint(n)
	}
	return 64 - bits.OnesCount64(s)
}

// Indel returns the insertion/deletion distance between a and b:
// len(a) + len(b) - 2·LCS(a, b).
func Indel(a, b []int32) int {
	return len(a) + len(b) - 2*LCS(a, b)
}

// maxTableWords bounds the memory LCSIndices keeps in full columns; past
// it, columns are kept at checkpoints and recomputed segment by segment.
const maxTableWords = 1 << 22

// LCSIndices returns the indices into ref of the longest common subsequence
// of ref and can that rouge-score's _backtrack_norec reads out of the full
// dynamic-programming table: from the end, a match is taken when the
// symbols are equal, otherwise the step goes left (along can) when that
// cell is strictly larger, else up (along ref). The table's columns are
// bit vectors of ⌈len(ref)/64⌉ words; when all of them would take more than
// 32 MiB, only every ⌈√len(can)⌉-th is kept and the others are recomputed,
// at most twice the time.
func LCSIndices(ref, can []int32) []int { return lcsIndices(ref, can, maxTableWords) }

func lcsIndices(ref, can []int32, maxWords int) []int {
	m, n := len(ref), len(can)
	if m == 0 || n == 0 {
		return nil
	}
	p := newPeq(ref)
	defer p.release()
	w := p.words
	// step computes column j+1 (after can[j]) from column j.
	step := func(prev, cur []uint64, j int) {
		row := p.vec(can[j])
		var carry uint64
		for k := 0; k < w; k++ {
			u := prev[k] & row[k]
			var x uint64
			x, carry = bits.Add64(prev[k], u, carry)
			cur[k] = x | (prev[k] - u)
		}
	}
	seg := n + 1 // columns per segment
	if (n+1)*w > maxWords {
		seg = int(math.Sqrt(float64(n))) + 1
	}
	// Checkpoints: column c*seg for every c.
	cps := make([]uint64, ((n/seg)+1)*w)
	buf := make([]uint64, (seg+1)*w) // columns loaded..loaded+seg
	for i := 0; i < w; i++ {
		buf[i] = ^uint64(0)
	}
	col := buf[:w]
	for j := 0; j < n; j++ {
		if j%seg == 0 {
			copy(cps[(j/seg)*w:], col)
		}
		next := buf[((j+1)%seg+1)*w-w : ((j+1)%seg+1)*w]
		if seg == n+1 {
			next = buf[(j+1)*w : (j+2)*w]
		}
		step(col, next, j)
		col = next
	}
	if n%seg == 0 {
		copy(cps[(n/seg)*w:], col)
	}
	loaded := -1 // segment whose columns buf holds, -1 if none
	if seg == n+1 {
		loaded = 0
	}
	column := func(j int) []uint64 {
		s := j / seg
		if s != loaded {
			copy(buf[:w], cps[s*w:(s+1)*w])
			for k := 0; k < seg && s*seg+k < n; k++ {
				step(buf[k*w:(k+1)*w], buf[(k+1)*w:(k+2)*w], s*seg+k)
			}
			loaded = s
		}
		k := j - s*seg
		return buf[k*w : (k+1)*w]
	}
	// t(i, j) = the zero bits of column j among its low i bits.
	t := func(i, j int) int {
		c := column(j)
		z := 0
		for k := 0; 64*k < i; k++ {
			z += zeros(c[k], min(64, i-64*k))
		}
		return z
	}
	var out []int
	i, j := m, n
	for i > 0 && j > 0 {
		switch {
		case ref[i-1] == can[j-1]:
			out = append(out, i-1)
			i--
			j--
		case t(i, j-1) > t(i-1, j):
			j--
		default:
			i--
		}
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}
