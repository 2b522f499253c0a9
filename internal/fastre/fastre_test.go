package fastre

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// patterns covers each shortcut and each reason a shortcut must not apply.
var patterns = []struct {
	pattern string
	fast    string // Fast() for a full match
	why     string
}{
	{`[\s\S]*\n(?:Final answer|Answer): [A-Za-z0-9][^\n]*\s*`, "suffix", "the workload pattern"},
	{`(?s).*x`, "suffix", "(?s).* is any text"},
	{`.*x`, "suffix", ".* without s: the prefix holds no newline"},
	{`.*?ab+c`, "suffix", "a lazy star absorbs the prefix as well"},
	{`[\s\S]*(?:ab|cd)e*`, "suffix", "alternation of literals"},
	{`[\s\S]*[xy]z`, "suffix", "a small class expands into literals"},
	{`([\s\S]*foo)`, "suffix", "a capture around the whole pattern"},
	{`(?i)[\s\S]*foo`, "", "folded literals give no prefix"},
	{`[\s\S]*\bfoo`, "", "an assertion depends on the text before the tail"},
	{`[\s\S]*^foo`, "", "^ depends on the position"},
	{`(?m)[\s\S]*^foo$`, "", "multi-line anchors depend on the text around"},
	{`[\s\S]*a*`, "", "a tail that matches empty gives no literal"},
	{`[\s\S]*\x{FFFD}x`, "", "U+FFFD also matches invalid bytes"},
	{`[\s\S]*[^a]x`, "", "a negated class is too large to expand"},
	{`abc`, "prefix", "a literal prefix"},
	{`(?:abc|abd)\d+`, "prefix", "a set of literal prefixes"},
	{`a{2,}b`, "prefix", "a repeat keeps its first literal"},
	{`\d+`, "", "a digit class is larger than the expansion limit"},
	{`x*y`, "", "a leading star gives no prefix"},
	{``, "", "the empty pattern"},
}

// texts exercise boundaries: newlines, several candidates, invalid UTF-8,
// text around the literal.
var texts = []string{
	"", "x", "\n", "ab", "abc", "abcd", "abd12", "aab", "yz", "xz", "a\nx", "ax",
	"foo", "a foo", "afoo", "FOO", "xfoo\n", "a\nFinal answer: 42", "a\nFinal answer: 42\n\n",
	"a\nFinal answer: 42\nmore", "\nAnswer: x\nAnswer: y", "\nAnswer: !", "Answer: 1",
	"text\n\nFinal answer: \xff", "\xff\nAnswer: 1", "\xe2\x82\nAnswer: 1", "\xef\xbf\xbdx", "\xffx",
	"cdeee", "abe", "\nAnswer: 1\x00", "ab\nab", "abbbbc", "ab\nabbc",
}

func TestCompileFast(t *testing.T) {
	for _, tt := range patterns {
		re, err := Compile(tt.pattern, true)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.pattern, err)
		}
		if got := re.Fast(); got != tt.fast {
			t.Errorf("Compile(%q).Fast() = %q, want %q: %s", tt.pattern, got, tt.fast, tt.why)
		}
	}
}

// TestDifferential checks every pattern on every text, full and search,
// against plain regexp.
func TestDifferential(t *testing.T) {
	for _, tt := range patterns {
		for _, full := range []bool{true, false} {
			re := MustCompile(tt.pattern, full)
			expr := tt.pattern
			if full {
				expr = `^(?:` + tt.pattern + `)$`
			}
			ref := regexp.MustCompile(expr)
			for _, s := range texts {
				if got, want := re.MatchString(s), ref.MatchString(s); got != want {
					t.Errorf("pattern %q full=%v text %q: got %v, want %v", tt.pattern, full, s, got, want)
				}
			}
		}
	}
}

// TestDifferentialRandom runs the suffix-path patterns over random texts
// drawn from an alphabet that hits their literals often.
func TestDifferentialRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", "x", "y", "z", "\n", " ", "Answer: ", "Final answer: ", "foo", "1", "\xff", "é"}
	for _, tt := range patterns {
		re := MustCompile(tt.pattern, true)
		ref := regexp.MustCompile(`^(?:` + tt.pattern + `)$`)
		for range 300 {
			var b strings.Builder
			for range rng.IntN(12) {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			s := b.String()
			if got, want := re.MatchString(s), ref.MatchString(s); got != want {
				t.Fatalf("pattern %q text %q: got %v, want %v", tt.pattern, s, got, want)
			}
		}
	}
}

