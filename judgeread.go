package proctor

import (
	"fmt"
	"math"
	"slices"
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

// scoreOnScale returns the score r gave on the scale [lo, hi]: a labelled
// or JSON score, else a number alone on the last line. A score written
// "N/M" or "N out of M" counts only when M is the scale's top; a
// percentage only on a [0, 1] scale (85% is 0.85) or a scale topped by 100.
func scoreOnScale(r judgereply.Reply, lo, hi float64) (float64, error) {
	v, of, pct, has := r.Score, r.ScoreOf, r.Percent, r.HasScore
	lv, lof, lpct, lok := judgereply.ScoreAlone(r.Last)
	switch {
	case !has:
		v, of, pct, has = lv, lof, lpct, lok
	case lok && lv != v:
		return 0, fmt.Errorf("%w: score %g, then %g on the last line", judgereply.ErrContradictory, v, lv)
	}
	if !has {
		return 0, fmt.Errorf("%w: no score", judgereply.ErrNoVerdict)
	}
	if of != 0 && of != hi {
		return 0, fmt.Errorf("%w: score %g/%g is not on the scale %g to %g", judgereply.ErrNoVerdict, v, of, lo, hi)
	}
	if pct {
		switch {
		case lo == 0 && hi == 1:
			v /= 100
		case hi != 100:
			return 0, fmt.Errorf("%w: score %g%% is not on the scale %g to %g", judgereply.ErrNoVerdict, v, lo, hi)
		}
	}
	return v, nil
}

// pickLabel returns the label of labels r chose: its category key or line
// (which must be listed), else its answer ("(B)", "GRADE: C", {"choice":
// ...}); a different label alone on the last line contradicts either.
// Failing both, the label standing alone on the last or first line, with
// edge set.
func pickLabel(r judgereply.Reply, labels []string) (label string, edge bool, err error) {
	var c string
	if r.Category != "" {
		var ok bool
		if c, ok = matchLabel(r.Category, labels, false); !ok {
			return "", false, fmt.Errorf("%w: category %q is not one of the %d listed", judgereply.ErrNoVerdict, kit.ClipRunes(r.Category, 60), len(labels))
		}
	}
	if r.Choice != "" {
		if ch, ok := matchLabel(r.Choice, labels, false); ok {
			if c != "" && ch != c {
				return "", false, fmt.Errorf("%w: category %q, then %q", judgereply.ErrContradictory, c, ch)
			}
			c = ch
		}
	}
	if c != "" {
		if l, ok := matchLabel(r.Last, labels, true); ok && l != c {
			return "", false, fmt.Errorf("%w: category %q, then %q on the last line", judgereply.ErrContradictory, c, l)
		}
		return c, false, nil
	}
	c, err = edgeLabel(r, labels)
	return c, true, err
}

// edgeLabel returns the label standing alone on the last line of r, or on
// its first (as a classifier asked to answer first writes it); the two
// must not name different labels.
func edgeLabel(r judgereply.Reply, labels []string) (string, error) {
	var alone []string
	for line := range strings.Lines(r.Text) {
		if l, ok := matchLabel(line, labels, true); ok && !slices.Contains(alone, l) {
			alone = append(alone, l)
		}
	}
	if len(alone) > 1 {
		// A list of the labels is no choice among them.
		return "", fmt.Errorf("%w: %d labels stand alone on lines", judgereply.ErrContradictory, len(alone))
	}
	last, okL := matchLabel(r.Last, labels, true)
	first, okF := matchLabel(r.First, labels, true)
	switch {
	case okL && okF && last != first:
		return "", fmt.Errorf("%w: %q on the first line, %q on the last", judgereply.ErrContradictory, first, last)
	case okL:
		return last, nil
	case okF:
		return first, nil
	}
	return "", fmt.Errorf("%w: no category of the %d listed", judgereply.ErrNoVerdict, len(labels))
}

// matchLabel returns the label of labels s names, compared as
// [judgereply.SameLabel] does. With capitals, a one-letter label must be
// written in capitals.
func matchLabel(s string, labels []string, capitals bool) (string, bool) {
	if strings.TrimSpace(s) == "" {
		return "", false
	}
	if rest, ok := numberedAnswer(s); ok {
		s = rest // "2. Ok": the option's number, then its label
	}
	for _, l := range labels {
		if !judgereply.SameLabel(s, l) {
			continue
		}
		if capitals && len([]rune(strings.TrimSpace(l))) == 1 {
			c := []rune(lettersOf(s))
			if len(c) != 1 || !unicode.IsUpper(c[0]) {
				return "", false
			}
		}
		return l, true
	}
	return "", false
}

// numberedAnswer returns s without a leading option number ("2. Ok",
// "3) Good").
func numberedAnswer(s string) (string, bool) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i > 3 || i+1 >= len(t) || (t[i] != '.' && t[i] != ')') || t[i+1] != ' ' {
		return s, false
	}
	return strings.TrimSpace(t[i+1:]), true
}

// lettersOf is s with everything but letters and digits trimmed from its ends.
func lettersOf(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
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
	l := lettersOf(s)
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
