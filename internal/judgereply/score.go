package judgereply

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

var scoreRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*(?:(%)|/\s*([0-9]+(?:\.[0-9]+)?)|out\s+of\s+([0-9]+(?:\.[0-9]+)?))?`)
})

// parseScore reads a score: "4", "**4**", "[[8]]", "8/10", "0.7 out of
// 1", "85%", "4 (good)", "4 - mostly right". A range ("3-4", "3 or 4") or
// a second number run together is not a score.
func parseScore(val string) (score, bool) {
	t := strings.TrimLeftFunc(strings.TrimSpace(val), func(r rune) bool { return isDecoration(r) && r != '+' && r != '-' })
	m := scoreRe().FindStringSubmatch(t)
	if m == nil {
		return score{}, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil || f != f {
		return score{}, false
	}
	s := score{v: f, pct: m[2] != ""}
	if m[3] != "" || m[4] != "" {
		of, err := strconv.ParseFloat(m[3]+m[4], 64)
		if err != nil || of <= 0 {
			return score{}, false
		}
		s.of = of
	}
	if r, _ := utf8.DecodeRuneInString(t[len(m[1]):]); unicode.IsLetter(r) || unicode.IsDigit(r) {
		return score{}, false // "0x1p-2", "4points"
	}
	raw := t[len(m[0]):]
	if r, _ := utf8.DecodeRuneInString(raw); unicode.IsDigit(r) {
		return score{}, false
	}
	rest := strings.TrimLeftFunc(raw, isDecoration)
	rest = strings.TrimLeft(rest, "])")
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return s, true
	}
	switch rest[0] {
	case '.', ',', ';', '(', ':', '!':
		if rest[0] == '.' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9' {
			return score{}, false
		}
		return s, true
	case '-':
		if len(rest) > 1 && (rest[1] == ' ') {
			return s, true
		}
		return score{}, false
	}
	if strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–") {
		r := strings.TrimLeft(rest, "—– ")
		if r != "" && r[0] >= '0' && r[0] <= '9' {
			return score{}, false
		}
		return s, true
	}
	w, _, _ := head(rest)
	switch strings.ToLower(w) {
	case "points", "point", "pts", "stars", "star":
	default:
		if w != "" && rest[0] != '(' && rest[0] != '[' {
			// "2 would mean a fail": a number in a sentence is no score.
			return score{}, false
		}
	}
	if rest[0] >= '0' && rest[0] <= '9' || rest[0] == '/' {
		return score{}, false
	}
	return s, true
}

// isPlainNumber reports whether val is a number alone, decoration aside.
func isPlainNumber(val string) bool {
	t := strings.TrimFunc(val, isDecoration)
	m := scoreRe().FindString(t)
	return m != "" && len(m) == len(t)
}

// PlainScore reads text as a number standing alone, decoration and a
// "Score:"-like label aside ("0.8", "**3**", "Score: 3").
func PlainScore(text string) (float64, bool) {
	v, of, pct, ok := ScoreAlone(text)
	return v, ok && of == 0 && !pct
}

// ScoreAlone reads text as a score standing alone, decoration and a
// "Score:"-like label aside: "0.8", "**3**", "8/10", "85%", "0.7 out of
// 1". It returns the number, the scale's top written with it (0 when
// none) and whether it was a percentage.
func ScoreAlone(text string) (v, of float64, percent, ok bool) {
	t := strings.TrimSpace(text)
	if l, v, ok := splitLabel(t); ok {
		if k := labels[strings.ReplaceAll(l, "_", " ")]; k != kindScore && k != kindFinalScore && k != kindAnswer {
			return 0, 0, false, false
		}
		t = v
	}
	t = strings.TrimFunc(t, isDecoration)
	m := scoreRe().FindStringSubmatch(t)
	if m == nil || len(m[0]) != len(t) {
		return 0, 0, false, false
	}
	s, ok := parseScore(t)
	if !ok || s.v > 1e300 || s.v < -1e300 {
		return 0, 0, false, false
	}
	return s.v, s.of, s.pct, true
}
