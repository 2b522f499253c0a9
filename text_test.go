package proctor

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// containsFoldRef is the definition containsFold implements: some run of
// s with as many runes as sub is strings.EqualFold to sub (simple folding
// maps rune to rune, so a match spans exactly that many runes).
func containsFoldRef(s, sub string) bool {
	n := utf8.RuneCountInString(sub)
	for i := 0; i <= len(s); {
		j, k := i, 0
		for k < n && j < len(s) {
			_, w := utf8.DecodeRuneInString(s[j:])
			j += w
			k++
		}
		if k == n && strings.EqualFold(s[i:j], sub) {
			return true
		}
		if i == len(s) {
			break
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return false
}

func TestContainsFoldASCIIDifferential(t *testing.T) {
	// On ASCII, case folding is lower-casing: strings.ToLower is the
	// reference.
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aAbBkKsSzZ 09.-"
	gen := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		s, sub := gen(rng.IntN(24)), gen(1+rng.IntN(4))
		want := strings.Contains(strings.ToLower(s), strings.ToLower(sub))
		if got := containsFold(s, sub); got != want {
			t.Fatalf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
		}
	}
}

func TestContainsFoldUnicode(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
		why    string
	}{
		{"Temperature 300\u212a", "300k", true, "KELVIN SIGN folds to k"},
		{"300k", "300\u212a", true, "and k to KELVIN SIGN"},
		{"Mi\u017f\u017fion", "MISSION", true, "LONG S folds to s"},
		{"MISSION", "mi\u017fsion", true, "a non-ASCII needle takes the rune path"},
		{"Stra\u00dfe", "STRASSE", false, "ß has no simple fold to ss"},
		{"STRA\u1e9eE", "stra\u00dfe", true, "capital sharp s folds to ß"},
		{"\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c2", true, "final sigma is in Σ's orbit"},
		{"\u00c9COLE", "\u00e9cole", true, "Latin-1 letters fold"},
		{"caf\u00e9", "CAFE", false, "accents are not removed"},
		{"\xffabc", "\ufffdA", true, "an invalid byte reads as U+FFFD, as in strings.EqualFold"},
		{"ab", "abc", false, "needle longer than haystack"},
		{"", "a", false, "empty haystack"},
		{"abc", "", true, "the empty needle is everywhere"},
		{"xx[y", "{Y", false, "[ and { differ by 0x20 but are not letters"},
		{"a@b", "A`B", false, "@ and ` differ by 0x20 but are not letters"},
	}
	for _, tt := range tests {
		if got := containsFold(tt.s, tt.sub); got != tt.want {
			t.Errorf("containsFold(%q, %q) = %v, want %v: %s", tt.s, tt.sub, got, tt.want, tt.why)
		}
		if ref := containsFoldRef(tt.s, tt.sub); ref != tt.want {
			t.Errorf("reference(%q, %q) = %v, want %v: the table is wrong", tt.s, tt.sub, ref, tt.want)
		}
	}
}

func TestContainsFoldUnicodeDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runes := []rune("aAkKsS\u212a\u017f\u00df\u1e9e\u03c3\u03c2\u03a3\u00e9\u00c9 x\xff")
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(runes[rng.IntN(len(runes))])
		}
		return b.String()
	}
	for range 20000 {
		s, sub := gen(rng.IntN(12)), gen(1+rng.IntN(3))
		if got, want := containsFold(s, sub), containsFoldRef(s, sub); got != want {
			t.Fatalf("containsFold(%q, %q) = %v, reference %v", s, sub, got, want)
		}
	}
}

// TestASCIIFoldOrbits checks the premise of asciiFoldSafe against the
// unicode tables: the only runes outside ASCII that fold to an ASCII rune
// are KELVIN SIGN and LONG S.
func TestASCIIFoldOrbits(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf && r != 0x212a && r != 0x017f {
				t.Errorf("%U folds to ASCII %q: asciiFoldSafe must know it", r, f)
			}
		}
	}
}

