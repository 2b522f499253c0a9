package main

import (
	"context"
	"fmt"
	"net/http"
	"regexp"

	"github.com/proctorhq/proctor/similarity"
)

// Working memory a grade takes, charged against --max-inflight while the
// request grades, on top of its body's charge. A spec costs, per byte of
// the largest sample it grades and of the spec itself, the figure of the
// costliest type it names (combinators grade their parts one after
// another, and samples are graded one at a time). The figures are the
// bytes allocated per input byte, rounded up, by the benchmarks that grade
// 1x, 4x and 16x inputs (BenchmarkSimilarityScaling,
// BenchmarkGoCompilesScaling): chrF++'s n-gram tables about 230, bleu's
// 15, go_compiles's tree 20. bleu and chrf compare an output and one
// reference at a time, each at most proctor.MaxNGramText, so their charge
// stops there. Every other type is charged nothing more: the body's own
// charge (bodyCost per byte) covers a copy or two of its text.
var workRates = map[string]workRate{
	"chrf":        {perByte: 256, maxInput: 2 * similarity.MaxNGramText},
	"bleu":        {perByte: 32, maxInput: 2 * similarity.MaxNGramText},
	"go_compiles": {perByte: 32},
}

// workRate is what a grade of one type costs: perByte bytes per input
// byte, counting at most maxInput bytes (0: all of them).
type workRate struct {
	perByte  int64
	maxInput int
}

// cost is what grading input bytes at rate w takes.
func (w workRate) cost(input int) int64 {
	if w.maxInput > 0 {
		input = min(input, w.maxInput)
	}
	return w.perByte * int64(input)
}

// specType matches a type member in a compact spec.
var specType = regexp.MustCompile(`"type":"([a-z_0-9]+)"`)

// specWork returns the rates of the costly types the compact spec key
// names, once each.
func specWork(key string) []workRate {
	var rates []workRate
	seen := map[string]bool{}
	for _, m := range specType.FindAllStringSubmatch(key, -1) {
		if w, ok := workRates[m[1]]; ok && !seen[m[1]] {
			seen[m[1]] = true
			rates = append(rates, w)
		}
	}
	return rates
}

// estimate is the working memory of grading input bytes with cc: the
// costliest of its rates.
func (cc *cachedCheck) estimate(input int) int64 {
	est := int64(0)
	for _, w := range cc.work {
		est = max(est, w.cost(input))
	}
	return est
}

// chargeWork charges what grading input bytes with cc is estimated to take
// (cc.estimate), waiting up to --queue-wait for room. It returns the
// charge to release, or answers 413 (the estimate alone is over
// --max-inflight) or 503 (busy) and returns false.
func (s *server) chargeWork(w http.ResponseWriter, r *http.Request, cc *cachedCheck, input int) (int64, bool) {
	est := cc.estimate(input)
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
