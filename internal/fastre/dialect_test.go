package fastre

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

func TestTranslate(t *testing.T) {
	rg := func(class string) string {
		r, ok := ranges(class, false)
		if !ok {
			t.Fatalf("ranges(%#q) failed", class)
		}
		return r
	}
	tests := []struct {
		pattern, bt, sk string
		feats           Feature
		why             string
	}{
		{`(<)?\w+(?(1)>)`, `(?<1><)?\w+(?(1)>)`, `(<)?\w+(?:>)`, Conditional, "a conditional on a group number"},
		{`(?P<q>a)(?(q)b|c)`, `(?<1>a)(?(1)b|c)`, `(?P<q>a)(?:b|c)`, Conditional, "a conditional on a bare group name resolves to its number"},
		{`(?<q>a)(?(<q>)b)`, `(?<1>a)(?(1)b)`, `(?<q>a)(?:b)`, Conditional, "PCRE's (?(<name>)...) is the same condition"},
		{`(?(?!x)a|b)`, `(?(?!x)a|b)`, `(?:(?:x)a|b)`, Conditional | Lookahead, "a lookaround condition"},
		{`(?P<q>['"]).*(?P=q)`, `(?<1>[\"\']).*\k<1>`, `(?P<q>['"]).*(?:)`, Backreference, "Python's (?P=name)"},
		{`(?<n>a)\k<n>`, `(?<1>a)\k<1>`, `(?<n>a)(?:)`, Backreference, "a .NET named reference"},
		{`(?<n>a)\k'n'\k{n}`, `(?<1>a)\k<1>\k<1>`, `(?<n>a)(?:)(?:)`, Backreference, "the other two spellings of a named reference"},
		{`(?P<n>a)(b)\1\2`, `(?<1>a)(?<2>b)\k<1>\k<2>`, `(?P<n>a)(b)(?:)(?:)`, Backreference, "groups count left to right, named or not (.NET would number n last)"},
		{`(a)\1+`, `(?<1>a)\k<1>+`, `(a)(?:)+`, Backreference, "a quantified reference"},
		{`(a)\12`, `(?<1>a)\x{a}`, `(a)\12`, 0, "\\12 is an octal escape, as in RE2"},
		{`a++b`, `(?>a+)b`, `a+b`, Possessive, "possessive on a character"},
		{`é*+`, `(?>é*)`, `é*`, Possessive, "possessive on a multi-byte character"},
		{`[a-c]?+x`, `(?>[a-c]?)x`, `[a-c]?x`, Possessive, "possessive on a class"},
		{`[]a]++`, `(?>[\]a]+)`, `[]a]+`, Possessive, "] first in a class is literal"},
		{`(ab|c){2,3}+`, `(?>(?<1>ab|c){2,3})`, `(ab|c){2,3}`, Possessive, "possessive on a group with a counted repeat"},
		{`\d*+\.`, `(?>\d*)\.`, `\d*\.`, Possessive, "possessive on an escape"},
		{`\p{Greek}++`, `(?>` + rg(`[\p{Greek}]`) + `+)`, `\p{Greek}+`, Possessive, "the escape's braces belong to the atom, written as RE2's ranges"},
		{`\pN++`, `(?>` + rg(`[\pN]`) + `+)`, `\pN+`, Possessive, "a one-letter property is one atom"},
		{`\x41++`, `(?>\x41+)`, `\x41+`, Possessive, "a two-digit hex escape is one atom"},
		{`a\++`, `a\++`, `a\++`, 0, "an escaped + is a literal, then a plain quantifier"},
		{`[a++]`, `[\+a]`, `[a++]`, 0, "inside a class + is a literal"},
		{`a+?+`, `a+?+`, `a+?+`, 0, "lazy then + is a nested repeat, left to RE2 to refuse"},
		{`(?>a|ab)c`, `(?>a|ab)c`, `(?:a|ab)c`, AtomicGroup, "an atomic group"},
		{`(?<=\$)\d+(?<!0)`, `(?<=\$)\d+(?<!0)`, `(?:\$)\d+(?:0)`, Lookbehind, "lookbehinds"},
		{`\bx\B`, `(?-i:(?<=\w)(?!\w)|(?<!\w)(?=\w))x(?-i:(?<=\w)(?=\w)|(?<!\w)(?!\w))`, `\bx\B`, 0, "RE2's ASCII word boundary, never folded"},
		{`a$(?m)b$`, `a\z(?m)b$`, `a$(?m)b$`, 0, "$ is \\z until (?m)"},
		{`(?m:a$)b$`, `(?m:a$)b\z`, `(?m:a$)b$`, 0, "a scoped (?m:...) ends with its group"},
		{`[$]`, `[\$]`, `[$]`, 0, "$ in a class is a literal"},
		{`[a-z-[aeiou]]`, `[\-\[a-z]]`, `[a-z-[aeiou]]`, 0, "[ in a class is a literal, never .NET's subtraction"},
		{`[[:alpha:]]`, `[A-Za-z]`, `[[:alpha:]]`, 0, "a POSIX class as RE2 reads it"},
		{`[^\d\s]`, `[^\x{9}-\x{a}\x{c}-\x{d}\x{20}0-9]`, `[^\d\s]`, 0, "a negated class keeps its ^ around RE2's ranges"},
		{`\Qa.b\E*`, `a\.b*`, `a\.b*`, 0, "\\Q...\\E becomes escaped literals"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			tr, err := Translate(tt.pattern, false)
			if err != nil {
				t.Fatalf("Translate: %v (%s)", err, tt.why)
			}
			if tr.Pattern != tt.bt || tr.Skeleton != tt.sk || tr.Features != tt.feats {
				t.Errorf("got %#q, %#q, %v; want %#q, %#q, %v: %s", tr.Pattern, tr.Skeleton, tr.Features, tt.bt, tt.sk, tt.feats, tt.why)
			}
		})
	}
}

