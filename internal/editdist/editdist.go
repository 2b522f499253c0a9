// Package editdist computes edit distances and longest common
// subsequences over sequences of int32 symbols (code points, or token ids)
// with bit-parallel algorithms: Hyyrö's formulation of Myers' algorithm
// for Levenshtein distance and Hyyrö's bit-vector LCS, both with 64-bit
// blocks for long patterns. Time is O(⌈m/64⌉·n) and memory O(m) words
// whatever the alphabet (the LCS table for back-tracking is
// O(⌈m/64⌉·n)).
package editdist

import (
	"math"
	"math/bits"
	"sync"
)

// peq holds, for each symbol of the pattern, the bit vector of the
// positions where it occurs. A symbol that occurs often has its vector
// stored (a dense row); a rare one keeps only its positions and its vector
// is built in a scratch row when asked for. With ⌈m/64⌉ = w words a row,
// a symbol is rare when it occurs at most w/8 times, so at most 512 symbols
// (m occurrences over more than m/512 each) are dense: the table takes at
// most 512·w + 2·m words however many distinct symbols the pattern holds,
// where a row for every distinct symbol would take w words each, gigabytes
// for 100,000 distinct code points. Building a rare symbol's row costs at
// most w/8 bit operations against the w of a step, so time stays
// O(⌈m/64⌉·n).
type peq struct {
	words int
	small [256]int32      // symbol < 256 -> id; 0 means absent
	other map[int32]int32 // other symbols -> id
	rows  []uint64        // dense row r is rows[r*words : (r+1)*words]; row 0 is all zeros
	// Per id (index 0 unused): the dense row, or 0 for a rare symbol
	// whose positions are pos[start[id]:start[id+1]].
	dense []int32
	start []int32
	pos   []int32
	count []int32
	// scratch holds the last rare symbol's row; last are its positions,
	// cleared before the next one is built.
	scratch []uint64
	last    []int32
	vp      []uint64 // scratch vectors
	vn      []uint64
}

var pool = sync.Pool{New: func() any { return &peq{other: map[int32]int32{}} }}

// maxPooledWords is the largest table kept for reuse; bigger ones are left
// to the garbage collector, so one long comparison does not pin its memory.
const maxPooledWords = 1 << 18

// newPeq builds the table for a. Symbols occurring more than rare times
// get a dense row; rare < 0 means w/8.
func newPeq(a []int32, rare int) *peq {
	p := pool.Get().(*peq)
	w := (len(a) + 63) / 64
	p.words = w
	if rare < 0 || w == 1 {
		rare = w / 8 // 0 for one word: every symbol dense
	}
	// Ids in order of first occurrence, and counts.
	p.count = append(p.count[:0], 0)
	for _, c := range a {
		id := p.id(c)
		if id == 0 {
			id = int32(len(p.count))
			if c >= 0 && c < 256 {
				p.small[c] = id
			} else {
				p.other[c] = id
			}
			p.count = append(p.count, 0)
		}
		p.count[id]++
	}
	ids := len(p.count)
	p.dense = append(p.dense[:0], make([]int32, ids)...)
	p.start = append(p.start[:0], make([]int32, ids+1)...)
	nrows := 1
	for id := 1; id < ids; id++ {
		p.start[id+1] = p.start[id]
		if int(p.count[id]) > rare {
			p.dense[id] = int32(nrows)
			nrows++
		} else {
			p.start[id+1] += p.count[id]
		}
	}
	p.rows = append(p.rows[:0], make([]uint64, nrows*w)...)
	p.pos = append(p.pos[:0], make([]int32, p.start[ids])...)
	fill := p.count // reused as the next free slot of each rare symbol
	for id := 1; id < ids; id++ {
		fill[id] = p.start[id]
	}
	for i, c := range a {
		id := p.id(c)
		if r := p.dense[id]; r != 0 {
			p.rows[int(r)*w+i/64] |= 1 << (uint(i) % 64)
		} else {
			p.pos[fill[id]] = int32(i)
			fill[id]++
		}
	}
	if len(p.pos) > 0 {
		p.scratch = append(p.scratch[:0], make([]uint64, w)...)
	}
	p.last = nil
	return p
}

func (p *peq) release() {
	clear(p.small[:])
	clear(p.other)
	if cap(p.rows)+cap(p.scratch)+cap(p.vp)+cap(p.vn) > maxPooledWords || cap(p.pos) > 2*maxPooledWords {
		return
	}
	pool.Put(p)
}

func (p *peq) id(c int32) int32 {
	if c >= 0 && c < 256 {
		return p.small[c]
	}
	if len(p.other) == 0 {
		return 0
	}
	return p.other[c]
}

// row returns the dense row index of c (0 for an absent symbol). Only for
// one-word patterns, where every symbol is dense.
func (p *peq) row(c int32) int32 { return p.dense[p.id(c)] }

