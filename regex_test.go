package proctor

import (
	"context"
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRegex(t *testing.T) {
	long := strings.Repeat("a", MaxRegexInput+1)
	tests := []struct {
		name    string
		pattern string
		opts    RegexOptions
		negate  bool
		output  string
		want    Status
		why     string
	}{
		{"full default fails on partial", `\d+`, RegexOptions{}, false, "abc 123", StatusFailed, "regex matches the whole output by default"},
		{"full on trimmed output", `\d+`, RegexOptions{}, false, "  123 \n", StatusPassed, "the output is trimmed first"},
		{"full needs every byte", `\d+`, RegexOptions{}, false, "123a", StatusFailed, "a trailing letter breaks a full match"},
		{"search finds inside", `\d+`, RegexOptions{Match: MatchSearch}, false, "abc 123", StatusPassed, "match=search looks anywhere"},
		{"search no match", `\d+`, RegexOptions{Match: MatchSearch}, false, "abc", StatusFailed, "no digit anywhere"},
		{"alternation is grouped", `a|b`, RegexOptions{}, false, "ab", StatusFailed, "^(?:a|b)$, not ^a|b$"},
		{"ignore case", `hello`, RegexOptions{IgnoreCase: true}, false, "HeLLo", StatusPassed, "case_sensitive false"},
		{"case sensitive default", `hello`, RegexOptions{}, false, "HeLLo", StatusFailed, "case_sensitive defaults to true"},
		{"not_regex searches", `(?i)password`, RegexOptions{}, true, "my PASSWORD is", StatusFailed, "not_regex defaults to search and fails on a match"},
		{"not_regex passes", `password`, RegexOptions{}, true, "nothing here", StatusPassed, "no match passes not_regex"},
		{"not_regex full", `\d+`, RegexOptions{Match: MatchFull}, true, "abc 123", StatusPassed, "with match=full a partial match is no match"},
		{"not_regex full matches", `\d+`, RegexOptions{Match: MatchFull}, true, "123", StatusFailed, "whole output matches"},
		{"lookbehind full fails", `(?<=\$)\d+`, RegexOptions{}, false, "$100", StatusFailed, "nothing precedes position 0, so the lookbehind fails a full match"},
		{"lookbehind search", `(?<=\$)\d+`, RegexOptions{Match: MatchSearch}, false, "$100", StatusPassed, "regexp2 finds 100 after $"},
		{"backreference passes", `(\w+) \1`, RegexOptions{}, false, "hello hello", StatusPassed, "backreference via regexp2"},
		{"backreference fails", `(\w+) \1`, RegexOptions{}, false, "hello world", StatusFailed, "different words"},
		{"lookahead ignore case", `(?=.*X)x+`, RegexOptions{IgnoreCase: true}, false, "xXx", StatusPassed, "IgnoreCase reaches regexp2 too"},
		{"redos pattern fails fast", `(a|aa)+$`, RegexOptions{}, false, strings.Repeat("a", 40) + "!", StatusFailed, "RE2 runs it in linear time and the ! breaks the full match"},
		{"empty output", `.*`, RegexOptions{}, false, "", StatusPassed, ".* matches the empty output"},
		{"empty output needs one", `.+`, RegexOptions{}, false, "   ", StatusFailed, "white space alone trims to empty"},
		{"unicode", `[à-ü]+`, RegexOptions{}, false, "éü", StatusPassed, "patterns match runes"},
		{"final answer line", `[\s\S]*\n(?:Final answer|Answer): [A-Za-z0-9][^\n]*\s*`, RegexOptions{}, false, "Some text.\n\nFinal answer: 42", StatusPassed, "the suffix path finds the last line"},
		{"final answer missing", `[\s\S]*\n(?:Final answer|Answer): [A-Za-z0-9][^\n]*\s*`, RegexOptions{}, false, "Some text.\nFinal answer: 42\nmore", StatusFailed, "a line after the answer breaks the full match"},
		{"over the input limit", `a+`, RegexOptions{}, false, long, StatusFailed, "a candidate over 64 KiB is failed, never searched"},
		{"over the input limit, not_regex", `b`, RegexOptions{}, true, long, StatusFailed, "the limit fails not_regex too: no silent pass"},
		{"at the input limit", `a+`, RegexOptions{}, false, long[1:], StatusPassed, "exactly 64 KiB is read"},
		{"limit counts the trimmed output", `a+`, RegexOptions{}, false, "  " + long[1:] + "\n", StatusPassed, "surrounding white space is not part of the candidate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g *Regex
			var err error
			if tt.negate {
				g, err = NewNotRegex(tt.pattern, tt.opts)
			} else {
				g, err = NewRegex(tt.pattern, tt.opts)
			}
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			got := g.Grade(context.Background(), &Sample{Output: tt.output})
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
			if got.Status == StatusFailed && got.Reason == "" {
				t.Errorf("failed without a reason")
			}
		})
	}
}

