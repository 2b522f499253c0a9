package suite

import (
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"
)

// Shard selects one deterministic slice of a suite's cases: shard I of N
// (1-based) holds the cases whose id hashes (FNV-1a, 64 bits) to I-1 modulo
// N. The zero Shard selects every case.
type Shard struct {
	I, N int
}

// ParseShard parses "I/N" with 1 <= I <= N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 1 <= I <= N, such as 2/4", s)
	}
	return Shard{I: i, N: n}, nil
}

// Holds reports whether the shard holds the case with this id.
func (s Shard) Holds(id string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	io.WriteString(h, id)
	return h.Sum64()%uint64(s.N) == uint64(s.I-1)
}