// TestBudget checks that an input built to defeat the suffix path (many
// candidate starts, each with a long tail) still gets regexp's answer.
func TestBudget(t *testing.T) {
	re := MustCompile(`[\s\S]*\nAnswer: [^\n]*x`, true)
	ref := regexp.MustCompile(`^(?:[\s\S]*\nAnswer: [^\n]*x)$`)
	for _, n := range []int{10, maxCands, maxCands + 1, 500} {
		for _, s := range []string{
			strings.Repeat("\nAnswer: ", n),
			strings.Repeat("\nAnswer: ", n) + "x",
			strings.Repeat("\nAnswer: "+strings.Repeat("y", 200), n) + "x",
		} {
			if got, want := re.MatchString(s), ref.MatchString(s); got != want {
				t.Errorf("n=%d len=%d: got %v, want %v", n, len(s), got, want)
			}
		}
	}
}

func TestPrefixSet(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
	}{
		{`abc`, []string{"abc"}},
		{`ab|cd`, []string{"ab", "cd"}},
		{`[xy]z`, []string{"xz", "yz"}},
		{`a+b`, []string{"a"}},
		{`\nAnswer: \d`, []string{"\nAnswer: "}},
		{`(?:x|y)*z`, nil},
		{`(?i)abc`, nil},
		{`.`, nil},
	}
	for _, tt := range tests {
		re := MustCompile(tt.pattern, true)
		got := slices.Clone(re.starts)
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("prefix set of %q = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, p := range []string{`(`, `a)|(b`, `[`, `a{2000}`} {
		if _, err := Compile(p, true); err == nil {
			t.Errorf("Compile(%q) succeeded, want an error", p)
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, p := range patterns {
		f.Add(p.pattern, "a\nFinal answer: 42", true)
	}
	for _, s := range texts {
		f.Add(`[\s\S]*\nAnswer: \w+`, s, true)
		f.Add(`.*(?:ab|cd)`, s, false)
	}
	f.Fuzz(func(t *testing.T, pattern, s string, full bool) {
		if len(pattern) > 64 || len(s) > 2048 {
			return
		}
		re, err := Compile(pattern, full)
		if err != nil {
			return
		}
		expr := pattern
		if full {
			expr = `^(?:` + pattern + `)$`
		}
		if got, want := re.MatchString(s), regexp.MustCompile(expr).MatchString(s); got != want {
			t.Fatalf("pattern %q full=%v text %q: got %v, want %v (fast=%q)", pattern, full, s, got, want, re.Fast())
		}
	})
}

func BenchmarkSuffix(b *testing.B) {
	const pattern = `[\s\S]*\n(?:Final answer|Answer): [A-Za-z0-9][^\n]*\s*`
	text := strings.Repeat("Some prose about throughput and latency, then more.\n", 24) + "\nFinal answer: 42 percent."
	b.Run("fastre", func(b *testing.B) {
		re := MustCompile(pattern, true)
		for b.Loop() {
			re.MatchString(text)
		}
	})
	b.Run("regexp", func(b *testing.B) {
		re := regexp.MustCompile(`^(?:` + pattern + `)$`)
		for b.Loop() {
			re.MatchString(text)
		}
	})
}

// TestOpenQuote checks that a \Q quote left open to the end of the pattern,
// which RE2 allows, survives the group a full match wraps around it.
func TestOpenQuote(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{`\Q`, "", true},
		{`\Qa.b`, "a.b", true},
		{`\Qa.b`, "axb", false},
		{`x\Q)|(`, "x)|(", true},
		{`\Qa\Eb+`, "abb", true},
		{`\\Q.`, `\Qx`, true},
	}
	for _, tt := range tests {
		re, err := Compile(tt.pattern, true)
		if err != nil {
			t.Errorf("Compile(%#q, full): %v", tt.pattern, err)
			continue
		}
		if got := re.MatchString(tt.text); got != tt.want {
			t.Errorf("%#q on %q: got %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}