func TestRegexLimitReasons(t *testing.T) {
	g := MustRegex(`a+`, RegexOptions{})
	got := g.Grade(context.Background(), &Sample{Output: strings.Repeat("a", 70000)})
	if got.Status != StatusFailed || !strings.Contains(got.Reason, "64 KiB") {
		t.Errorf("got %v %q, want failed naming the 64 KiB limit", got.Status, got.Reason)
	}
}

func TestRegexTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs into the 250 ms match budget")
	}
	t.Parallel()
	// (a+)+ before a b that never comes backtracks exponentially inside a
	// lookahead, which sends the pattern to regexp2.
	const pattern = `(?=(a+)+b)`
	out := strings.Repeat("a", 40)
	for _, negate := range []bool{false, true} {
		var g *Regex
		var err error
		if negate {
			g, err = NewNotRegex(pattern, RegexOptions{})
		} else {
			g, err = NewRegex(pattern, RegexOptions{Match: MatchSearch})
		}
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		got := g.Grade(context.Background(), &Sample{Output: out})
		if got.Status != StatusFailed || !strings.Contains(got.Reason, "250ms") {
			t.Errorf("negate=%v: got %v %q, want failed naming the 250ms budget", negate, got.Status, got.Reason)
		}
		if d := time.Since(start); d > 30*time.Second { // no hang; generous for loaded machines
			t.Errorf("negate=%v: took %v, want about the budget", negate, d)
		}
	}
}

func TestNewRegexErrors(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		tooLong bool
		why     string
	}{
		{"too long", strings.Repeat("a", MaxPatternLen+1), true, "over 1,024 characters"},
		{"too long in runes", strings.Repeat("é", MaxPatternLen+1), true, "characters, not bytes, are counted"},
		{"unbalanced", `a)|(b`, false, "wrapping in a group must not make it valid"},
		{"open group", `(`, false, "RE2 syntax error, no lookaround: not sent to regexp2"},
		{"repeat too big", `a{2000}`, false, "RE2 refuses the count and regexp2 is not tried"},
		{"bad lookbehind", `(?<=a`, false, "regexp2 refuses it too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegex(tt.pattern, RegexOptions{})
			if err == nil {
				t.Fatalf("got no error, want one: %s", tt.why)
			}
			if got := errors.Is(err, ErrPatternTooLong); got != tt.tooLong {
				t.Errorf("errors.Is(err, ErrPatternTooLong) = %v, want %v (%v)", got, tt.tooLong, err)
			}
			var se *SpecError
			if errors.As(err, &se) {
				t.Errorf("NewRegex returned a *SpecError; only the spec path does: %v", err)
			}
		})
	}
	if _, err := NewRegex(strings.Repeat("é", MaxPatternLen), RegexOptions{}); err != nil {
		t.Errorf("a pattern of exactly %d characters: %v", MaxPatternLen, err)
	}
	if _, err := NewRegex("a", RegexOptions{Match: MatchMode(9)}); err == nil {
		t.Errorf("an unknown match mode compiled")
	}
}

