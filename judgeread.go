package proctor

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/judgereply"
)

// withDimension returns r with its score taken from the lines labelled
// with the rubric's dimension ("Coherence: 2" when the rubric, or the
// user's prompt, names Coherence), when r gave no other score. Lines
// labelled with names the rubric does not use are no score.
func (t *judgeTask) withDimension(r judgereply.Reply) judgereply.Reply {
	if r.HasScore || len(r.Dimensions) == 0 {
		return r
	}
	about := strings.ToLower(t.rubric)
	if t.prompt != nil {
		about += " " + strings.ToLower(t.prompt.src)
	}
	for _, d := range r.Dimensions {
		if !containsWord(about, d.Name) {
			continue
		}
		if r.HasScore && r.Score != d.Score {
			r.HasScore = false // two scores on the rubric's dimension: none
			return r
		}
		r.Score, r.HasScore = d.Score, true
	}
	return r
}

// containsWord reports whether w occurs in s as a whole word.
func containsWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		k += i
		before, _ := utf8.DecodeLastRuneInString(s[:k])
		after, _ := utf8.DecodeRuneInString(s[k+len(w):])
		if !unicode.IsLetter(before) && !unicode.IsLetter(after) {
			return true
		}
		i = k + len(w)
	}
}

// step is the finest score the scale takes: none on a range, 1 when
// only whole numbers count, else a half point (MT-Bench's judges write
// [[8.5]] on its 1 to 10 scale).
func (t *judgeTask) step() float64 {
	switch {
	case t.ranged:
		return 0
	case t.whole:
		return 1
	}
	return 0.5
}

// pairwiseVerdict reads a pairwise reply: the verdict the prompt asks
// for, else MT-Bench's [[A]], [[B]], [[C]] (a tie), arena-hard's [[A>>B]]
// … [[B>>A]] and [[A=B]], AlpacaEval's ranking, Prometheus's [RESULT] A,
// or the answer's letter.
func pairwiseVerdict(r judgereply.Reply) (readVerdict, error) {
	if v, ok := verdictWord(r.Verdict); ok {
		return readVerdict{verdict: v}, nil
	}
	for _, s := range []string{r.Choice, r.Last} {
		v, ok := pairwiseChoice(s)
		if ok && (s == r.Choice || lastLinePreference(s)) {
			return readVerdict{verdict: v}, nil
		}
	}
	if len(r.Ranking) > 0 {
		return rankedVerdict(r.Ranking)
	}
	if v, ok := verdictWord(r.Bare); ok {
		return readVerdict{verdict: v}, nil
	}
	return readVerdict{}, fmt.Errorf("%w: no preference for A or B", judgereply.ErrNoVerdict)
}

// pairwiseChoice reads one answer of a pairwise judge: the better
// answer's name, a tie, or an arena-style comparison.
func pairwiseChoice(s string) (Verdict, bool) {
	n := judgereply.NormLabel(s)
	switch strings.ReplaceAll(n, " ", "") {
	case "a>>b", "a>b", "a≫b", "b<a", "b<<a":
		return VerdictPass, true
	case "b>>a", "b>a", "b≫a", "a<b", "a<<b":
		return VerdictFail, true
	case "a=b", "b=a", "a==b":
		return VerdictAbstain, true
	}
	switch n {
	case "a", "answer a", "assistant a", "response a", "output a":
		return VerdictPass, true
	case "b", "answer b", "assistant b", "response b", "output b":
		return VerdictFail, true
	case "c", "tie", "draw", "equal", "neither", "both":
		return VerdictAbstain, true
	}
	return VerdictAbstain, false
}

// lastLinePreference reports whether s, the reply's last line, names an
// answer as a choice rather than as a word of a cut-off sentence: a tie
// word alone ("Both") is no verdict there; "a" in lower case is the
// article.
func lastLinePreference(s string) bool {
	l := judgereply.LettersOf(s)
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
func rankedVerdict(rs []judgereply.Ranked) (readVerdict, error) {
	first, second := math.NaN(), math.NaN()
	for _, e := range rs {
		switch strings.ToLower(strings.TrimSpace(e.Name)) {
		case "model_1", "model 1", "a", "answer a", "answer_a", "output_1", "output (a)":
			first = e.Rank
		case "model_2", "model 2", "b", "answer b", "answer_b", "output_2", "output (b)":
			second = e.Rank
		default:
			return readVerdict{}, fmt.Errorf("%w: the ranking names %q, not answer A or B", judgereply.ErrNoVerdict, kit.ClipRunes(e.Name, 40))
		}
	}
	switch {
	case len(rs) != 2 || math.IsNaN(first) || math.IsNaN(second):
		return readVerdict{}, fmt.Errorf("%w: the ranking does not rank both answers once", judgereply.ErrNoVerdict)
	case first < second:
		return readVerdict{verdict: VerdictPass}, nil
	case second < first:
		return readVerdict{verdict: VerdictFail}, nil
	}
	return readVerdict{verdict: VerdictAbstain}, nil
}