func TestCompileBacktracking(t *testing.T) {
	tests := []struct {
		pattern string
		full    bool
		fold    bool
		text    string
		want    bool
		why     string
	}{
		{`(<)?\w+(?(1)>)`, true, false, "<tag>", true, "the conditional needs the closing >"},
		{`(<)?\w+(?(1)>)`, true, false, "<tag", false, "an opened < without its >"},
		{`(<)?\w+(?(1)>)`, true, false, "tag", true, "no < and no >"},
		{`(?P<q>['"]).*(?P=q)`, true, false, "'quoted text'", true, "the same quote closes"},
		{`(?P<q>['"]).*(?P=q)`, true, false, `'quoted text"`, false, "a different quote"},
		{`(?P<n>a)(b)\1`, true, false, "aba", true, `\1 is n, the first group`},
		{`(?P<n>a)(b)\1`, true, false, "abb", false, `\1 is not the second group`},
		{`(\w+) \1`, true, true, "Hello HELLO", true, "IgnoreCase reaches the reference"},
		{`a++b`, true, false, "aaab", true, "possessive then b"},
		{`a++a`, true, false, "aaa", false, "the possessive gives nothing back"},
		{`[ab]*+b`, false, false, "aab", false, "possessive class eats the b"},
		{`(?>a|ab)c`, true, false, "abc", false, "the atomic group keeps a"},
		{`\bcat\b(?=!)`, false, false, "écat!", true, "ASCII boundary: é is not a word character in RE2"},
		{`x$(?=)`, false, false, "x\n", false, "$ is the end of the text, not before a final newline"},
		{`(?<!\d)\d{3}(?!\d)`, false, false, "a 123 b", true, "lookarounds"},
		{`(?<!\d)\d{3}(?!\d)`, false, false, "a 1234 b", false, "no run of exactly three digits"},
		{`(?i)ſ(?=)`, true, false, "S", true, "RE2 folds the long s with s and S; regexp2's lowercasing does not"},
		{`σ(?=)`, true, true, "ς", true, "IgnoreCase folds the sigmas as RE2 does"},
		{`(?i)[^a-z](?=)`, true, false, "ſ", false, "the folded class holds the long s, so its negation does not"},
		{`(?i)s(?-i)s(?=)`, true, false, "Ss", true, "(?-i) ends the folding"},
		{`(?i)s(?-i)s(?=)`, true, false, "sS", false, "the second s is case-sensitive"},
		{`(?i:k)k(?=)`, true, false, "\u212ak", true, "a scoped (?i:...) folds the Kelvin sign"},
		{`\bk\b(?=)`, true, true, "\u212a", false, "the Kelvin sign folds to k but is no word character for RE2's \\b"},
		{`\bk\b(?=)`, true, true, "K", true, "K folds to k"},
		{`\pc(?=x)`, false, false, "\x01x", true, "a class name RE2 knows and .NET does not, as RE2 reads it"},
		{`[^\pL\s]+(?=!)`, false, false, "ab 12!", true, "a negated class with a property"},
		{`[^\pL\s]+(?=!)`, true, false, "éé!", false, "é is a letter"},
		{`[[:^alpha:]]++(?=b)`, false, false, "a12b", true, "a negated POSIX class"},
		{`[[:^alpha:]]++(?=!)`, false, false, "a1!", false, "the possessive class eats the ! too"},
	}
	for _, tt := range tests {
		re, err := CompileBacktracking(tt.pattern, BacktrackOptions{Full: tt.full, IgnoreCase: tt.fold, Timeout: time.Second})
		if err != nil {
			t.Errorf("%#q: %v", tt.pattern, err)
			continue
		}
		got, err := re.MatchString(tt.text)
		if err != nil || got != tt.want {
			t.Errorf("%#q on %q: got %v, %v; want %v: %s", tt.pattern, tt.text, got, err, tt.want, tt.why)
		}
	}
}

