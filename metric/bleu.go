package metric

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/proctorhq/proctor/internal/ngram"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// bleuMaxOrder is sacreBLEU's default maximum n-gram order.
const bleuMaxOrder = 4

// BLEUScore is a BLEU score with the statistics it was computed from, as
// sacreBLEU's BLEUScore holds them. Score and Precisions are on a 0-1
// scale (sacreBLEU's divided by 100).
type BLEUScore struct {
	// Score is BLEU in [0, 1].
	Score float64 `json:"score"`
	// Counts are the clipped n-gram matches, for n = 1..4.
	Counts [bleuMaxOrder]int `json:"counts"`
	// Totals are the hypothesis n-grams, for n = 1..4.
	Totals [bleuMaxOrder]int `json:"totals"`
	// Precisions are the (smoothed) n-gram precisions, for n = 1..4.
	Precisions [bleuMaxOrder]float64 `json:"precisions"`
	// BP is the brevity penalty.
	BP float64 `json:"bp"`
	// SysLen and RefLen are the hypothesis length and the closest
	// reference length, in tokens (summed over a corpus).
	SysLen int `json:"sys_len"`
	RefLen int `json:"ref_len"`
}

// bleuSmooth is one of sacreBLEU's smoothing methods.
type bleuSmooth uint8

const (
	smoothExp bleuSmooth = iota
	smoothNone
	smoothFloor
	smoothAddK
)

// bleuConfig is the subset of sacreBLEU's BLEU arguments this package
// reproduces; the zero value is sacreBLEU's default except for
// effectiveOrder, which sentence_bleu turns on.
type bleuConfig struct {
	smooth         bleuSmooth
	smoothValue    *float64 // nil: sacreBLEU's default for the method (floor 0.1, add-k 1)
	noTokenize     bool     // tokenize='none' instead of '13a'
	lowercase      bool
	effectiveOrder bool
	weights        []float64 // nil: uniform over the (effective) orders
}

// bleuStats are one segment's (or a corpus's) sufficient statistics.
type bleuStats struct {
	sysLen, refLen int
	correct, total [bleuMaxOrder]int
}

func (s *bleuStats) add(o bleuStats) {
	s.sysLen += o.sysLen
	s.refLen += o.refLen
	for i := range s.correct {
		s.correct[i] += o.correct[i]
		s.total[i] += o.total[i]
	}
}

// SentenceBLEU returns hyp's BLEU against refs exactly as sacreBLEU's
// sentence_bleu computes it by default: 13a tokenisation, case kept,
// n-grams up to 4 clipped by their maximum count in any reference, the
// brevity penalty from the closest reference length (the shorter on a
// tie), exponential smoothing and effective order. With no references the
// score is 0.
func SentenceBLEU(hyp string, refs []string) BLEUScore {
	c := bleuConfig{effectiveOrder: true}
	return c.score(c.segment(hyp, refs))
}

// CorpusBLEU returns the BLEU of a corpus exactly as sacreBLEU's
// corpus_bleu computes it by default (13a, exponential smoothing, no
// effective order): statistics are summed over the segments before the
// score is taken. refs[i] holds the references of hyps[i] (sacreBLEU takes
// them transposed, as reference streams). It returns an error when the
// lengths differ.
func CorpusBLEU(hyps []string, refs [][]string) (BLEUScore, error) {
	return bleuConfig{}.corpus(hyps, refs)
}

func (c bleuConfig) corpus(hyps []string, refs [][]string) (BLEUScore, error) {
	if len(hyps) != len(refs) {
		return BLEUScore{}, errors.New("metric: CorpusBLEU needs one list of references per hypothesis")
	}
	var sum bleuStats
	for i, h := range hyps {
		sum.add(c.segment(h, refs[i]))
	}
	return c.score(sum), nil
}

