package proctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/editdist"
	"github.com/proctorhq/proctor/internal/ngram"
	"github.com/proctorhq/proctor/internal/porter"
	"github.com/proctorhq/proctor/internal/tokenize"
)

// RougeMeasure says which of ROUGE's precision, recall and F-measure a
// [Rouge] grader compares with its threshold.
type RougeMeasure uint8

const (
	// RougeFMeasure is the harmonic mean of precision and recall (the
	// default).
	RougeFMeasure RougeMeasure = iota
	// RougePrecision is the share of the output's units found in the
	// reference.
	RougePrecision
	// RougeRecall is the share of the reference's units found in the
	// output.
	RougeRecall
)

// String returns the spec's word: fmeasure, precision or recall.
func (m RougeMeasure) String() string {
	switch m {
	case RougeFMeasure:
		return "fmeasure"
	case RougePrecision:
		return "precision"
	case RougeRecall:
		return "recall"
	}
	return fmt.Sprintf("measure_%d", uint8(m))
}

// RougeScore is one ROUGE score as rouge-score's Score tuple holds it.
type RougeScore struct {
	// Precision is the matched n-grams (or LCS length) over the
	// candidate's, Recall over the reference's, and FMeasure their
	// harmonic mean; each in [0, 1].
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	FMeasure  float64 `json:"fmeasure"`
}

// Get returns the measure m of s.
func (s RougeScore) Get(m RougeMeasure) float64 {
	switch m {
	case RougePrecision:
		return s.Precision
	case RougeRecall:
		return s.Recall
	}
	return s.FMeasure
}

func newRougeScore(p, r float64) RougeScore {
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return RougeScore{Precision: p, Recall: r, FMeasure: f}
}

// RougeOptions configure [NewRouge]. The zero value is ROUGE-L F-measure
// without stemming against the sample's expected answer (and references,
// best of), passing at 0.5.
type RougeOptions struct {
	// Variant is rouge1 .. rouge9 (n-gram overlap), rougeL (longest common
	// subsequence) or rougeLsum (summary-level LCS over newline-separated
	// sentences); "" means rougeL.
	Variant string
	// Measure is compared with the threshold; default F-measure.
	Measure RougeMeasure
	// Stemmer stems tokens longer than three characters with the Porter
	// stemmer (NLTK's), as rouge-score's use_stemmer does.
	Stemmer bool
	// References, when not nil, are used instead of the sample's.
	References []string
	// Threshold is the score to reach; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "rouge".
	Name string
}

// Rouge scores the output against references exactly as Google's
// rouge-score package (rouge_scorer.RougeScorer) does: its tokeniser
// (lower-case, every character other than [a-z0-9] a separator, so
// non-ASCII letters separate tokens), optional Porter stemming, clipped
// n-gram overlap for rougeN, LCS for rougeL and union-LCS over
// newline-separated sentences for rougeLsum. With several references the
// one with the best F-measure counts, as score_multi picks it.
//
// It passes when the chosen measure reaches the threshold and is not
// graded when there is no reference, or, for rougeL and rougeLsum, when
// the output's and a reference's tokens make more than 2^34 pairs (both
// over ~131,000 tokens). Its evidence is the [RougeScore]. A Rouge is
// immutable and safe for concurrent use.
type Rouge struct {
	name      string
	variant   string
	n         int // n-gram order; 0 for rougeL, -1 for rougeLsum
	measure   RougeMeasure
	stem      func(string) string
	refs      []string
	threshold float64
}

var _ Grader = (*Rouge)(nil)

// NewRouge returns a ROUGE grader. It returns an error for a variant other
// than rouge1 .. rouge9, rougeL or rougeLsum.
func NewRouge(opts RougeOptions) (*Rouge, error) {
	g := &Rouge{
		name:      nameOr(opts.Name, "rouge"),
		variant:   nameOr(opts.Variant, "rougeL"),
		measure:   opts.Measure,
		refs:      opts.References,
		threshold: thresholdOr(opts.Threshold, 0.5),
	}
	switch v := g.variant; {
	case v == "rougeL":
	case v == "rougeLsum":
		g.n = -1
	case len(v) == 6 && strings.HasPrefix(v, "rouge") && v[5] >= '1' && v[5] <= '9':
		g.n = int(v[5] - '0')
	default:
		return nil, fmt.Errorf("proctor: unknown ROUGE variant %q (want rouge1 .. rouge9, rougeL or rougeLsum)", v)
	}
	if opts.Measure > RougeRecall {
		return nil, fmt.Errorf("proctor: unknown ROUGE measure %d", opts.Measure)
	}
	if opts.Stemmer {
		g.stem = porter.Stem
	}
	return g, nil
}

// MustRouge is [NewRouge] that panics on an error, for package-level
// variables.
func MustRouge(opts RougeOptions) *Rouge {
	g, err := NewRouge(opts)
	if err != nil {
		panic("proctor: MustRouge(" + opts.Variant + "): " + err.Error())
	}
	return g
}

// Name returns the grader's name.
func (g *Rouge) Name() string { return g.name }

// Score returns the ROUGE score of prediction against target, as
// rouge-score's RougeScorer.score(target, prediction) does.
func (g *Rouge) Score(target, prediction string) RougeScore {
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

// Grade scores s.Output against the best reference.
func (g *Rouge) Grade(_ context.Context, s *Sample) Grade {
	refs, ok := bestOfRefs(g.refs, s)
	if !ok {
		return NotGraded(noReference)
	}
	if g.n <= 0 {
		// LCS costs O(n·m/64) in tokens; a token takes at least two bytes
		// but the last one, so only texts that could pass the limit are
		// tokenised to count exactly.
		n, counted := (len(s.Output)+1)/2, false
		for _, r := range refs {
			m := (len(r) + 1) / 2
			if n == 0 || m <= maxEditCells/n {
				continue
			}
			if !counted {
				n, counted = len(tokenize.Rouge(nil, s.Output, nil)), true
			}
			if m = len(tokenize.Rouge(nil, r, nil)); n > 0 && m > maxEditCells/n {
				return NotGradedf("%s: output (%d tokens) and reference (%d tokens) make %d token pairs, over the limit of %d", g.variant, n, m, int64(n)*int64(m), int64(maxEditCells))
			}
		}
	}
	best := g.Score(refs[0], s.Output)
	for _, r := range refs[1:] {
		if sc := g.Score(r, s.Output); sc.FMeasure > best.FMeasure {
			best = sc
		}
	}
	return scoreGrade(g.variant+" "+g.measure.String(), best.Get(g.measure), g.threshold, len(refs), best)
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