// vec returns c's bit vector, valid until the next call.
func (p *peq) vec(c int32) []uint64 {
	w := p.words
	id := p.id(c)
	if r := int(p.dense[id]); r != 0 || id == 0 {
		return p.rows[r*w : r*w+w]
	}
	for _, i := range p.last {
		p.scratch[i/64] = 0
	}
	p.last = p.pos[p.start[id]:p.start[id+1]]
	for _, i := range p.last {
		p.scratch[i/64] |= 1 << (uint(i) % 64)
	}
	return p.scratch
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
func Levenshtein(a, b []int32) int { return levenshtein(a, b, -1) }

// levenshtein is Levenshtein with the rare-symbol bound of newPeq.
func levenshtein(a, b []int32, rare int) int {
	a, b = trimAffixes(a, b)
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return len(b)
	}
	p := newPeq(a, rare)
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
func LCS(a, b []int32) int { return lcs(a, b, -1) }

// lcs is LCS with the rare-symbol bound of newPeq.
func lcs(a, b []int32, rare int) int {
	n0 := len(a)
	a, b = trimAffixes(a, b)
	common := n0 - len(a)
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return common
	}
	p := newPeq(a, rare)
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
func LCSIndices(ref, can []int32) []int { return lcsIndices(ref, can, maxTableWords, -1) }

func lcsIndices(ref, can []int32, maxWords, rare int) []int {
	m, n := len(ref), len(can)
	if m == 0 || n == 0 {
		return nil
	}
	p := newPeq(ref, rare)
	defer p.release()
	t := newLCSTable(p, can, maxWords)
	var out []int
	i, j := m, n
	for i > 0 && j > 0 {
		switch {
		case ref[i-1] == can[j-1]:
			out = append(out, i-1)
			i--
			j--
		case t.zeros(i, j-1) > t.zeros(i-1, j):
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

// lcsTable is the dynamic-programming table of an LCS as bit-vector
// columns of w words, one per prefix of can: all of them, or (seg <= n)
// a checkpoint every seg columns from which a segment is recomputed when
// a column in it is asked for.
type lcsTable struct {
	p      *peq
	can    []int32
	w, seg int
	cps    []uint64 // column c*seg for every c
	buf    []uint64 // columns of segment loaded: loaded*seg..loaded*seg+seg
	loaded int      // -1 if none
}

// newLCSTable computes the table of p's symbols against can, keeping
// every column when they fit in maxWords words.
func newLCSTable(p *peq, can []int32, maxWords int) lcsTable {
	n, w := len(can), p.words
	t := lcsTable{p: p, can: can, w: w, seg: n + 1, loaded: -1}
	if (n+1)*w > maxWords {
		t.seg = int(math.Sqrt(float64(n))) + 1
	}
	seg := t.seg
	t.cps = make([]uint64, ((n/seg)+1)*w)
	t.buf = make([]uint64, (seg+1)*w)
	for i := 0; i < w; i++ {
		t.buf[i] = ^uint64(0)
	}
	col := t.buf[:w]
	for j := 0; j < n; j++ {
		if j%seg == 0 {
			copy(t.cps[(j/seg)*w:], col)
		}
		next := t.buf[((j+1)%seg+1)*w-w : ((j+1)%seg+1)*w]
		if seg == n+1 {
			next = t.buf[(j+1)*w : (j+2)*w]
		}
		t.step(col, next, j)
		col = next
	}
	if n%seg == 0 {
		copy(t.cps[(n/seg)*w:], col)
	}
	if seg == n+1 {
		t.loaded = 0
	}
	return t
}

// step computes column j+1 (after can[j]) from column j.
func (t *lcsTable) step(prev, cur []uint64, j int) {
	row := t.p.vec(t.can[j])
	var carry uint64
	for k := 0; k < t.w; k++ {
		u := prev[k] & row[k]
		var x uint64
		x, carry = bits.Add64(prev[k], u, carry)
		cur[k] = x | (prev[k] - u)
	}
}

// column returns column j, recomputing its segment from its checkpoint
// when buf holds another.
func (t *lcsTable) column(j int) []uint64 {
	w, seg := t.w, t.seg
	s := j / seg
	if s != t.loaded {
		copy(t.buf[:w], t.cps[s*w:(s+1)*w])
		for k := 0; k < seg && s*seg+k < len(t.can); k++ {
			t.step(t.buf[k*w:(k+1)*w], t.buf[(k+1)*w:(k+2)*w], s*seg+k)
		}
		t.loaded = s
	}
	k := j - s*seg
	return t.buf[k*w : (k+1)*w]
}

// zeros counts the zero bits of column j among its low i bits.
func (t *lcsTable) zeros(i, j int) int {
	c := t.column(j)
	z := 0
	for k := 0; 64*k < i; k++ {
		z += zeros(c[k], min(64, i-64*k))
	}
	return z
}