func TestCompileBacktrackingErrors(t *testing.T) {
	tests := []struct {
		pattern     string
		unsupported bool
		says        string
	}{
		{`(?(foo)a|b)`, false, `no group named "foo"`},
		{`(?(a-b)x)`, true, "needs a group number, a group name or a lookaround"},
		{`(a)\2`, false, "refers to group 2, and the pattern has 1"},
		{`(?P=x)`, false, `no group named "x"`},
		{`(?U)a(?=b)`, true, "U (ungreedy) flag"},
		{`(a)(?1)`, true, "recursion"},
		{`(?|a)`, true, "branch reset"},
		{`a\q(?=b)`, false, "uses lookahead, and the rest is not valid RE2 syntax"},
		{`a{2000}(?=b)`, false, "invalid repeat count"},
		{`(?=a`, false, "missing closing )"},
		{`a)|(?=b`, false, "unexpected )"},
		{`(?(1)a|b|c)(x)`, false, "backtracking engine refuses"},
		{`(`, false, "missing closing )"},
	}
	if _, err := CompileBacktracking(`(a)\1`, BacktrackOptions{}); err == nil {
		t.Errorf("a zero timeout compiled; want an error (backtracking needs a budget)")
	}
	for _, tt := range tests {
		_, err := CompileBacktracking(tt.pattern, BacktrackOptions{Timeout: time.Second})
		if err == nil {
			t.Errorf("%#q compiled; want an error saying %q", tt.pattern, tt.says)
			continue
		}
		if !strings.Contains(err.Error(), tt.says) || errors.Is(err, ErrUnsupported) != tt.unsupported {
			t.Errorf("%#q: got %v (unsupported %v), want it to say %q (unsupported %v)", tt.pattern, err, errors.Is(err, ErrUnsupported), tt.says, tt.unsupported)
		}
	}
}

// dialectTexts are matched by the fuzz target's patterns.
var dialectTexts = []string{"", "a", "aab", "abc abc", "<tag>", "'x'", "x\n", "é1_ b", "AbA", "aaaa!", "[x]", "ÉK\u212a"}

// atoms and quants build possessive patterns with a known atomic twin.
var (
	atoms  = []string{"a", "é", `\d`, `\w`, `[a-c]`, `[^x]`, "(ab|a)", "(?:b)", ".", `\+`, `\x61`, `\pL`, `\p{Latin}`}
	quants = []string{"*", "+", "?", "{2}", "{1,}", "{0,2}"}
)

