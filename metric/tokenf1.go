package metric

import (
	"slices"

	"github.com/proctorhq/proctor/internal/tokenize"
)

// squadGolds returns the SQuAD v2 script's gold answers: those that
// normalise to something, or a single empty answer when none does.
func squadGolds(golds []string) [][]string {
	var out [][]string
	for _, g := range golds {
		if t := tokenize.SQuAD(nil, g); len(t) > 0 {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		out = append(out, nil)
	}
	return out
}

// TokenF1 returns the SQuAD v2 token F1 of prediction: the official
// evaluation script's compute_f1 (lower-case, ASCII punctuation removed,
// the articles a, an and the removed, split at white space; F1 of the
// common tokens counted with multiplicity), the best over golds. Golds
// that normalise to nothing are dropped; when none is left the gold is
// the empty answer, which only an empty prediction matches (F1 1).
func TokenF1(prediction string, golds []string) float64 {
	f1, _ := squadBest(prediction, golds)
	return f1
}

// squadBest returns the best F1 over golds and whether one is an exact
// match.
func squadBest(prediction string, golds []string) (float64, bool) {
	pred := tokenize.SQuAD(nil, prediction)
	best, exact := 0.0, false
	for _, g := range squadGolds(golds) {
		best = max(best, squadF1(g, pred))
		exact = exact || slices.Equal(g, pred)
	}
	return best, exact
}

// SQuADExact reports whether prediction equals one of golds after the
// SQuAD v2 script's normalisation (its compute_exact), golds chosen as
// [TokenF1] chooses them.
func SQuADExact(prediction string, golds []string) bool {
	_, exact := squadBest(prediction, golds)
	return exact
}

func squadF1(gold, pred []string) float64 {
	if len(gold) == 0 || len(pred) == 0 {
		if len(gold) == len(pred) {
			return 1
		}
		return 0
	}
	counts := make(map[string]int, len(gold))
	for _, t := range gold {
		counts[t]++
	}
	same := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	p := float64(same) / float64(len(pred))
	r := float64(same) / float64(len(gold))
	return 2 * p * r / (p + r)
}