func TestContainsGrader(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		opts   ContainsOptions
		neg    bool
		out    string
		want   Status
	}{
		{"all present", []string{"a", "b"}, ContainsOptions{}, false, "xaxb", StatusPassed},
		{"all one missing", []string{"a", "b"}, ContainsOptions{}, false, "xa", StatusFailed},
		{"case-sensitive by default", []string{"Paris"}, ContainsOptions{}, false, "paris", StatusFailed},
		{"ignore case", []string{"Paris"}, ContainsOptions{IgnoreCase: true}, false, "PARIS", StatusPassed},
		{"any one", []string{"a", "b"}, ContainsOptions{Mode: ContainsAny}, false, "xb", StatusPassed},
		{"any none", []string{"a", "b"}, ContainsOptions{Mode: ContainsAny}, false, "xy", StatusFailed},
		{"not_contains none present", []string{"a", "b"}, ContainsOptions{}, true, "xy", StatusPassed},
		{"not_contains one present", []string{"a", "b"}, ContainsOptions{}, true, "xb", StatusFailed},
		{"not_contains any: one absent", []string{"a", "b"}, ContainsOptions{Mode: ContainsAny}, true, "xb", StatusPassed},
		{"not_contains any: all present", []string{"a", "b"}, ContainsOptions{Mode: ContainsAny}, true, "ab", StatusFailed},
		{"not_contains ignore case", []string{"as an ai"}, ContainsOptions{IgnoreCase: true}, true, "As An AI, I", StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := newContains("contains", tt.values, tt.opts, tt.neg)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Grade(context.Background(), &Sample{Output: tt.out}); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
	if _, err := NewContains(nil, ContainsOptions{}); err == nil {
		t.Errorf("NewContains(nil) succeeded: no value would pass everything")
	}
	if _, err := NewContains([]string{""}, ContainsOptions{}); err == nil {
		t.Errorf(`NewContains("") succeeded: the empty value matches every output`)
	}
	for _, neg := range []bool{false, true} {
		if _, err := newContains("contains", []string{"a"}, ContainsOptions{Mode: ContainsMode(7)}, neg); err == nil {
			t.Errorf("newContains(mode 7, negate %v) succeeded: an unknown mode would pass every output", neg)
		}
	}
}

func TestAffixGrader(t *testing.T) {
	tests := []struct {
		name string
		g    *Affix
		out  string
		want Status
	}{
		{"starts trimmed", NewStartsWith("Yes", AffixOptions{}), "  Yes, indeed", StatusPassed},
		{"starts case-sensitive", NewStartsWith("Yes", AffixOptions{}), "yes", StatusFailed},
		{"starts ignore case", NewStartsWith("Yes", AffixOptions{IgnoreCase: true}), "YES!", StatusPassed},
		{"starts kelvin", NewStartsWith("k", AffixOptions{IgnoreCase: true}), "\u212a", StatusPassed},
		{"ends trimmed", NewEndsWith("done.", AffixOptions{}), "all done.\n", StatusPassed},
		{"ends wrong", NewEndsWith("done.", AffixOptions{}), "done!", StatusFailed},
		{"ends ignore case", NewEndsWith("DONE", AffixOptions{IgnoreCase: true}), "done", StatusPassed},
		{"longer than output", NewStartsWith("abc", AffixOptions{IgnoreCase: true}), "ab", StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Grade(context.Background(), &Sample{Output: tt.out}); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
}

// kbOutput is a ~1 KB prose output with the needle near the end.
var kbOutput = strings.Repeat("The committee reviewed the migration plan and the cache policy. ", 15) + "The capital is Paris."

func TestTextGradersDoNotAllocateOnPass(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	ctx := context.Background()
	s := &Sample{Output: kbOutput, Expected: Ptr(strings.ToUpper(kbOutput))}
	graders := map[string]Grader{
		"exact_match":          NewExactMatch(ExactMatchOptions{}),
		"contains":             must(NewContains([]string{"Paris"}, ContainsOptions{})),
		"contains ignore case": must(NewContains([]string{"paris"}, ContainsOptions{IgnoreCase: true})),
		"not_contains":         must(NewNotContains([]string{"London"}, ContainsOptions{})),
		"starts_with":          NewStartsWith("The committee", AffixOptions{}),
		"ends_with":            NewEndsWith("paris.", AffixOptions{IgnoreCase: true}),
		"one_of":               must(NewOneOf([]string{"x", kbOutput}, OneOfOptions{})),
	}
	for name, g := range graders {
		if got := g.Grade(ctx, s); got.Status != StatusPassed {
			t.Fatalf("%s: got %v (%s), want passed", name, got.Status, got.Reason)
		}
		if n := testing.AllocsPerRun(100, func() { g.Grade(ctx, s) }); n != 0 {
			t.Errorf("%s allocates %v times per pass, want 0", name, n)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The benchmarks put each grader beside the bare primitive it wraps, on a
// ~1 KB output; the grader should cost within 1.2x of it.

func BenchmarkContains(b *testing.B) {
	ctx := context.Background()
	s := &Sample{Output: kbOutput}
	b.Run("grader", func(b *testing.B) {
		g := must(NewContains([]string{"Paris"}, ContainsOptions{}))
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("strings.Contains", func(b *testing.B) {
		for b.Loop() {
			_ = strings.Contains(s.Output, "Paris")
		}
	})
	b.Run("grader-ignore-case", func(b *testing.B) {
		g := must(NewContains([]string{"paris"}, ContainsOptions{IgnoreCase: true}))
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("ToLower+Contains", func(b *testing.B) {
		for b.Loop() {
			_ = strings.Contains(strings.ToLower(s.Output), "paris")
		}
	})
}

func BenchmarkStartsWith(b *testing.B) {
	ctx := context.Background()
	s := &Sample{Output: kbOutput}
	b.Run("grader", func(b *testing.B) {
		g := NewStartsWith("The committee", AffixOptions{})
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	// The floor: any grader called through the interface returns a Grade.
	b.Run("floor", func(b *testing.B) {
		var g Grader = Func("floor", func(context.Context, *Sample) Grade { return Pass("") })
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("strings.HasPrefix", func(b *testing.B) {
		for b.Loop() {
			_ = strings.HasPrefix(s.Output, "The committee")
		}
	})
}

func BenchmarkExactMatch(b *testing.B) {
	ctx := context.Background()
	s := &Sample{Output: kbOutput, Expected: Ptr(strings.ToUpper(kbOutput))}
	b.Run("grader", func(b *testing.B) {
		g := NewExactMatch(ExactMatchOptions{})
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("strings.EqualFold", func(b *testing.B) {
		for b.Loop() {
			_ = strings.EqualFold(s.Output, *s.Expected)
		}
	})
}
