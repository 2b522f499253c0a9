package proctor

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// dialectRow is one pattern RE2 refuses, graded through NewRegex or
// NewNotRegex and through the spec compiler.
type dialectRow struct {
	name    string
	pattern string
	search  bool
	fold    bool
	negate  bool
	output  string
	want    Status
	why     string
}

var dialectRows = []dialectRow{
	{"conditional closes", `(<)?\w+(?(1)>)`, false, false, false, "<tag>", StatusPassed, "the < opened, so the conditional needs the >"},
	{"conditional unclosed", `(<)?\w+(?(1)>)`, false, false, false, "<tag", StatusFailed, "< without >"},
	{"conditional none", `(<)?\w+(?(1)>)`, false, false, false, "tag", StatusPassed, "no < and no >"},
	{"conditional by name", `(?P<o><)?\w+(?(o)>)`, false, false, false, "<tag", StatusFailed, "a condition on a group name"},
	{"python backref", `(?P<q>['"]).*(?P=q)`, false, false, false, "'quoted text'", StatusPassed, "(?P=q) is the same quote"},
	{"python backref differs", `(?P<q>['"]).*(?P=q)`, false, false, false, `'quoted text"`, StatusFailed, "a different closing quote"},
	{"numbered backref", `(\w+) \1`, false, false, false, "hello hello", StatusPassed, `\1 repeats the word`},
	{"numbered backref folded", `(\w+) \1`, false, true, false, "hello HELLO", StatusPassed, "case_sensitive false reaches the reference"},
	{"numbered backref case", `(\w+) \1`, false, false, false, "hello HELLO", StatusFailed, "case-sensitive by default"},
	{"named backref", `(?<w>\w+) \k<w>`, true, false, false, "say bye bye now", StatusPassed, `\k<w> found inside`},
	{"groups left to right", `(?P<a>x)(y)\1`, false, false, false, "xyx", StatusPassed, `\1 is the named group, as in RE2 and Python`},
	{"possessive char", `a++b`, false, false, false, "aaab", StatusPassed, "possessive then b"},
	{"possessive gives nothing back", `a++a`, false, false, false, "aaa", StatusFailed, "a++ keeps every a"},
	{"possessive class", `[a-c]*+c`, false, false, false, "abc", StatusFailed, "the class eats the c"},
	{"possessive group", `(?:ab)++ab`, false, false, false, "abab", StatusFailed, "the group repeat keeps both"},
	{"possessive escape", `\d++\.`, false, false, false, "12.", StatusPassed, `\d++ stops at the dot`},
	{"possessive folded", `A++B`, false, true, false, "aab", StatusPassed, "case_sensitive false on a translated pattern"},
	{"escaped plus is literal", `a\++(?=!)`, true, false, false, "a++!", StatusPassed, `\++ is one or more +, not possessive`},
	{"plus in class is literal", `[a++]b(?=!)`, true, false, false, "+b!", StatusPassed, "[a++] is a class of a and +"},
	{"atomic", `(?>a|ab)c`, false, false, false, "abc", StatusFailed, "the atomic group commits to a"},
	{"lookbehind", `(?<=\$)\d+`, true, false, false, "cost $42", StatusPassed, "digits after $"},
	{"negative lookbehind", `(?<!\$)\b\d+`, true, false, false, "cost $42", StatusFailed, "every number follows $"},
	{"not_regex conditional match", `(<)?\w+(?(1)>)`, true, false, true, "a <b> c", StatusFailed, "not_regex fails on a match"},
	{"not_regex backref none", `(\w+) \1`, true, false, true, "no repeats here", StatusPassed, "no repeated word"},
	{"not_regex full", `(\w+) \1`, false, false, true, "hi hi there", StatusPassed, "match=full: a partial match is no match"},
	{"not_regex possessive folded", `X++Y`, true, true, true, "the xxy", StatusFailed, "a folded match fails not_regex"},
	{"full wrap keeps alternation", `a|(?=b)bc`, false, false, false, "abc", StatusFailed, `\A(?:a|(?=b)bc)\z, not \Aa|(?=b)bc\z`},
	{"conditional on lookahead digits", `(?(?=\d)\d{3}|[a-z]+)`, false, false, false, "123", StatusPassed, "docs/regex.md: three digits"},
	{"conditional on lookahead letters", `(?(?=\d)\d{3}|[a-z]+)`, false, false, false, "12ab", StatusFailed, "a digit first needs three digits"},
	{"negative lookahead todo", `^(?!.*\bTODO\b).*$`, false, false, true, "all done", StatusFailed, "docs/regex.md: no TODO, so not_regex (full) sees a match"},
	{"lookahead dollars", `\d+(?= dollars)`, true, false, false, "it costs 40 dollars", StatusPassed, "docs/regex.md: digits before dollars"},
	{"ascii boundary", `\bcat\b(?=!)`, true, false, false, "écat!", StatusPassed, "é is not a word character in RE2"},
}

