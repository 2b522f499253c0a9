package metric

import (
	"errors"
	"sync"

	"github.com/proctorhq/proctor/internal/ngram"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// SentenceGLEU returns the GLEU of hyp against refs as NLTK's
// sentence_gleu computes it (min_len 1, max_len 4) on the texts split at
// white space as Python's str.split does, case kept: for each reference,
// the matching n-grams over the larger of the hypothesis' and the
// reference's n-gram counts; the best reference wins. It is 0 with no
// references or no n-grams.
func SentenceGLEU(hyp string, refs []string) float64 {
	match, all := gleuSegment(hyp, refs)
	if all == 0 {
		return 0
	}
	return float64(match) / float64(all)
}

// CorpusGLEU returns NLTK's corpus_gleu: the matches and totals of each
// hypothesis' best reference summed over the corpus before dividing.
// refs[i] holds the references of hyps[i]; it returns an error when the
// lengths differ.
func CorpusGLEU(hyps []string, refs [][]string) (float64, error) {
	if len(hyps) != len(refs) {
		return 0, errors.New("metric: CorpusGLEU needs one list of references per hypothesis")
	}
	var match, all int
	for i, h := range hyps {
		m, a := gleuSegment(h, refs[i])
		match += m
		all += a
	}
	if all == 0 {
		return 0, nil
	}
	return float64(match) / float64(all), nil
}

type gleuScratch struct {
	toks     []string
	ids      []int32
	hypOcc   []int32
	hyp, cnt []int32
}

var gleuPool = sync.Pool{New: func() any { return new(gleuScratch) }}

// gleuSegment returns the best reference's (tp, n_all) as NLTK picks it:
// the maximum of (tp/n_all, tp, n_all) over references with n_all > 0.
func gleuSegment(hyp string, refs []string) (int, int) {
	sc := gleuPool.Get().(*gleuScratch)
	tab := ngram.Get()
	defer func() {
		clear(sc.hyp)
		ngram.Put(tab)
		gleuPool.Put(sc)
	}()
	sc.toks = tokenize.Fields(sc.toks[:0], hyp)
	sc.ids = tab.Tokens(sc.ids[:0], sc.toks)
	sc.hypOcc = sc.hypOcc[:0]
	tab.Each(sc.ids, 1, 4, func(_ int, id int32) { sc.hypOcc = append(sc.hypOcc, id) })
	tpfp := len(sc.hypOcc)
	var bestScore float64
	bestTP, bestAll, found, counted := 0, 0, false, false
	for _, r := range refs {
		sc.toks = tokenize.Fields(sc.toks[:0], r)
		sc.ids = tab.Tokens(sc.ids[:0], sc.toks)
		var refOcc []int32
		tab.Each(sc.ids, 1, 4, func(_ int, id int32) { refOcc = append(refOcc, id) })
		n := tab.Len()
		sc.hyp, sc.cnt = growTo(sc.hyp, n), growTo(sc.cnt, n)
		if !counted {
			for _, id := range sc.hypOcc {
				sc.hyp[id]++
			}
			counted = true
		}
		tp := 0
		for _, id := range refOcc {
			sc.cnt[id]++
			if sc.cnt[id] <= sc.hyp[id] {
				tp++
			}
		}
		for _, id := range refOcc {
			sc.cnt[id] = 0
		}
		all := max(tpfp, len(refOcc))
		if all == 0 {
			continue
		}
		score := float64(tp) / float64(all)
		if !found || score > bestScore || score == bestScore && (tp > bestTP || tp == bestTP && all > bestAll) {
			bestScore, bestTP, bestAll = score, tp, all
		}
		found = true
	}
	return bestTP, bestAll
}