// myLog is sacreBLEU's my_log: log, with log(0) taken as -9999999999.
func myLog(x float64) float64 {
	if x == 0 {
		return -9999999999
	}
	return math.Log(x)
}

// score is sacreBLEU's BLEU.compute_bleu.
func (c bleuConfig) score(st bleuStats) BLEUScore {
	out := BLEUScore{SysLen: st.sysLen, RefLen: st.refLen, Counts: st.correct, Totals: st.total}
	bp := 1.0
	if st.sysLen < st.refLen {
		bp = 0
		if st.sysLen > 0 {
			bp = math.Exp(1 - float64(st.refLen)/float64(st.sysLen))
		}
	}
	out.BP = bp
	any := false
	for _, n := range st.correct {
		any = any || n != 0
	}
	if !any {
		return out
	}
	value := 0.0
	switch {
	case c.smoothValue != nil:
		value = *c.smoothValue
	case c.smooth == smoothFloor:
		value = 0.1
	case c.smooth == smoothAddK:
		value = 1
	}
	var prec [bleuMaxOrder]float64
	mteval := 1.0
	eff := bleuMaxOrder
	for n := 1; n <= bleuMaxOrder; n++ {
		correct, total := float64(st.correct[n-1]), float64(st.total[n-1])
		if c.smooth == smoothAddK && n > 1 {
			correct += value
			total += value
		}
		if total == 0 {
			break
		}
		if c.effectiveOrder {
			eff = n
		}
		if correct == 0 {
			switch c.smooth {
			case smoothExp:
				mteval *= 2
				prec[n-1] = 100 / (mteval * total)
			case smoothFloor:
				prec[n-1] = 100 * value / total
			}
		} else {
			prec[n-1] = 100 * correct / total
		}
	}
	if c.weights != nil {
		// Weighted geometric mean on the 0-1 scale: exp(Σ w_n·log p_n),
		// orders of weight 0 left out, as NLTK's sentence_bleu weights do.
		sum := 0.0
		for i, w := range c.weights {
			if w != 0 {
				sum += w * myLog(prec[i]/100)
			}
		}
		out.Score = bp * math.Exp(sum)
	} else {
		sum := 0.0
		for _, p := range prec[:eff] {
			sum += myLog(p)
		}
		out.Score = bp * math.Exp(sum/float64(eff)) / 100
	}
	for i, p := range prec {
		out.Precisions[i] = p / 100
	}
	return out
}

// bleuScratch holds the buffers of one segment's computation.
type bleuScratch struct {
	tab           *ngram.Table
	buf, tmp      []byte
	toks          []string
	ids           []int32
	occ           []int64 // order<<32 | id of each n-gram occurrence
	cnt, max, hyp []int32
}

var bleuPool = sync.Pool{New: func() any { return new(bleuScratch) }}

// tokens returns the token ids of s under c's tokeniser.
func (sc *bleuScratch) tokens(c bleuConfig, s string) []int32 {
	if c.lowercase {
		s = tokenize.Lower(s)
	}
	if c.noTokenize {
		sc.toks = tokenize.Fields(sc.toks[:0], s)
	} else {
		sc.buf, sc.tmp = tokenize.Tok13a(sc.buf, sc.tmp, s)
		// One copy per text: the interned token strings share it.
		sc.toks = tokenize.Fields(sc.toks[:0], string(sc.buf))
	}
	sc.ids = sc.tab.Tokens(sc.ids[:0], sc.toks)
	return sc.ids
}

// occurrences records the n-gram occurrences (orders minN..maxN) of ids.
func (sc *bleuScratch) occurrences(ids []int32, minN, maxN int) []int64 {
	sc.occ = sc.occ[:0]
	sc.tab.Each(ids, minN, maxN, func(n int, id int32) {
		sc.occ = append(sc.occ, int64(n)<<32|int64(id))
	})
	return sc.occ
}

func growTo(s []int32, n int) []int32 {
	if n <= len(s) {
		return s
	}
	return append(s, make([]int32, n-len(s))...)
}

