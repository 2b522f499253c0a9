package metric

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/ngram"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// ChrFConfig holds the sacreBLEU CHRF arguments that change a chrF score.
// The zero value is sacreBLEU's default, chrF2: character n-grams up to 6,
// no word n-grams, beta 2, case kept, white space dropped, effective-order
// averaging.
type ChrFConfig struct {
	// CharOrder is the highest character n-gram order; 0 means 6.
	CharOrder int
	// WordOrder is the highest word n-gram order; 0 means none, 2 gives
	// chrF++.
	WordOrder int
	// Beta weighs recall beta times as much as precision; 0 means 2.
	Beta int
	// Lowercase compares case-insensitively (Python's str.lower).
	Lowercase bool
	// Whitespace keeps white space inside character n-grams.
	Whitespace bool
	// EpsSmoothing averages the F-scores of all orders, an order without
	// n-grams counting as 0 (chrF++.py, Moses and NLTK), instead of
	// sacreBLEU's default: precision and recall averaged over the orders
	// both sides have, then one F-score.
	EpsSmoothing bool
}

// ChrFSettingError reports a [ChrFConfig] setting out of range.
type ChrFSettingError struct {
	// Setting names the setting as sacreBLEU's CHRF argument: char_order,
	// word_order or beta.
	Setting string
	// Reason says what is allowed and what was given: "want 1..32, got -1".
	Reason string
}

// Error says which setting is out of range and why.
func (e *ChrFSettingError) Error() string { return "metric: chrF " + e.Setting + ": " + e.Reason }

// maxChrFOrder bounds CharOrder and WordOrder: far past any published use
// (6 and 2), it keeps a caller from asking for thousands of n-gram maps.
const maxChrFOrder = 32

// chrfConfig is a checked ChrFConfig with its defaults filled in.
type chrfConfig struct {
	charOrder, wordOrder, beta          int
	lowercase, whitespace, epsSmoothing bool
}

func (c ChrFConfig) resolve() (chrfConfig, error) {
	out := chrfConfig{charOrder: c.CharOrder, wordOrder: c.WordOrder, beta: c.Beta,
		lowercase: c.Lowercase, whitespace: c.Whitespace, epsSmoothing: c.EpsSmoothing}
	if out.charOrder == 0 {
		out.charOrder = 6
	}
	if out.beta == 0 {
		out.beta = 2
	}
	switch {
	case out.charOrder < 0 || out.charOrder > maxChrFOrder:
		return out, &ChrFSettingError{"char_order", fmt.Sprintf("want 1..%d, got %d", maxChrFOrder, c.CharOrder)}
	case out.wordOrder < 0 || out.wordOrder > maxChrFOrder:
		return out, &ChrFSettingError{"word_order", fmt.Sprintf("want 0..%d, got %d", maxChrFOrder, c.WordOrder)}
	case out.beta < 0 || out.beta > 1000:
		return out, &ChrFSettingError{"beta", fmt.Sprintf("want 1..1000, got %d", c.Beta)}
	}
	return out, nil
}

// Check returns a [*ChrFSettingError] when an order or beta is out of
// range (orders up to 32, beta up to 1000, none negative), else nil.
func (c ChrFConfig) Check() error {
	_, err := c.resolve()
	return err
}

// Name returns the score's name as sacreBLEU writes it: "chrF" and beta,
// then one "+" per word order ("chrF2", "chrF2++" for chrF++).
func (c ChrFConfig) Name() string {
	r, _ := c.resolve()
	return fmt.Sprintf("chrF%d", r.beta) + strings.Repeat("+", max(r.wordOrder, 0))
}

// SentenceChrF returns hyp's chrF against refs on a 0-1 scale, as
// sacreBLEU's sentence_chrf computes it (divided by 100): the statistics of
// the reference with the best F-score decide. It returns 0 with no
// references and a [*ChrFSettingError] for an invalid cfg. Its work is
// linear in the texts' lengths.
func SentenceChrF(hyp string, refs []string, cfg ChrFConfig) (float64, error) {
	c, err := cfg.resolve()
	if err != nil {
		return 0, err
	}
	st := c.segment(hyp, refs)
	if st == nil {
		return 0, nil
	}
	return c.score(st) / 100, nil
}

