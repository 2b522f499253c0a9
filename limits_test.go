package proctor

import (
	"context"
	"testing"
)

func TestLength(t *testing.T) {
	tests := []struct {
		name string
		opts LengthOptions
		out  string
		want Status
		why  string
	}{
		{"max words over", LengthOptions{MaxWords: Ptr(5)}, "one two three four five six", StatusFailed, "six words"},
		{"max words at", LengthOptions{MaxWords: Ptr(5)}, "one two three four five", StatusPassed, "bounds are inclusive"},
		{"code points", LengthOptions{MaxChars: Ptr(3)}, "héé", StatusPassed, "three code points, five bytes"},
		{"emoji", LengthOptions{MaxChars: Ptr(1)}, "😀", StatusPassed, "one code point"},
		{"trimmed", LengthOptions{MaxChars: Ptr(2)}, "  ab \n", StatusPassed, "surrounding space is trimmed"},
		{"min chars", LengthOptions{MinChars: Ptr(10)}, "short", StatusFailed, "five characters"},
		{"min words", LengthOptions{MinWords: Ptr(2)}, "one\ttwo", StatusPassed, "tab separates words"},
		{"min words empty", LengthOptions{MinWords: Ptr(1)}, "   ", StatusFailed, "no words"},
		{"zero max", LengthOptions{MaxChars: Ptr(0)}, "", StatusPassed, "empty output within max 0"},
		{"both", LengthOptions{MinChars: Ptr(1), MaxWords: Ptr(1)}, "two words", StatusFailed, "word bound fails"},
		{"nbsp", LengthOptions{MaxWords: Ptr(1)}, "a\u00a0b", StatusFailed, "no-break space separates words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := must(NewLength(tt.opts)).Grade(context.Background(), sampleOut(tt.out))
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
		})
	}
	for _, bad := range []LengthOptions{{}, {MinChars: Ptr(5), MaxChars: Ptr(4)}, {MinWords: Ptr(3), MaxWords: Ptr(2)}, {MaxChars: Ptr(-1)}} {
		if _, err := NewLength(bad); err == nil {
			t.Errorf("NewLength(%+v): got no error, want one", bad)
		}
	}
}

func TestBlocklist(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		cs    bool
		out   string
		want  Status
		why   string
	}{
		{"capitalised", []string{"darn"}, false, "Darn it.", StatusFailed, "case ignored by default"},
		{"inside word", []string{"darn"}, false, "The darning needle.", StatusPassed, "darning is another word"},
		{"case sensitive", []string{"darn"}, true, "Darn it.", StatusPassed, "case kept"},
		{"phrase", []string{"darn it"}, false, "oh DARN IT!", StatusFailed, "phrases match whole"},
		{"unicode boundary", []string{"café"}, false, "cafés are nice", StatusPassed, "s continues the word"},
		{"unicode word", []string{"café"}, false, "Un CAFÉ, s'il vous plaît", StatusFailed, "Unicode folding"},
		{"accent continues word", []string{"cafe"}, false, "café", StatusPassed, "é is a letter, so cafe is not whole"},
		{"digits join", []string{"x"}, false, "x1 x2", StatusPassed, "digits continue a word"},
		{"underscore joins", []string{"foo"}, false, "foo_bar", StatusPassed, "_ continues a word"},
		{"punctuation word", []string{"c++"}, false, "I like C++.", StatusFailed, "no boundary needed after +"},
		{"later occurrence", []string{"darn"}, false, "darning, then darn.", StatusFailed, "the second occurrence is whole"},
		{"shorter word whole", []string{"a b", "a"}, false, "a bc", StatusFailed, "a stands whole where 'a b' did not"},
		{"prefix list", []string{"darn", "darning"}, false, "The darning needle.", StatusFailed, "darning itself is listed"},
		{"clean", []string{"darn", "heck"}, false, "All fine here.", StatusPassed, "nothing listed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := must(NewBlocklist(tt.words, BlocklistOptions{CaseSensitive: tt.cs}))
			got := g.Grade(context.Background(), sampleOut(tt.out))
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
		})
	}
	for _, bad := range [][]string{nil, {""}, {"ok", "  "}} {
		if _, err := NewBlocklist(bad, BlocklistOptions{}); err == nil {
			t.Errorf("NewBlocklist(%q): got no error, want one", bad)
		}
	}
}

func FuzzBlocklist(f *testing.F) {
	for _, s := range []string{"Darn it.", "darning", "", "\xffdarn\xff", "DARN", "darn_"} {
		f.Add(s)
	}
	g := must(NewBlocklist([]string{"darn", "c++", "café"}, BlocklistOptions{}))
	f.Fuzz(func(t *testing.T, out string) {
		st := g.Grade(context.Background(), sampleOut(out)).Status
		if st != StatusPassed && st != StatusFailed {
			t.Fatalf("status %v", st)
		}
	})
}
