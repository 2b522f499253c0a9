package proctor

import (
	"strings"
	"unicode"
	"unicode/utf8"

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

// pairwiseVerdict reads a pairwise reply (judgereply.PairwiseVerdict):
// pass when answer A is better, fail when B is, abstain on a tie.
func pairwiseVerdict(r judgereply.Reply) (readVerdict, error) {
	w, err := judgereply.PairwiseVerdict(r)
	if err != nil {
		return readVerdict{}, err
	}
	v, _ := verdictWord(w)
	return readVerdict{verdict: v}, nil
}