// FuzzTranslate checks the translation: it never panics and gives the same
// answer twice; a pattern RE2 accepts has none of the dialect's constructs
// and keeps RE2's answers on regexp2; and spellings of the same construct
// (possessive and atomic, (?P=n) and \k<n>) agree.
func FuzzTranslate(f *testing.F) {
	for _, p := range []string{`(<)?\w+(?(1)>)`, `(?P<q>['"]).*(?P=q)`, `(\w+) \1`, `a++b`, `(?>a|ab)c`, `\bab\b`, `x$`, `[a-[b]]`, `\Qa+\E+`, `(?m)^a$`, `\12`, `(?i)Ab`} {
		f.Add(p, byte(0), byte(0), "", "")
	}
	f.Add("", byte(4), byte(2), "x", "b")
	f.Fuzz(func(t *testing.T, pattern string, ai, qi byte, prefix, suffix string) {
		if len(pattern) > 64 || len(prefix) > 16 || len(suffix) > 16 {
			return
		}
		tr, err := Translate(pattern, false)
		tr2, err2 := Translate(pattern, false)
		if tr != tr2 || (err == nil) != (err2 == nil) {
			t.Fatalf("%#q: two translations differ: %+v %v / %+v %v", pattern, tr, err, tr2, err2)
		}
		if _, rerr := regexp.Compile(pattern); rerr == nil {
			re2Agrees(t, pattern, tr, err)
		} else if re, err := CompileBacktracking(pattern, BacktrackOptions{Timeout: 20 * time.Millisecond}); err == nil {
			for _, s := range dialectTexts {
				_, _ = re.MatchString(s) // no panic; a timeout is an error
			}
		}
		if alt := pythonRef.ReplaceAllString(pattern, `${1}\k<$2>`); alt != pattern && !strings.Contains(pattern, "[") {
			spellingsAgree(t, pattern, alt)
		}
		if ok(prefix) && ok(suffix) {
			atom, q := atoms[int(ai)%len(atoms)], quants[int(qi)%len(quants)]
			spellingsAgree(t, prefix+atom+q+"+"+suffix, prefix+"(?>"+atom+q+")"+suffix)
		}
	})
}

// pythonRef finds (?P=name) not after a backslash.
var pythonRef = regexp.MustCompile(`(^|[^\\])\(\?P=(\w+)\)`)

// ok reports whether s is a whole RE2 pattern without \Q, so that text
// put between two of them is its own atom.
func ok(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil && !strings.Contains(s, `\Q`)
}

// re2Agrees checks that a pattern RE2 accepts has none of the dialect's
// constructs and that its translation keeps RE2's answers on regexp2.
func re2Agrees(t *testing.T, pattern string, tr Translation, err error) {
	t.Helper()
	if err != nil || tr.Features != 0 {
		t.Fatalf("RE2 accepts %#q, but Translate gives %v, %v", pattern, tr.Features, err)
	}
	for _, c := range []struct{ full, fold bool }{{false, false}, {true, false}, {false, true}} {
		if c.fold {
			tr, _ = Translate(pattern, true)
		}
		bt, err := compileTranslation(tr.Pattern, c.full, c.fold)
		if err != nil {
			t.Fatalf("RE2 accepts %#q; regexp2 refuses its translation %#q: %v", pattern, tr.Pattern, err)
		}
		p := pattern
		if c.fold {
			p = "(?i)" + p // as the grader folds RE2 patterns
		}
		re := MustCompile(p, c.full).Plain()
		for _, s := range dialectTexts {
			got, err := bt.MatchString(s)
			if err == nil && got != re.MatchString(s) {
				t.Fatalf("%#q (%+v) on %q: regexp2 on %#q says %v, RE2 says %v", pattern, c, s, tr.Pattern, got, !got)
			}
		}
	}
}

// compileTranslation compiles a translated pattern as CompileBacktracking
// does, with a short budget.
func compileTranslation(p string, full, fold bool) (*regexp2.Regexp, error) {
	if full {
		p = `\A(?:` + p + `)\z`
	}
	opts := regexp2.RegexOptions(regexp2.RE2)
	if fold {
		opts |= regexp2.IgnoreCase
	}
	re, err := regexp2.Compile(p, opts)
	if err == nil {
		re.MatchTimeout = 20 * time.Millisecond
	}
	return re, err
}

// spellingsAgree checks that two spellings of one pattern compile alike
// and, where both compile, give the same answers.
func spellingsAgree(t *testing.T, p1, p2 string) {
	t.Helper()
	for _, full := range []bool{false, true} {
		opts := BacktrackOptions{Full: full, Timeout: 20 * time.Millisecond}
		re1, err1 := CompileBacktracking(p1, opts)
		re2, err2 := CompileBacktracking(p2, opts)
		if err1 != nil || err2 != nil {
			return
		}
		for _, s := range dialectTexts {
			m1, e1 := re1.MatchString(s)
			m2, e2 := re2.MatchString(s)
			if e1 == nil && e2 == nil && m1 != m2 {
				t.Fatalf("on %q (full %v): %#q says %v, %#q says %v", s, full, p1, m1, p2, m2)
			}
		}
	}
}
