package judgereply

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/proctorhq/proctor/internal/kit"
)

// ScoreOnScale returns the score r gave on the scale [lo, hi]: a labelled
// or JSON score, else a number alone on the last line. A score written
// "N/M" or "N out of M" counts only when M is the scale's top; a
// percentage only on a [0, 1] scale (85% is 0.85) or a scale topped by 100.
func ScoreOnScale(r Reply, lo, hi float64) (float64, error) {
	v, of, pct, has := r.Score, r.ScoreOf, r.Percent, r.HasScore
	lv, lof, lpct, lok := ScoreAlone(r.Last)
	switch {
	case !has:
		v, of, pct, has = lv, lof, lpct, lok
	case lok && lv != v:
		return 0, fmt.Errorf("%w: score %g, then %g on the last line", ErrContradictory, v, lv)
	}
	if !has {
		return 0, fmt.Errorf("%w: no score", ErrNoVerdict)
	}
	if of != 0 && of != hi {
		return 0, fmt.Errorf("%w: score %g/%g is not on the scale %g to %g", ErrNoVerdict, v, of, lo, hi)
	}
	if pct {
		switch {
		case lo == 0 && hi == 1:
			v /= 100
		case hi != 100:
			return 0, fmt.Errorf("%w: score %g%% is not on the scale %g to %g", ErrNoVerdict, v, lo, hi)
		}
	}
	return v, nil
}

// PickLabel returns the label of labels r chose: its category key or line
// (which must be listed), else its answer ("(B)", "GRADE: C", {"choice":
// ...}); a different label alone on the last line contradicts either.
// Failing both, the label standing alone on the last or first line, with
// edge set.
func PickLabel(r Reply, labels []string) (label string, edge bool, err error) {
	var c string
	if r.Category != "" {
		var ok bool
		if c, ok = MatchLabel(r.Category, labels, false); !ok {
			return "", false, fmt.Errorf("%w: category %q is not one of the %d listed", ErrNoVerdict, kit.ClipRunes(r.Category, 60), len(labels))
		}
	}
	if r.Choice != "" {
		if ch, ok := MatchLabel(r.Choice, labels, false); ok {
			if c != "" && ch != c {
				return "", false, fmt.Errorf("%w: category %q, then %q", ErrContradictory, c, ch)
			}
			c = ch
		}
	}
	if c != "" {
		if l, ok := MatchLabel(r.Last, labels, true); ok && l != c {
			return "", false, fmt.Errorf("%w: category %q, then %q on the last line", ErrContradictory, c, l)
		}
		return c, false, nil
	}
	c, err = edgeLabel(r, labels)
	return c, true, err
}

// edgeLabel returns the label standing alone on the last line of r, or on
// its first (as a classifier asked to answer first writes it); the two
// must not name different labels.
func edgeLabel(r Reply, labels []string) (string, error) {
	var alone []string
	for line := range strings.Lines(r.Text) {
		if l, ok := MatchLabel(line, labels, true); ok && !slices.Contains(alone, l) {
			alone = append(alone, l)
		}
	}
	if len(alone) > 1 {
		// A list of the labels is no choice among them.
		return "", fmt.Errorf("%w: %d labels stand alone on lines", ErrContradictory, len(alone))
	}
	last, okL := MatchLabel(r.Last, labels, true)
	first, okF := MatchLabel(r.First, labels, true)
	switch {
	case okL && okF && last != first:
		return "", fmt.Errorf("%w: %q on the first line, %q on the last", ErrContradictory, first, last)
	case okL:
		return last, nil
	case okF:
		return first, nil
	}
	return "", fmt.Errorf("%w: no category of the %d listed", ErrNoVerdict, len(labels))
}

// MatchLabel returns the label of labels s names, compared as
// [SameLabel] does. With capitals, a one-letter label must be
// written in capitals.
func MatchLabel(s string, labels []string, capitals bool) (string, bool) {
	if strings.TrimSpace(s) == "" {
		return "", false
	}
	if rest, ok := numberedAnswer(s); ok {
		s = rest // "2. Ok": the option's number, then its label
	}
	for _, l := range labels {
		if !SameLabel(s, l) {
			continue
		}
		if capitals && len([]rune(strings.TrimSpace(l))) == 1 {
			c := []rune(LettersOf(s))
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

// LettersOf returns s with everything but letters and digits trimmed from its ends.
func LettersOf(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