// segment returns sacreBLEU's statistics for one hypothesis.
func (c bleuConfig) segment(hyp string, refs []string) bleuStats {
	sc := bleuPool.Get().(*bleuScratch)
	sc.tab = ngram.Get()
	defer func() {
		clear(sc.max)
		clear(sc.hyp)
		ngram.Put(sc.tab)
		sc.tab = nil
		bleuPool.Put(sc)
	}()
	var st bleuStats
	refLens := make([]int, 0, 4)
	for _, r := range refs {
		ids := sc.tokens(c, r)
		refLens = append(refLens, len(ids))
		occ := sc.occurrences(ids, 1, bleuMaxOrder)
		n := sc.tab.Len()
		sc.cnt, sc.max = growTo(sc.cnt, n), growTo(sc.max, n)
		for _, o := range occ {
			sc.cnt[int32(o)]++
		}
		for _, o := range occ {
			id := int32(o)
			if k := sc.cnt[id]; k > 0 {
				sc.max[id] = max(sc.max[id], k)
				sc.cnt[id] = 0
			}
		}
	}
	ids := sc.tokens(c, hyp)
	st.sysLen = len(ids)
	st.refLen = closestRefLen(len(ids), refLens)
	occ := sc.occurrences(ids, 1, bleuMaxOrder)
	n := sc.tab.Len()
	sc.hyp, sc.max = growTo(sc.hyp, n), growTo(sc.max, n)
	for _, o := range occ {
		order, id := int(o>>32), int32(o)
		st.total[order-1]++
		sc.hyp[id]++
		if sc.hyp[id] <= sc.max[id] {
			st.correct[order-1]++
		}
	}
	return st
}

// closestRefLen is sacreBLEU's _get_closest_ref_len: the reference length
// closest to the hypothesis length, the shorter on a tie; -1 with none.
func closestRefLen(hyp int, refs []int) int {
	bestDiff, best := -1, -1
	for _, r := range refs {
		d := hyp - r
		if d < 0 {
			d = -d
		}
		if bestDiff == -1 || d < bestDiff {
			bestDiff, best = d, r
		} else if d == bestDiff && r < best {
			best = r
		}
	}
	return best
}

// CheckBLEUWeights reports whether w can weigh BLEU's n-gram precisions
// ([WeightedSentenceBLEU]): nil (uniform), or 1 to 4 finite weights >= 0
// with at least one above 0.
func CheckBLEUWeights(w []float64) error {
	if w == nil {
		return nil
	}
	if len(w) == 0 || len(w) > bleuMaxOrder {
		return fmt.Errorf("metric: BLEU weights: want 1 to %d weights, got %d", bleuMaxOrder, len(w))
	}
	pos := false
	for i, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("metric: BLEU weights: weight %d is %v: want a finite number >= 0", i+1, x)
		}
		pos = pos || x > 0
	}
	if !pos {
		return errors.New("metric: BLEU weights: at least one must be > 0")
	}
	return nil
}

// WeightedSentenceBLEU is [SentenceBLEU] with the n-gram precisions
// weighed: the score is BP · exp(Σ wₙ·log pₙ) over the smoothed
// precisions for n = 1 .. len(weights), with no effective order and the
// weights taken as given (not normalised), as NLTK's sentence_bleu takes
// them; an order the hypothesis is too short for scores 0 when its weight
// is not 0. nil weights give [SentenceBLEU]. It returns an error for
// invalid weights ([CheckBLEUWeights]).
func WeightedSentenceBLEU(hyp string, refs []string, weights []float64) (BLEUScore, error) {
	if err := CheckBLEUWeights(weights); err != nil {
		return BLEUScore{}, err
	}
	c := bleuConfig{effectiveOrder: weights == nil, weights: weights}
	return c.score(c.segment(hyp, refs)), nil
}
