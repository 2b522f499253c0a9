package main

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
)

// Working memory a grade takes, charged against --max-inflight while the
// request grades, on top of its body's charge. A spec costs, per byte of
// the largest sample it grades and of the spec itself, the figure of the
// costliest type it names (combinators grade their parts one after
// another, and samples are graded one at a time). The figures are the
// bytes allocated per input byte, rounded up, by the benchmarks that grade
// 1x, 4x and 16x inputs (BenchmarkSimilarityScaling,
// BenchmarkGoCompilesScaling): chrF++'s n-gram tables about 230, bleu's
// 15, go_compiles's tree 20. Every other type is charged nothing more:
// the body's own charge (bodyCost per byte) covers a copy or two of its
// text.
var workPerByte = map[string]int64{
	"chrf":        256,
	"bleu":        32,
	"go_compiles": 32,
}

// specType matches a type member in a compact spec.
var specType = regexp.MustCompile(`"type":"([a-z_0-9]+)"`)

// specWork returns the working memory per input byte of the compact spec
// key: the largest figure among the types it names.
func specWork(key string) int64 {
	cost := int64(0)
	for _, m := range specType.FindAllStringSubmatch(key, -1) {
		cost = max(cost, workPerByte[m[1]])
	}
	return cost
}

// chargeWork charges what grading input bytes with cc is estimated to take
// (cc.work per byte), waiting up to --queue-wait for room. It returns the
// charge to release, or answers 413 (the estimate alone is over
// --max-inflight) or 503 (busy) and returns false.
func (s *server) chargeWork(w http.ResponseWriter, r *http.Request, cc *cachedCheck, input int) (int64, bool) {
	est := cc.work * int64(input)
	if est == 0 {
		return 0, true
	}
	if est > s.cfg.maxInflight {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("grading this request would take an estimated %d bytes, over the %d allowed (--max-inflight)", est, s.cfg.maxInflight))
		return 0, false
	}
	if s.inflight.TryAcquire(est) {
		return est, true
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.queueWait)
	defer cancel()
	if err := s.inflight.Acquire(ctx, est); err != nil {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("server busy: grading this request would take an estimated %d bytes, and the requests in flight hold the %d allowed (--max-inflight)", est, s.cfg.maxInflight))
		return 0, false
	}
	return est, true
}
