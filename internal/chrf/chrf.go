// Package chrf computes chrF and chrF++ (character and word n-gram
// F-scores) as sacreBLEU's CHRF metric does: its statistics per segment,
// the choice among several references, and both of its smoothing modes.
package chrf

import (
	"strings"
	"unicode/utf8"

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

// counts holds the n-grams of one text, one map per order.
type counts []map[string]int

// puncts is Python's string.punctuation, which chrF++ splits off words.
func isPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// words splits s as sacreBLEU's _remove_punctuation does: Python
// str.split, then one punctuation mark split off the end of a word of two
// or more characters, or else off its start.
func words(s string) []string {
	var out []string
	for _, w := range tokenize.Fields(nil, s) {
		switch {
		case utf8.RuneCountInString(w) == 1:
			out = append(out, w)
		case isPunct(w[len(w)-1]):
			out = append(out, w[:len(w)-1], w[len(w)-1:])
		case isPunct(w[0]):
			out = append(out, w[:1], w[1:])
		default:
			out = append(out, w)
		}
	}
	return out
}

// extract returns the n-gram counts of s.
func (c Config) extract(s string) counts {
	if c.Lowercase {
		s = tokenize.Lower(s)
	}
	out := make(counts, 0, c.Order())
	line := s
	if !c.Whitespace {
		line = strings.Join(tokenize.Fields(nil, s), "")
	}
	offs := make([]int, 0, len(line)+1)
	for i := range line {
		offs = append(offs, i)
	}
	offs = append(offs, len(line))
	runes := len(offs) - 1
	for n := 1; n <= c.CharOrder; n++ {
		m := make(map[string]int, max(runes-n+1, 0))
		for i := 0; i+n <= runes; i++ {
			m[line[offs[i]:offs[i+n]]]++
		}
		out = append(out, m)
	}
	if c.WordOrder > 0 {
		ws := words(s)
		for n := 1; n <= c.WordOrder; n++ {
			m := make(map[string]int, max(len(ws)-n+1, 0))
			for i := 0; i+n <= len(ws); i++ {
				if n == 1 {
					m[ws[i]]++
				} else {
					m[strings.Join(ws[i:i+n], " ")]++
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// match appends sacreBLEU's [hypothesis, reference, match] counts for
// each order to dst. A hypothesis order counts 0 n-grams when the
// reference has none of that order.
func match(dst []int, hyp, ref counts) []int {
	for i := range hyp {
		h, r := hyp[i], ref[i]
		nh, nr, nm := 0, 0, 0
		for g, k := range h {
			nh += k
			if rk, ok := r[g]; ok {
				nm += min(k, rk)
			}
		}
		for _, k := range r {
			nr += k
		}
		if len(r) == 0 {
			nh = 0
		}
		dst = append(dst, nh, nr, nm)
	}
	return dst
}

// Segment returns the statistics (3 per order) of hyp against the
// reference with the highest F-score, the first on a tie, as sacreBLEU
// picks it. It returns nil when refs is empty.
func (c Config) Segment(hyp string, refs []string) []int {
	if len(refs) == 0 {
		return nil
	}
	h := c.extract(hyp)
	var best []int
	bestF := -1.0
	for _, r := range refs {
		st := match(make([]int, 0, 3*c.Order()), h, c.extract(r))
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
