package metric

import (
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/editdist"
	"github.com/proctorhq/proctor/internal/ngram"
	"github.com/proctorhq/proctor/internal/porter"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// RougeScore is one ROUGE score as rouge-score's Score tuple holds it.
type RougeScore struct {
	// Precision is the matched n-grams (or LCS length) over the
	// candidate's, Recall over the reference's, and FMeasure their
	// harmonic mean; each in [0, 1].
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	FMeasure  float64 `json:"fmeasure"`
}

func newRougeScore(p, r float64) RougeScore {
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return RougeScore{Precision: p, Recall: r, FMeasure: f}
}

// RougeScorer computes one ROUGE variant exactly as Google's rouge-score
// package (rouge_scorer.RougeScorer) does: its tokeniser (lower-case,
// every character other than [a-z0-9] a separator, so non-ASCII letters
// separate tokens), optional Porter stemming, clipped n-gram overlap for
// rougeN, LCS for rougeL and union-LCS over newline-separated sentences
// for rougeLsum. The LCS variants take time proportional to the product of
// the texts' token counts. A RougeScorer is immutable and safe for
// concurrent use.
type RougeScorer struct {
	n    int // n-gram order; 0 for rougeL, -1 for rougeLsum
	stem func(string) string
}

// NewRougeScorer returns a scorer for variant: rouge1 .. rouge9 (n-gram
// overlap), rougeL (longest common subsequence) or rougeLsum
// (summary-level LCS over newline-separated sentences). With stemmer,
// tokens longer than three characters are stemmed with the Porter stemmer
// (NLTK's), as rouge-score's use_stemmer does. It returns an error for any
// other variant.
func NewRougeScorer(variant string, stemmer bool) (*RougeScorer, error) {
	s := &RougeScorer{}
	switch v := variant; {
	case v == "rougeL":
	case v == "rougeLsum":
		s.n = -1
	case len(v) == 6 && strings.HasPrefix(v, "rouge") && v[5] >= '1' && v[5] <= '9':
		s.n = int(v[5] - '0')
	default:
		return nil, fmt.Errorf("metric: unknown ROUGE variant %q (want rouge1 .. rouge9, rougeL or rougeLsum)", v)
	}
	if stemmer {
		s.stem = porter.Stem
	}
	return s, nil
}

// Score returns the ROUGE score of prediction against target, as
// rouge-score's RougeScorer.score(target, prediction) does.
func (g *RougeScorer) Score(target, prediction string) RougeScore {
	stem := g.stem
	if stem != nil {
		// Texts repeat words: stem each distinct one once.
		memo := map[string]string{}
		stem = func(w string) string {
			s, ok := memo[w]
			if !ok {
				s = g.stem(w)
				memo[w] = s
			}
			return s
		}
	}
	switch {
	case g.n > 0:
		return rougeN(tokenize.Rouge(nil, target, stem), tokenize.Rouge(nil, prediction, stem), g.n)
	case g.n == 0:
		return rougeL(tokenize.Rouge(nil, target, stem), tokenize.Rouge(nil, prediction, stem))
	}
	return rougeLsum(sentences(target, stem), sentences(prediction, stem))
}

// sentences splits text at newlines, drops empty lines and tokenises each.
func sentences(text string, stem func(string) string) [][]string {
	var out [][]string
	for s := range strings.SplitSeq(text, "\n") {
		if s != "" {
			out = append(out, tokenize.Rouge(nil, s, stem))
		}
	}
	return out
}

// rougeN is rouge-score's _score_ngrams over n-grams of order n.
func rougeN(target, pred []string, n int) RougeScore {
	tab := ngram.Get()
	defer ngram.Put(tab)
	tIDs := make([]int32, 0, len(target))
	pIDs := make([]int32, 0, len(pred))
	ids := tab.Tokens(make([]int32, 0, max(len(target), len(pred))), target)
	tab.Each(ids, n, n, func(_ int, id int32) { tIDs = append(tIDs, id) })
	tab.Each(tab.Tokens(ids[:0], pred), n, n, func(_ int, id int32) { pIDs = append(pIDs, id) })
	cnt := make([]int32, tab.Len())
	for _, id := range tIDs {
		cnt[id]++
	}
	inter := 0
	for _, id := range pIDs {
		if cnt[id] > 0 {
			cnt[id]--
			inter++
		}
	}
	p := float64(inter) / float64(max(len(pIDs), 1))
	r := float64(inter) / float64(max(len(tIDs), 1))
	return newRougeScore(p, r)
}

// rougeL is rouge-score's _score_lcs.
func rougeL(target, pred []string) RougeScore {
	if len(target) == 0 || len(pred) == 0 {
		return RougeScore{}
	}
	tab := ngram.Get()
	defer ngram.Put(tab)
	t := tab.Tokens(make([]int32, 0, len(target)), target)
	p := tab.Tokens(make([]int32, 0, len(pred)), pred)
	lcs := float64(editdist.LCS(t, p))
	return newRougeScore(lcs/float64(len(pred)), lcs/float64(len(target)))
}

// rougeLsum is rouge-score's _summary_level_lcs: for each reference
// sentence the union of its LCS (as _backtrack_norec reads it) with every
// candidate sentence, counted without using a token more often than it
// occurs on either side.
func rougeLsum(ref, can [][]string) RougeScore {
	if len(ref) == 0 || len(can) == 0 {
		return RougeScore{}
	}
	tab := ngram.Get()
	defer ngram.Put(tab)
	refIDs := make([][]int32, len(ref))
	canIDs := make([][]int32, len(can))
	m, n := 0, 0
	for i, s := range ref {
		refIDs[i] = tab.Tokens(nil, s)
		m += len(s)
	}
	for i, s := range can {
		canIDs[i] = tab.Tokens(nil, s)
		n += len(s)
	}
	if m == 0 || n == 0 {
		return RougeScore{}
	}
	cntR := make([]int, tab.Len())
	cntC := make([]int, tab.Len())
	for _, s := range refIDs {
		for _, id := range s {
			cntR[id]++
		}
	}
	for _, s := range canIDs {
		for _, id := range s {
			cntC[id]++
		}
	}
	hits := 0
	var union []int
	for _, r := range refIDs {
		union = union[:0]
		for _, c := range canIDs {
			union = append(union, editdist.LCSIndices(r, c)...)
		}
		slices.Sort(union)
		union = slices.Compact(union)
		for _, i := range union {
			t := r[i]
			if cntC[t] > 0 && cntR[t] > 0 {
				hits++
				cntC[t]--
				cntR[t]--
			}
		}
	}
	return newRougeScore(float64(hits)/float64(n), float64(hits)/float64(m))
}
