package porter

import (
	"strings"
	"testing"
)

// Values from NLTK: the PorterStemmer example of nltk/test/stem.doctest
// (NLTK_EXTENSIONS, the default mode) and nltk/test/unit/test_stem.py's
// test_oed_bug and test_lowercase_option; the irregular forms are NLTK's
// table in nltk/stem/porter.py.
func TestNLTK(t *testing.T) {
	words := "caresses flies dies mules denied died agreed owned humbled sized meeting stating siezing itemization sensational traditional reference colonizer plotted"
	want := "caress fli die mule deni die agre own humbl size meet state siez item sensat tradit refer colon plot"
	var got []string
	for _, w := range strings.Fields(words) {
		got = append(got, Stem(w))
	}
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	tests := []struct{ in, want string }{
		{"oed", "o"},
		{"On", "on"},
		{"I", "i"},
		{"Github", "github"},
		{"skies", "sky"},
		{"dying", "die"},
		{"news", "news"},
		{"innings", "inning"},
		{"proceed", "proceed"},
		// Porter's paper examples that NLTK mode keeps.
		{"hopping", "hop"},
		{"falling", "fall"},
		{"filing", "file"},
		{"happy", "happi"},
		{"enjoy", "enjoy"},
		{"generously", "gener"},
		{"running", "run"},
	}
	for _, tt := range tests {
		if got := Stem(tt.in); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
