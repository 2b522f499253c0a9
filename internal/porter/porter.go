// Package porter is the Porter stemmer as NLTK's PorterStemmer computes it
// in its default mode (NLTK_EXTENSIONS), which is what Google's rouge-score
// uses when use_stemmer is set.
//
// It stems lower-case ASCII words; other input is returned as it is after
// lower-casing, as NLTK would leave it (rouge-score only stems [a-z0-9]+
// tokens longer than three characters).
package porter

import "strings"

// irregular maps NLTK's irregular forms to their stems; the stemming steps
// are bypassed for them.
var irregular = map[string]string{
	"sky": "sky", "skies": "sky",
	"dying": "die", "lying": "lie", "tying": "tie",
	"news":    "news",
	"innings": "inning", "inning": "inning",
	"outings": "outing", "outing": "outing",
	"cannings": "canning", "canning": "canning",
	"howe":    "howe",
	"proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}

// Stem returns the stem of word, lower-cased first.
func Stem(word string) string {
	stem := strings.ToLower(word)
	if s, ok := irregular[word]; ok {
		return s
	}
	if len(word) <= 2 {
		return stem
	}
	stem = step1a(stem)
	stem = step1b(stem)
	stem = step1c(stem)
	stem = step2(stem)
	stem = step3(stem)
	stem = step4(stem)
	stem = step5a(stem)
	return step5b(stem)
}

// isCons reports whether w[i] is a consonant in Porter's sense: not a
// vowel, and y only when it starts the word or follows a vowel.
func isCons(w string, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isCons(w, i-1)
	}
	return true
}

// measure is Porter's m: the number of vowel-consonant transitions.
func measure(stem string) int {
	m := 0
	prevVowel := false
	for i := range len(stem) {
		c := isCons(stem, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

func positive(stem string) bool { return measure(stem) > 0 }
func gt1(stem string) bool      { return measure(stem) > 1 }

func containsVowel(stem string) bool {
	for i := range len(stem) {
		if !isCons(stem, i) {
			return true
		}
	}
	return false
}

func endsDoubleCons(w string) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isCons(w, n-1)
}

func endsCVC(w string) bool {
	n := len(w)
	if n >= 3 && isCons(w, n-3) && !isCons(w, n-2) && isCons(w, n-1) {
		switch w[n-1] {
		case 'w', 'x', 'y':
		default:
			return true
		}
	}
	return n == 2 && !isCons(w, 0) && isCons(w, 1)
}

type rule struct {
	suffix, repl string
	cond         func(stem string) bool
}

// apply applies the first rule whose suffix matches; a matching rule whose
// condition fails stops the list.
func apply(word string, rules []rule) string {
	for _, r := range rules {
		if strings.HasSuffix(word, r.suffix) {
			stem := word[:len(word)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return stem + r.repl
			}
			return word
		}
	}
	return word
}

var step1aRules = []rule{{"sses", "ss", nil}, {"ies", "i", nil}, {"ss", "ss", nil}, {"s", "", nil}}

func step1a(w string) string {
	if len(w) == 4 && strings.HasSuffix(w, "ies") {
		return w[:1] + "ie"
	}
	return apply(w, step1aRules)
}

func step1b(w string) string {
	if strings.HasSuffix(w, "ied") {
		if len(w) == 4 {
			return w[:1] + "ie"
		}
		return w[:len(w)-3] + "i"
	}
	if strings.HasSuffix(w, "eed") {
		stem := w[:len(w)-3]
		if measure(stem) > 0 {
			return stem + "ee"
		}
		return w
	}
	var inter string
	ok := false
	for _, suf := range [...]string{"ed", "ing"} {
		if strings.HasSuffix(w, suf) {
			inter = w[:len(w)-len(suf)]
			if containsVowel(inter) {
				ok = true
				break
			}
		}
	}
	if !ok {
		return w
	}
	for _, suf := range [...]string{"at", "bl", "iz"} {
		if strings.HasSuffix(inter, suf) {
			return inter + "e"
		}
	}
	if endsDoubleCons(inter) {
		switch inter[len(inter)-1] {
		case 'l', 's', 'z':
			return inter
		}
		return inter[:len(inter)-1]
	}
	if measure(inter) == 1 && endsCVC(inter) {
		return inter + "e"
	}
	return inter
}

func step1c(w string) string {
	if strings.HasSuffix(w, "y") {
		stem := w[:len(w)-1]
		if len(stem) > 1 && isCons(stem, len(stem)-1) {
			return stem + "i"
		}
	}
	return w
}

var step2Rules = []rule{
	{"ational", "ate", positive},
	{"tional", "tion", positive},
	{"enci", "ence", positive},
	{"anci", "ance", positive},
	{"izer", "ize", positive},
	{"bli", "ble", positive},
	{"alli", "al", positive},
	{"entli", "ent", positive},
	{"eli", "e", positive},
	{"ousli", "ous", positive},
	{"ization", "ize", positive},
	{"ation", "ate", positive},
	{"ator", "ate", positive},
	{"alism", "al", positive},
	{"iveness", "ive", positive},
	{"fulness", "ful", positive},
	{"ousness", "ous", positive},
	{"aliti", "al", positive},
	{"iviti", "ive", positive},
	{"biliti", "ble", positive},
	{"fulli", "ful", positive},
}

func step2(w string) string {
	if strings.HasSuffix(w, "alli") && positive(w[:len(w)-4]) {
		return step2(w[:len(w)-4] + "al")
	}
	// The last rule, logi -> log, keeps the l with the stem: its
	// condition is on the word less "ogi".
	for _, r := range step2Rules {
		if strings.HasSuffix(w, r.suffix) {
			return apply(w, []rule{r})
		}
	}
	if strings.HasSuffix(w, "logi") {
		if positive(w[:len(w)-3]) {
			return w[:len(w)-4] + "log"
		}
	}
	return w
}

var step3Rules = []rule{
	{"icate", "ic", positive},
	{"ative", "", positive},
	{"alize", "al", positive},
	{"iciti", "ic", positive},
	{"ical", "ic", positive},
	{"ful", "", positive},
	{"ness", "", positive},
}

func step3(w string) string { return apply(w, step3Rules) }

var step4Rules = []rule{
	{"al", "", gt1},
	{"ance", "", gt1},
	{"ence", "", gt1},
	{"er", "", gt1},
	{"ic", "", gt1},
	{"able", "", gt1},
	{"ible", "", gt1},
	{"ant", "", gt1},
	{"ement", "", gt1},
	{"ment", "", gt1},
	{"ent", "", gt1},
	{"ion", "", func(stem string) bool {
		return measure(stem) > 1 && (stem[len(stem)-1] == 's' || stem[len(stem)-1] == 't')
	}},
	{"ou", "", gt1},
	{"ism", "", gt1},
	{"ate", "", gt1},
	{"iti", "", gt1},
	{"ous", "", gt1},
	{"ive", "", gt1},
	{"ize", "", gt1},
}

func step4(w string) string { return apply(w, step4Rules) }

func step5a(w string) string {
	if strings.HasSuffix(w, "e") {
		stem := w[:len(w)-1]
		m := measure(stem)
		if m > 1 || m == 1 && !endsCVC(stem) {
			return stem
		}
	}
	return w
}

func step5b(w string) string {
	if strings.HasSuffix(w, "ll") && measure(w[:len(w)-1]) > 1 {
		return w[:len(w)-1]
	}
	return w
}