func TestRegexSpec(t *testing.T) {
	runSpecCases(t, NewCompiler(), []specCase{
		{"regex default full", `{"type":"regex","pattern":"\\d+"}`, "abc 123", StatusFailed},
		{"regex trimmed", `{"type":"regex","pattern":"\\d+"}`, "  123 \n", StatusPassed},
		{"regex search", `{"type":"regex","pattern":"\\d+","match":"search"}`, "abc 123", StatusPassed},
		{"regex case insensitive", `{"type":"regex","pattern":"abc","case_sensitive":false}`, "ABC", StatusPassed},
		{"not_regex default search", `{"type":"not_regex","pattern":"(?i)password"}`, "my PASSWORD is", StatusFailed},
		{"not_regex full", `{"type":"not_regex","pattern":"\\d+","match":"full"}`, "abc 123", StatusPassed},
		{"lookbehind", `{"type":"regex","pattern":"(?<=\\$)\\d+"}`, "$100", StatusFailed},
		{"backreference", `{"type":"regex","pattern":"(\\w+) \\1"}`, "hello hello", StatusPassed},
	})
}

func TestRegexSpecErrors(t *testing.T) {
	runSpecErrors(t, []specErrCase{
		{"pattern too long", nil, `{"type":"regex","pattern":"` + strings.Repeat("a", 1100) + `"}`, "pattern", ErrPatternTooLong},
		{"pattern missing", nil, `{"type":"regex"}`, "pattern", nil},
		{"pattern empty", nil, `{"type":"not_regex","pattern":""}`, "pattern", nil},
		{"pattern not a string", nil, `{"type":"regex","pattern":5}`, "pattern", nil},
		{"pattern invalid", nil, `{"type":"regex","pattern":"("}`, "pattern", nil},
		{"match unknown", nil, `{"type":"regex","pattern":"a","match":"prefix"}`, "match", nil},
		{"case_sensitive not bool", nil, `{"type":"regex","pattern":"a","case_sensitive":"no"}`, "case_sensitive", nil},
		{"unknown option", nil, `{"type":"regex","pattern":"a","flags":"i"}`, "flags", nil},
	}, ErrPatternTooLong)
}

func TestRegexMatchString(t *testing.T) {
	for m, want := range map[MatchMode]string{MatchDefault: "default", MatchFull: "full", MatchSearch: "search", 7: "match_7"} {
		if got := m.String(); got != want {
			t.Errorf("MatchMode(%d).String() = %q, want %q", m, got, want)
		}
	}
}

func TestRegexConcurrent(t *testing.T) {
	gs := []*Regex{
		MustRegex(`[\s\S]*\nAnswer: \d+`, RegexOptions{}),
		MustRegex(`(\w+) \1`, RegexOptions{Match: MatchSearch}),
	}
	outs := []string{"x\nAnswer: 12", "x\nAnswer: no", "say hello hello", "say hi"}
	want := make([][]Status, len(gs))
	for i, g := range gs {
		for _, o := range outs {
			want[i] = append(want[i], g.Grade(context.Background(), &Sample{Output: o}).Status)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				for i, g := range gs {
					for j, o := range outs {
						if got := g.Grade(context.Background(), &Sample{Output: o}).Status; got != want[i][j] {
							t.Errorf("grader %d output %d: got %v, want %v", i, j, got, want[i][j])
						}
					}
				}
			}
		})
	}
	wg.Wait()
}

func TestRegexAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	g := MustRegex(`[\s\S]*\n(?:Final answer|Answer): [A-Za-z0-9][^\n]*\s*`, RegexOptions{})
	for _, out := range []string{"text\nFinal answer: 7", "text without one"} {
		s := &Sample{Output: out}
		if n := testing.AllocsPerRun(100, func() { g.Grade(context.Background(), s) }); n != 0 {
			t.Errorf("Grade(%q) allocates %v times, want 0", out, n)
		}
	}
}