// CorpusChrF returns the chrF of a corpus on a 0-1 scale, as sacreBLEU's
// corpus_chrf computes it: each segment's statistics (against its best
// reference) are summed before the score is taken. refs[i] holds the
// references of hyps[i]. It returns an error when the lengths differ or a
// segment has no reference, and a [*ChrFSettingError] for an invalid cfg.
func CorpusChrF(hyps []string, refs [][]string, cfg ChrFConfig) (float64, error) {
	c, err := cfg.resolve()
	if err != nil {
		return 0, err
	}
	if len(hyps) != len(refs) {
		return 0, errors.New("metric: CorpusChrF needs one list of references per hypothesis")
	}
	sum := make([]int, 3*c.order())
	for i, h := range hyps {
		st := c.segment(h, refs[i])
		if st == nil {
			return 0, fmt.Errorf("metric: CorpusChrF: hypothesis %d has no reference", i)
		}
		for j, v := range st {
			sum[j] += v
		}
	}
	return c.score(sum) / 100, nil
}

// order is the number of statistics triples: character and word orders.
func (c chrfConfig) order() int { return c.charOrder + c.wordOrder }

// isPythonPunct reports whether c is in Python's string.punctuation,
// which chrF++ splits off words.
func isPythonPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// chrfWords appends to dst the words of s as sacreBLEU's
// _remove_punctuation splits them: Python str.split, then one punctuation
// mark split off the end of a word of two or more characters, or else off
// its start.
func chrfWords(dst []string, s string) []string {
	for _, w := range tokenize.Fields(nil, s) {
		switch {
		case utf8.RuneCountInString(w) == 1:
			dst = append(dst, w)
		case isPythonPunct(w[len(w)-1]):
			dst = append(dst, w[:len(w)-1], w[len(w)-1:])
		case isPythonPunct(w[0]):
			dst = append(dst, w[:1], w[1:])
		default:
			dst = append(dst, w)
		}
	}
	return dst
}

// chrfSide is one text's n-grams: the id of every occurrence, by order.
type chrfSide struct {
	occ    [][]int32 // occ[k]: ids of the order-k statistics' n-grams
	counts []int32   // occurrences per id
}

// chrfScratch holds one segment's tables and buffers.
type chrfScratch struct {
	chars, words *ngram.Table
	toks         []string
	ids          []int32
}

// extract fills sd with the n-grams of text, character orders first, then
// word orders.
func (c chrfConfig) extract(sc *chrfScratch, sd *chrfSide, text string) {
	if c.lowercase {
		text = tokenize.Lower(text)
	}
	line := text
	if !c.whitespace {
		line = strings.Join(tokenize.Fields(sc.toks[:0], text), "")
	}
	sc.toks = sc.toks[:0]
	for i := 0; i < len(line); {
		_, w := utf8.DecodeRuneInString(line[i:])
		sc.toks = append(sc.toks, line[i:i+w]) // an invalid byte is one character
		i += w
	}
	if cap(sd.occ) < c.order() {
		sd.occ = make([][]int32, c.order())
	}
	sd.occ = sd.occ[:c.order()]
	for k := range sd.occ {
		sd.occ[k] = sd.occ[k][:0]
	}
	sc.ids = sc.chars.Tokens(sc.ids[:0], sc.toks)
	sc.chars.Each(sc.ids, 1, c.charOrder, func(n int, id int32) {
		sd.occ[n-1] = append(sd.occ[n-1], id)
	})
	if c.wordOrder > 0 {
		sc.toks = chrfWords(sc.toks[:0], text)
		sc.ids = sc.words.Tokens(sc.ids[:0], sc.toks)
		sc.words.Each(sc.ids, 1, c.wordOrder, func(n int, id int32) {
			sd.occ[c.charOrder+n-1] = append(sd.occ[c.charOrder+n-1], id)
		})
	}
}

