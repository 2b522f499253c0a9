package judgereply

import (
	"fmt"
	"math"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
)

// PairwiseVerdict reads a pairwise reply as Pass (answer A is better),
// Fail (answer B is) or Abstain (a tie): the verdict the prompt asks for,
// else MT-Bench's [[A]], [[B]], [[C]] (a tie), arena-hard's [[A>>B]] …
// [[B>>A]] and [[A=B]], AlpacaEval's ranking, Prometheus's [RESULT] A, or
// the answer's letter. A reply that names no preference is an error
// wrapping ErrNoVerdict.
func PairwiseVerdict(r Reply) (string, error) {
	if isVerdict(r.Verdict) {
		return r.Verdict, nil
	}
	for _, s := range []string{r.Choice, r.Last} {
		v, ok := pairwiseChoice(s)
		if ok && (s == r.Choice || lastLinePreference(s)) {
			return v, nil
		}
	}
	if len(r.Ranking) > 0 {
		return rankedVerdict(r.Ranking)
	}
	if isVerdict(r.Bare) {
		return r.Bare, nil
	}
	return "", fmt.Errorf("%w: no preference for A or B", ErrNoVerdict)
}

// isVerdict reports whether v is one of the verdict words.
func isVerdict(v string) bool {
	return v == Pass || v == Fail || v == Abstain
}

// pairwiseChoice reads one answer of a pairwise judge: the better
// answer's name, a tie, or an arena-style comparison.
func pairwiseChoice(s string) (string, bool) {
	n := NormLabel(s)
	switch strings.ReplaceAll(n, " ", "") {
	case "a>>b", "a>b", "a≫b", "b<a", "b<<a":
		return Pass, true
	case "b>>a", "b>a", "b≫a", "a<b", "a<<b":
		return Fail, true
	case "a=b", "b=a", "a==b":
		return Abstain, true
	}
	switch n {
	case "a", "answer a", "assistant a", "response a", "output a":
		return Pass, true
	case "b", "answer b", "assistant b", "response b", "output b":
		return Fail, true
	case "c", "tie", "draw", "equal", "neither", "both":
		return Abstain, true
	}
	return Abstain, false
}

// lastLinePreference reports whether s, the reply's last line, names an
// answer as a choice rather than as a word of a cut-off sentence: a tie
// word alone ("Both") is no verdict there; "a" in lower case is the
// article.
func lastLinePreference(s string) bool {
	l := LettersOf(s)
	switch strings.ToLower(l) {
	case "both", "neither", "equal":
		return false
	case "a":
		return l == "A"
	}
	return true
}

// rankedVerdict reads a ranking of the two answers, named as AlpacaEval's
// prompts name them (model_1 and model_2 are the first and second) or by
// their letters. Any other name is no reading: which answer it means is
// the prompt's to say.
func rankedVerdict(rs []Ranked) (string, error) {
	first, second := math.NaN(), math.NaN()
	for _, e := range rs {
		switch strings.ToLower(strings.TrimSpace(e.Name)) {
		case "model_1", "model 1", "a", "answer a", "answer_a", "output_1", "output (a)":
			first = e.Rank
		case "model_2", "model 2", "b", "answer b", "answer_b", "output_2", "output (b)":
			second = e.Rank
		default:
			return "", fmt.Errorf("%w: the ranking names %q, not answer A or B", ErrNoVerdict, kit.ClipRunes(e.Name, 40))
		}
	}
	switch {
	case len(rs) != 2 || math.IsNaN(first) || math.IsNaN(second):
		return "", fmt.Errorf("%w: the ranking does not rank both answers once", ErrNoVerdict)
	case first < second:
		return Pass, nil
	case second < first:
		return Fail, nil
	}
	return Abstain, nil
}
