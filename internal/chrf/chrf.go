// Package chrf computes chrF and chrF++ (character and word n-gram
// F-scores) as sacreBLEU's CHRF metric does: its statistics per segment,
// the choice among several references, and both of its smoothing modes.
package chrf

import (
	"strings"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/ngram"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// Config is the subset of sacreBLEU's CHRF arguments that change scores.
type Config struct {
	CharOrder    int  // character n-gram orders 1..CharOrder
	WordOrder    int  // word n-gram orders 1..WordOrder (2 is chrF++)
	Beta         int  // recall weighs Beta times precision
	Lowercase    bool // lower-case both sides first (Python str.lower)
	Whitespace   bool // keep white space inside character n-grams
	EpsSmoothing bool // chrF++.py style averaging instead of effective order
}

// Order is the number of statistics triples: CharOrder + WordOrder.
func (c Config) Order() int { return c.CharOrder + c.WordOrder }

// isPunct reports whether c is in Python's string.punctuation, which
// chrF++ splits off words.
func isPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// words appends to dst the words of s as sacreBLEU's _remove_punctuation
// splits them: Python str.split, then one punctuation mark split off the
// end of a word of two or more characters, or else off its start.
func words(dst []string, s string) []string {
	for _, w := range tokenize.Fields(nil, s) {
		switch {
		case utf8.RuneCountInString(w) == 1:
			dst = append(dst, w)
		case isPunct(w[len(w)-1]):
			dst = append(dst, w[:len(w)-1], w[len(w)-1:])
		case isPunct(w[0]):
			dst = append(dst, w[:1], w[1:])
		default:
			dst = append(dst, w)
		}
	}
	return dst
}

// side is one text's n-grams: the id of every occurrence, by order.
type side struct {
	occ    [][]int32 // occ[k]: ids of the order-k statistics' n-grams
	counts []int32   // occurrences per id
}

// scratch holds one segment's tables and buffers.
type scratch struct {
	chars, words *ngram.Table
	toks         []string
	ids          []int32
}

func growTo(s []int32, n int) []int32 {
	if n <= len(s) {
		return s
	}
	return append(s, make([]int32, n-len(s))...)
}

// extract fills sd with the n-grams of text, character orders first, then
// word orders.
func (c Config) extract(sc *scratch, sd *side, text string) {
	if c.Lowercase {
		text = tokenize.Lower(text)
	}
	line := text
	if !c.Whitespace {
		line = strings.Join(tokenize.Fields(sc.toks[:0], text), "")
	}
	sc.toks = sc.toks[:0]
	for i := 0; i < len(line); {
		_, w := utf8.DecodeRuneInString(line[i:])
		sc.toks = append(sc.toks, line[i:i+w]) // an invalid byte is one character
		i += w
	}
	if cap(sd.occ) < c.Order() {
		sd.occ = make([][]int32, c.Order())
	}
	sd.occ = sd.occ[:c.Order()]
	for k := range sd.occ {
		sd.occ[k] = sd.occ[k][:0]
	}
	sc.ids = sc.chars.Tokens(sc.ids[:0], sc.toks)
	sc.chars.Each(sc.ids, 1, c.CharOrder, func(n int, id int32) {
		sd.occ[n-1] = append(sd.occ[n-1], id)
	})
	if c.WordOrder > 0 {
		sc.toks = words(sc.toks[:0], text)
		sc.ids = sc.words.Tokens(sc.ids[:0], sc.toks)
		sc.words.Each(sc.ids, 1, c.WordOrder, func(n int, id int32) {
			sd.occ[c.CharOrder+n-1] = append(sd.occ[c.CharOrder+n-1], id)
		})
	}
}

// count sets sd.counts from sd.occ for tables of the given sizes (char ids
// and word ids share the array: word ids are offset by charLen).
func (c Config) count(sd *side, charLen, total int) {
	sd.counts = growTo(sd.counts, total)
	for k, occ := range sd.occ {
		off := int32(0)
		if k >= c.CharOrder {
			off = int32(charLen)
		}
		for _, id := range occ {
			sd.counts[id+off]++
		}
	}
}

// uncount zeroes sd.counts where sd.occ set them.
func (c Config) uncount(sd *side, charLen int) {
	for k, occ := range sd.occ {
		off := int32(0)
		if k >= c.CharOrder {
			off = int32(charLen)
		}
		for _, id := range occ {
			sd.counts[id+off] = 0
		}
	}
}

// Segment returns the statistics (3 per order: hypothesis n-grams,
// reference n-grams, matches) of hyp against the reference with the highest
// F-score, the first on a tie, as sacreBLEU picks it. A hypothesis order
// counts 0 n-grams when the reference has none of that order. It returns
// nil when refs is empty.
func (c Config) Segment(hyp string, refs []string) []int {
	if len(refs) == 0 {
		return nil
	}
	sc := &scratch{chars: ngram.Get(), words: ngram.Get()}
	defer ngram.Put(sc.chars)
	defer ngram.Put(sc.words)
	var h, r side
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
		st := make([]int, 0, 3*c.Order())
		for k := range c.Order() {
			off := int32(0)
			if k >= c.CharOrder {
				off = int32(charLen)
			}
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
		if f := c.Score(st); f > bestF {
			best, bestF = st, f
		}
	}
	return best
}

// Score returns the chrF score, on sacreBLEU's 0-100 scale, of summed
// statistics.
func (c Config) Score(st []int) float64 {
	const eps = 1e-16
	factor := float64(c.Beta * c.Beta)
	score, avgP, avgR, eff := 0.0, 0.0, 0.0, 0
	for i := range c.Order() {
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
	if c.EpsSmoothing {
		return 100 * score / float64(c.Order())
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