func FuzzRegex(f *testing.F) {
	f.Add(`\d+`, "abc 123", false)
	f.Add(`[\s\S]*\nAnswer: \w+`, "a\nAnswer: b", false)
	f.Add(`(?s).*x$`, "ab\nx", true)
	f.Add(`.*\bword`, "a word", false)
	f.Add(`(?<=a)b`, "ab", true)
	f.Add(`(\w)\1`, "aa", false)
	f.Add(`\Qa.b`, "a.b", false)
	f.Fuzz(func(t *testing.T, pattern, output string, search bool) {
		if len(pattern) > 64 || len(output) > 4096 {
			return
		}
		opts := RegexOptions{}
		if search {
			opts.Match = MatchSearch
		}
		g, err := NewRegex(pattern, opts)
		if err != nil {
			return
		}
		got := g.Grade(context.Background(), &Sample{Output: output})
		if got.Status != StatusPassed && got.Status != StatusFailed {
			t.Fatalf("status %v (%s), want passed or failed", got.Status, got.Reason)
		}
		if g.re == nil {
			return // regexp2: no RE2 reference to compare with
		}
		expr := pattern
		if !search {
			// The parsed tree's String closes an open \Q quote.
			tree, err := syntax.Parse(pattern, syntax.Perl)
			if err != nil {
				t.Fatalf("RE2 ran %#q, but regexp/syntax refuses it: %v", pattern, err)
			}
			expr = `^(?:` + tree.String() + `)$`
		}
		want := regexp.MustCompile(expr).MatchString(strings.TrimSpace(output))
		if (got.Status == StatusPassed) != want {
			t.Fatalf("pattern %q on %q: grader %v, regexp %v", pattern, output, got.Status, want)
		}
	})
}

// benchOutput is a ~1.2 KB answer ending in a final-answer line, like the
// prose of the benchmark workload.
var benchOutput = strings.Repeat("The committee weighs throughput against cost, and the evidence points one way.\n", 15) + "\nFinal answer: 42 percent."

func BenchmarkRegex(b *testing.B) {
	const pattern = `[\s\S]*\n(?:Final answer|Answer): [A-Za-z0-9][^\n]*\s*`
	s := &Sample{Output: benchOutput}
	ctx := context.Background()
	b.Run("grader/full", func(b *testing.B) {
		g := MustRegex(pattern, RegexOptions{})
		b.ReportAllocs()
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("regexp/full", func(b *testing.B) {
		re := regexp.MustCompile(`^(?:` + pattern + `)$`)
		b.ReportAllocs()
		for b.Loop() {
			re.MatchString(benchOutput)
		}
	})
	b.Run("grader/search", func(b *testing.B) {
		g := MustRegex(`Final answer: \d+`, RegexOptions{Match: MatchSearch})
		b.ReportAllocs()
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("regexp/search", func(b *testing.B) {
		re := regexp.MustCompile(`Final answer: \d+`)
		b.ReportAllocs()
		for b.Loop() {
			re.MatchString(benchOutput)
		}
	})
	b.Run("grader/lookbehind", func(b *testing.B) {
		g := MustRegex(`(?<=answer: )\d+`, RegexOptions{Match: MatchSearch})
		b.ReportAllocs()
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	// The backtracking dialect: a possessive quantifier and a Python
	// named backreference, both translated for regexp2.
	b.Run("grader/possessive", func(b *testing.B) {
		g := MustRegex(`Final answer: \d++ percent\.`, RegexOptions{Match: MatchSearch})
		b.ReportAllocs()
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
	b.Run("grader/python-backref", func(b *testing.B) {
		g := MustRegex(`(?P<w>\w+), and (?P=w)`, RegexOptions{Match: MatchSearch})
		b.ReportAllocs()
		for b.Loop() {
			g.Grade(ctx, s)
		}
	})
}