// idOffset is where the order-k statistics' ids start in a counts array:
// word ids come after the charLen character ids.
func (c chrfConfig) idOffset(k, charLen int) int32 {
	if k >= c.charOrder {
		return int32(charLen)
	}
	return 0
}

// count sets sd.counts from sd.occ for tables of the given sizes.
func (c chrfConfig) count(sd *chrfSide, charLen, total int) {
	sd.counts = growTo(sd.counts, total)
	for k, occ := range sd.occ {
		off := c.idOffset(k, charLen)
		for _, id := range occ {
			sd.counts[id+off]++
		}
	}
}

// uncount zeroes sd.counts where sd.occ set them.
func (c chrfConfig) uncount(sd *chrfSide, charLen int) {
	for k, occ := range sd.occ {
		off := c.idOffset(k, charLen)
		for _, id := range occ {
			sd.counts[id+off] = 0
		}
	}
}

// segment returns the statistics (3 per order: hypothesis n-grams,
// reference n-grams, matches) of hyp against the reference with the highest
// F-score, the first on a tie, as sacreBLEU picks it. A hypothesis order
// counts 0 n-grams when the reference has none of that order. It returns
// nil when refs is empty.
func (c chrfConfig) segment(hyp string, refs []string) []int {
	if len(refs) == 0 {
		return nil
	}
	sc := &chrfScratch{chars: ngram.Get(), words: ngram.Get()}
	defer ngram.Put(sc.chars)
	defer ngram.Put(sc.words)
	var h, r chrfSide
	c.extract(sc, &h, hyp)
	hOcc := make([][]int32, len(h.occ))
	for k := range h.occ {
		hOcc[k] = append([]int32(nil), h.occ[k]...)
	}
	h.occ = hOcc
	var best []int
	bestF := -1.0
	for _, ref := range refs {
		c.extract(sc, &r, ref)
		charLen, total := sc.chars.Len(), sc.chars.Len()+sc.words.Len()
		c.count(&h, charLen, total)
		c.count(&r, charLen, total)
		st := make([]int, 0, 3*c.order())
		for k := range c.order() {
			off := c.idOffset(k, charLen)
			nh, nr, nm := len(h.occ[k]), len(r.occ[k]), 0
			for _, id := range h.occ[k] {
				// Each hypothesis occurrence matches while the reference
				// has copies left: min(hyp count, ref count) in all.
				if r.counts[id+off] > 0 {
					r.counts[id+off]--
					nm++
				}
			}
			if nr == 0 {
				nh = 0
			}
			st = append(st, nh, nr, nm)
		}
		c.uncount(&r, charLen)
		c.uncount(&h, charLen)
		if f := c.score(st); f > bestF {
			best, bestF = st, f
		}
	}
	return best
}

// score returns the chrF score, on sacreBLEU's 0-100 scale, of summed
// statistics.
func (c chrfConfig) score(st []int) float64 {
	const eps = 1e-16
	factor := float64(c.beta * c.beta)
	score, avgP, avgR, eff := 0.0, 0.0, 0.0, 0
	for i := range c.order() {
		nh, nr, nm := st[3*i], st[3*i+1], st[3*i+2]
		p, r := eps, eps
		if nh > 0 {
			p = float64(nm) / float64(nh)
		}
		if nr > 0 {
			r = float64(nm) / float64(nr)
		}
		if d := factor*p + r; d > 0 {
			score += (1 + factor) * p * r / d
		} else {
			score += eps
		}
		if nh > 0 && nr > 0 {
			avgP += p
			avgR += r
			eff++
		}
	}
	if c.epsSmoothing {
		return 100 * score / float64(c.order())
	}
	if eff == 0 {
		return 0
	}
	avgP /= float64(eff)
	avgR /= float64(eff)
	if avgP+avgR == 0 {
		return 0
	}
	f := (1 + factor) * avgP * avgR
	f /= factor*avgP + avgR
	return 100 * f
}