func TestRegexDialect(t *testing.T) {
	c := NewCompiler()
	for _, tt := range dialectRows {
		t.Run(tt.name, func(t *testing.T) {
			opts := RegexOptions{Match: MatchFull, IgnoreCase: tt.fold}
			if tt.search {
				opts.Match = MatchSearch
			}
			g, err := newRegex("regex", tt.pattern, opts, tt.negate)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if g.bt == nil {
				t.Fatalf("%#q ran on RE2; want the backtracking engine", tt.pattern)
			}
			if got := g.Grade(context.Background(), &Sample{Output: tt.output}); got.Status != tt.want {
				t.Errorf("grader: got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
			ch, err := c.Compile(dialectSpec(tt))
			if err != nil {
				t.Fatal(err)
			}
			if got := gradeOutput(ch.Grader, tt.output); got.Status != tt.want {
				t.Errorf("spec: got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
		})
	}
}

// dialectSpec writes a row as a spec.
func dialectSpec(tt dialectRow) []byte {
	m := map[string]any{"type": "regex", "pattern": tt.pattern, "match": "full"}
	if tt.negate {
		m["type"] = "not_regex"
	}
	if tt.search {
		m["match"] = "search"
	}
	if tt.fold {
		m["case_sensitive"] = false
	}
	b, _ := json.Marshal(m)
	return b
}

// TestRegexRE2First checks that patterns RE2 takes never reach the
// backtracking engine, including ones that look like its constructs.
func TestRegexRE2First(t *testing.T) {
	for _, p := range []string{`\d+`, `[a++]`, `a\++`, `\(?=x`, `[(?=]`, `(?P<n>a)`, `(?i)abc`, `\12`, `a+?`, `\bx\b`} {
		g, err := NewRegex(p, RegexOptions{})
		if err != nil {
			t.Errorf("%#q: %v", p, err)
			continue
		}
		if g.re == nil || g.bt != nil {
			t.Errorf("%#q: want RE2 only", p)
		}
	}
}

func TestRegexDialectTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs into the 250 ms match budget")
	}
	// (a+)+ before a b that never comes backtracks exponentially; the
	// backreference sends the pattern to the backtracking engine.
	const pattern = `(a+)+b\1`
	out := strings.Repeat("a", 40)
	for _, g := range []*Regex{
		MustRegex(pattern, RegexOptions{}),
		MustRegex(pattern, RegexOptions{Match: MatchSearch, IgnoreCase: true}),
		MustNotRegex(pattern, RegexOptions{}),
	} {
		got := g.Grade(context.Background(), &Sample{Output: out})
		if got.Status != StatusFailed || !strings.Contains(got.Reason, "ran out of its 250ms match time budget") {
			t.Errorf("%s %v: got %v %q, want failed naming the 250ms budget", g.Name(), g.match, got.Status, got.Reason)
		}
	}
}

func TestRegexDialectErrors(t *testing.T) {
	tests := []struct {
		pattern string
		says    string
	}{
		{`(?(foo)a|b)`, `refers to no group named "foo"`},
		{`(a)\2`, `refers to group 2, and the pattern has 1`},
		{`(?P=q)`, `no group named "q"`},
		{`(?U)a(?=b)`, "U (ungreedy) flag"},
		{`(a)(?1)`, "recursion"},
		{`a\q(?=b)`, "uses lookahead, and the rest is not valid RE2 syntax"},
		{`a)|(?=b`, "unexpected )"},
		{`(?(1)a|b|c)(x)`, "uses conditional, which the backtracking engine refuses"},
		{`a{2000}`, "invalid repeat count"},
		{`(?R)`, "recursion and branch reset need a PCRE engine"},
		{`(?P>n)(?P<n>a)`, "recursion and branch reset need a PCRE engine"},
		{`(?|a|b)`, "recursion and branch reset need a PCRE engine"},
		{`(?#note)a`, "invalid or unsupported Perl syntax"},
		{`(?x)a b`, "invalid or unsupported Perl syntax"},
		{`a\Z`, "invalid escape sequence"},
		{strings.Repeat("a", MaxPatternLen+1), "want at most 1024 characters"},
	}
	for _, tt := range tests {
		for _, typ := range []string{"regex", "not_regex"} {
			spec, _ := json.Marshal(map[string]any{"type": typ, "pattern": tt.pattern})
			_, err := NewCompiler().Compile(spec)
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("%s %#q: got %v, want an error saying %q", typ, tt.pattern, err, tt.says)
			}
		}
	}
}

// FuzzRegexDialect checks the grader's choice of engine: a pattern RE2
// takes runs on RE2 alone; any other pattern that compiles runs on the
// backtracking engine and grades passed or failed, the same twice.
func FuzzRegexDialect(f *testing.F) {
	for _, r := range dialectRows {
		f.Add(r.pattern, r.output, r.search)
	}
	f.Fuzz(func(t *testing.T, pattern, output string, search bool) {
		if len(pattern) > 64 || len(output) > 256 {
			return
		}
		opts := RegexOptions{}
		if search {
			opts.Match = MatchSearch
		}
		g, err := NewRegex(pattern, opts)
		_, rerr := regexp.Compile(pattern)
		if rerr == nil && (err != nil || g.bt != nil) {
			t.Fatalf("RE2 takes %#q, but the grader has bt=%v, err=%v", pattern, g != nil && g.bt != nil, err)
		}
		if err != nil {
			return
		}
		s := &Sample{Output: output}
		got, again := g.Grade(context.Background(), s), g.Grade(context.Background(), s)
		if got.Status != StatusPassed && got.Status != StatusFailed || got.Status != again.Status || got.Reason != again.Reason {
			t.Fatalf("%#q on %q: got %v then %v", pattern, output, got, again)
		}
	})
}
