package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/testkit"
)

// templateItem is the item the template rows read their expectations from.
const templateItem = testkit.TemplateItem

// TestValueTemplates runs each templated value option through the
// Compiler on a sample whose item holds the value to compare with: the
// same spec passes or fails by what the item says, not by its literal text.
func TestValueTemplates(t *testing.T) {
	tests := []struct {
		spec, sample string
		want         Status
		why          string
	}{
		{`{"type":"exact_match","expected":"{{item.answer}}"}`, `{"output":"paris",` + templateItem + `}`, StatusPassed, "case-insensitive by default"},
		{`{"type":"exact_match","expected":"{{item.answer}}"}`, `{"output":"Lyon",` + templateItem + `}`, StatusFailed, "the item's answer is Paris"},
		{`{"type":"exact_match","expected":"{{item.answer}}"}`, `{"output":"{{item.answer}}",` + templateItem + `}`, StatusFailed, "never the literal braces"},
		{`{"type":"exact_match","expected":"{{item.answer}}","case_sensitive":true}`, `{"output":"paris",` + templateItem + `}`, StatusFailed, "options still apply"},
		{`{"type":"exact_match","expected":"{{item.answer}}"}`, `{"output":"Paris","expected":"Lyon",` + templateItem + `}`, StatusPassed, "the spec's template wins over the sample's expected"},
		{`{"type":"exact_match","expected":"{{item.num}}"}`, `{"output":"42",` + templateItem + `}`, StatusPassed, "a number renders as its JSON text"},
		{`{"type":"exact_match","expected":"{{expected}}!"}`, `{"output":"yes!","expected":"yes"}`, StatusPassed, "{{expected}} is the sample's expected"},
		{`{"type":"one_of","values":["{{item.answer}}","Rome"]}`, `{"output":"Paris",` + templateItem + `}`, StatusPassed, "a templated value among literals"},
		{`{"type":"one_of","values":["{{item.answer}}","Rome"]}`, `{"output":"Rome",` + templateItem + `}`, StatusPassed, "the literal value still counts"},
		{`{"type":"one_of","values":["{{item.answer}}","Rome"]}`, `{"output":"Lyon",` + templateItem + `}`, StatusFailed, "neither"},
		{`{"type":"contains","value":"{{item.answer}}"}`, `{"output":"It is Paris.",` + templateItem + `}`, StatusPassed, "contains the item's answer"},
		{`{"type":"contains","values":["{{item.answer}}","{{item.code}}"],"mode":"any"}`, `{"output":"Code A-17",` + templateItem + `}`, StatusPassed, "any of two templates"},
		{`{"type":"contains","values":["{{item.answer}}","{{item.code}}"]}`, `{"output":"Code A-17",` + templateItem + `}`, StatusFailed, "all of two templates"},
		{`{"type":"contains","value":"{{item.answer}}","case_sensitive":false}`, `{"output":"PARIS",` + templateItem + `}`, StatusPassed, "case folded"},
		{`{"type":"contains","value":"{{item.empty}}"}`, `{"output":"anything",` + templateItem + `}`, StatusNotGraded, "an empty rendered value would match every output"},
		{`{"type":"not_contains","value":"{{item.answer}}"}`, `{"output":"It is Paris.",` + templateItem + `}`, StatusFailed, "holds the item's answer"},
		{`{"type":"not_contains","value":"{{item.answer}}"}`, `{"output":"It is Lyon.",` + templateItem + `}`, StatusPassed, "lacks it"},
		{`{"type":"starts_with","value":"{{item.prefix}}"}`, `{"output":"Dear customer,",` + templateItem + `}`, StatusPassed, "the item's prefix"},
		{`{"type":"starts_with","value":"{{item.prefix}} customer"}`, `{"output":"Hello customer",` + templateItem + `}`, StatusFailed, "text around a variable"},
		{`{"type":"ends_with","value":"{{item.sign}}"}`, `{"output":"Best Regards.",` + templateItem + `}`, StatusPassed, "the item's suffix"},
		{`{"type":"ends_with","value":"{{item.sign}}"}`, `{"output":"Best wishes.",` + templateItem + `}`, StatusFailed, "another suffix"},
		{`{"type":"regex","pattern":"Order {{item.code}} .*","match":"full"}`, `{"output":"Order A-17 shipped",` + templateItem + `}`, StatusPassed, "the code inside a pattern"},
		{`{"type":"regex","pattern":"Order {{item.code}}"}`, `{"output":"Order A-18",` + templateItem + `}`, StatusFailed, "another code"},
		{`{"type":"regex","pattern":"{{item.regex}}"}`, `{"output":"axxb",` + templateItem + `}`, StatusFailed, "an item value is literal text, not pattern syntax"},
		{`{"type":"regex","pattern":"{{item.regex}}"}`, `{"output":"a.+b",` + templateItem + `}`, StatusPassed, "it matches itself"},
		{`{"type":"regex","pattern":"{{item.code}}{2}"}`, `{"output":"A-17A-17",` + templateItem + `}`, StatusPassed, "a quantifier after a variable repeats the whole value"},
		{`{"type":"regex","pattern":"{{item.code}}{2}"}`, `{"output":"A-177",` + templateItem + `}`, StatusFailed, "not its last character"},
		{`{"type":"regex","pattern":"x{{item.empty}}+y"}`, `{"output":"xy",` + templateItem + `}`, StatusPassed, "an empty value before a quantifier still compiles"},
		{`{"type":"regex","pattern":"(?i)^{{item.answer}}$"}`, `{"output":"PARIS",` + templateItem + `}`, StatusPassed, "flags in the pattern"},
		{`{"type":"regex","pattern":"\\{{2}{{item.code}}"}`, `{"output":"{{A-17",` + templateItem + `}`, StatusPassed, "an escaped brace is not a variable"},
		{`{"type":"not_regex","pattern":"\\b{{item.answer}}\\b"}`, `{"output":"Paris is big",` + templateItem + `}`, StatusFailed, "not_regex finds the word"},
		{`{"type":"not_regex","pattern":"\\b{{item.answer}}\\b"}`, `{"output":"Lyon is big",` + templateItem + `}`, StatusPassed, "not_regex finds nothing"},
		{`{"type":"choice","expected":"{{item.letter}}"}`, `{"output":"The answer is C.",` + templateItem + `}`, StatusPassed, "the item's letter"},
		{`{"type":"choice","expected":"{{item.letter}}"}`, `{"output":"The answer is B.",` + templateItem + `}`, StatusFailed, "another letter"},
		{`{"type":"choice","expected":"{{item.answer}}"}`, `{"output":"B",` + templateItem + `}`, StatusNotGraded, "a rendered value that is no letter"},
		{`{"type":"numeric","expected":"{{item.n}}"}`, `{"output":"It is 1234.5",` + templateItem + `}`, StatusPassed, "the item's number"},
		{`{"type":"numeric","expected":"{{item.num}}","abs_tol":0.5}`, `{"output":"41",` + templateItem + `}`, StatusFailed, "outside the tolerance"},
		{`{"type":"numeric","expected":"{{item.answer}}"}`, `{"output":"42",` + templateItem + `}`, StatusNotGraded, "a rendered value that is no number"},
		{`{"type":"contains","value":"{ {item.answer} }"}`, `{"output":"It is Paris.",` + templateItem + `}`, StatusPassed, "OpenAI's spaced braces"},
	}
	c := NewCompiler()
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			got := gradeSpecSample(t, c, tt.spec, tt.sample)
			if got.Status != tt.want {
				t.Errorf("%s on %s: got %v (%s), want %v", tt.spec, tt.sample, got.Status, got.Reason, tt.want)
			}
		})
	}
}

// TestValueTemplateMissing checks that a variable the sample lacks is not
// graded, with a reason naming the option and the variable, for every
// templated option: never a comparison with an empty string.
func TestValueTemplateMissing(t *testing.T) {
	tests := []struct{ spec, option string }{
		{`{"type":"exact_match","expected":"{{item.nope}}"}`, "expected"},
		{`{"type":"exact_match","expected":"{{expected}}"}`, "expected"},
		{`{"type":"one_of","values":["Rome","{{item.nope}}"]}`, "values"},
		{`{"type":"contains","value":"{{item.nope}}"}`, "value"},
		{`{"type":"not_contains","values":["{{item.nope}}"]}`, "values"},
		{`{"type":"starts_with","value":"{{item.nope}}"}`, "value"},
		{`{"type":"ends_with","value":"{{item.nope}}"}`, "value"},
		{`{"type":"regex","pattern":".*{{item.nope}}"}`, "pattern"},
		{`{"type":"not_regex","pattern":"{{item.nope}}"}`, "pattern"},
		{`{"type":"choice","expected":"{{item.nope}}"}`, "expected"},
		{`{"type":"numeric","expected":"{{item.nope}}"}`, "expected"},
	}
	c := NewCompiler()
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			// Output "" and the sample's expected "" would pass an
			// empty-string comparison for most of these types.
			got := gradeSpecSample(t, c, tt.spec, `{"output":"","item":{"answer":"Paris"}}`)
			if got.Status != StatusNotGraded {
				t.Fatalf("got %v (%s), want not graded", got.Status, got.Reason)
			}
			if !errors.Is(got.Err, ErrMissingVariable) {
				t.Errorf("Err = %v, want ErrMissingVariable", got.Err)
			}
			if !strings.HasPrefix(got.Reason, tt.option+": ") {
				t.Errorf("reason %q does not start with the option %q", got.Reason, tt.option)
			}
		})
	}
}

// TestValueTemplateSpecErrors checks that a malformed template, or a
// pattern that could not compile whatever the item holds, is a spec error
// naming the option.
func TestValueTemplateSpecErrors(t *testing.T) {
	runSpecErrors(t, []specErrCase{
		{name: "exact_match unclosed", spec: `{"type":"exact_match","expected":"{{item.answer"}`, option: "expected"},
		{name: "exact_match unknown variable", spec: `{"type":"exact_match","expected":"{{answer}}"}`, option: "expected"},
		{name: "one_of", spec: `{"type":"one_of","values":["a","{{item.}}"]}`, option: "values"},
		{name: "contains value", spec: `{"type":"contains","value":"{{nope}}"}`, option: "value"},
		{name: "contains values", spec: `{"type":"contains","values":["{{item.a..b}}"]}`, option: "values"},
		{name: "starts_with", spec: `{"type":"starts_with","value":"{{"}`, option: "value"},
		{name: "ends_with", spec: `{"type":"ends_with","value":"{{}}"}`, option: "value"},
		{name: "regex", spec: `{"type":"regex","pattern":"a{{item.nope"}`, option: "pattern"},
		{name: "regex never compiles", spec: `{"type":"regex","pattern":"({{item.code}}"}`, option: "pattern"},
		{name: "not_regex", spec: `{"type":"not_regex","pattern":"{{sample.output_json}}"}`, option: "pattern"},
		{name: "choice", spec: `{"type":"choice","expected":"{{item.x"}`, option: "expected"},
		{name: "numeric", spec: `{"type":"numeric","expected":"{{x}}"}`, option: "expected"},
	}, ErrMissingVariable)
}

// TestValueTemplateLiteralPath checks that a value without variables
// builds the same grader as before templates: the concrete type, not a
// wrapper, so that it costs what it did.
func TestValueTemplateLiteralPath(t *testing.T) {
	c := NewCompiler()
	for spec, want := range map[string]string{
		`{"type":"exact_match","expected":"Paris"}`:               "*proctor.ExactMatch",
		`{"type":"exact_match","expected":{"a":"{{item.x}}"}}`:    "*proctor.ExactMatch",
		`{"type":"one_of","values":["a","b"]}`:                    "*proctor.OneOf",
		`{"type":"contains","value":"{ {not a var} }"}`:           "*proctor.Contains",
		`{"type":"starts_with","value":"Dear"}`:                   "*proctor.Affix",
		`{"type":"regex","pattern":"a{2}\\{\\{b"}`:                "*proctor.Regex",
		`{"type":"not_regex","pattern":"x"}`:                      "*proctor.Regex",
		`{"type":"numeric","expected":"12"}`:                      "*proctor.Numeric",
		`{"type":"exact_match","expected":"{{item.answer}}"}`:     "*proctor.expectedSubst",
		`{"type":"contains","value":"{{item.answer}}"}`:           "*proctor.perSample",
		`{"type":"regex","pattern":"{{item.answer}}"}`:            "*proctor.regexTemplate",
		`{"type":"ends_with","value":"{ {sample.output_text} }"}`: "*proctor.perSample",
	} {
		ch, err := c.Compile([]byte(spec))
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if got := goType(ch.Grader); got != want {
			t.Errorf("%s: built %s, want %s", spec, got, want)
		}
	}
}

// TestRegexTemplateCache checks that the cache stays within its bound and
// that a cached pattern grades as a fresh one.
func TestRegexTemplateCache(t *testing.T) {
	ch, err := NewCompiler().Compile([]byte(`{"type":"regex","pattern":"n{{item.i}}"}`))
	if err != nil {
		t.Fatal(err)
	}
	g := ch.Grader.(*regexTemplate)
	for i := range 3 * regexCacheSize {
		n := strconv.Itoa(i)
		s := &Sample{Output: "n" + n, Item: map[string]any{"i": n}}
		for range 2 {
			if got := g.Grade(context.Background(), s); got.Status != StatusPassed {
				t.Fatalf("%d: got %v (%s)", i, got.Status, got.Reason)
			}
		}
		if got := g.Grade(context.Background(), &Sample{Output: "n-", Item: s.Item}); got.Status != StatusFailed {
			t.Fatalf("%d: n- got %v, want failed", i, got.Status)
		}
	}
	if n := g.cache.m.Len(); n != regexCacheSize {
		t.Errorf("cache holds %d entries, want its bound %d", n, regexCacheSize)
	}
	long := &Sample{Output: "x", Item: map[string]any{"i": strings.Repeat("y", 2*MaxPatternLen)}}
	if got := g.Grade(context.Background(), long); got.Status != StatusNotGraded || !errors.Is(got.Err, ErrPatternTooLong) {
		t.Errorf("rendered pattern over the limit: got %v (%s), want not graded with ErrPatternTooLong", got.Status, got.Reason)
	}
}

// FuzzRegexTemplate renders a pattern template whose item value is fuzzed:
// the value is literal text, so the rendered pattern always compiles and
// matches exactly the output that is the value.
func FuzzRegexTemplate(f *testing.F) {
	for _, s := range []string{"a.+b", "(", "\\", "[", "{{item.v}}", "$^|*?", "\xff", "{2}", ""} {
		f.Add(s)
	}
	ch, err := NewCompiler().Compile([]byte(`{"type":"regex","pattern":"{{item.v}}"}`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		s := &Sample{Output: v, Item: map[string]any{"v": v}}
		got := ch.Grade(context.Background(), s)
		trimmed := strings.TrimSpace(v) == v && len(v) <= MaxRegexInput
		switch {
		case len([]rune(v)) > MaxPatternLen/2-len("(?:)"):
			// QuoteMeta may double it past the limit: not graded is right.
		case !utf8.ValidString(v):
			if got.Status != StatusNotGraded {
				t.Fatalf("value %q is not UTF-8, no pattern can hold it: got %v, want not graded", v, got.Status)
			}
		case trimmed && got.Status != StatusPassed:
			t.Fatalf("value %q as its own pattern: got %v (%s), want passed", v, got.Status, got.Reason)
		}
		s.Output = v + "!"
		if got := ch.Grade(context.Background(), s); got.Status == StatusPassed && strings.TrimSpace(s.Output) != strings.TrimSpace(v) {
			t.Fatalf("value %q matched %q as a whole", v, s.Output)
		}
	})
}

// FuzzPatternTemplate parses fuzzed patterns with backslash escapes: no
// panic, errors are *TemplateError, and a pattern without variables keeps
// the literal path.
func FuzzPatternTemplate(f *testing.F) {
	for _, s := range []string{`\{{2}`, `\\{{item.a}}`, `{{item.a}}\`, `a{2}`, `\{\{`, `{{`, `\`} {
		f.Add(s)
	}
	s := &Sample{Item: map[string]any{"a": "x+y"}}
	f.Fuzz(func(t *testing.T, src string) {
		tp, err := parsePatternTemplate(src)
		if err != nil {
			var te *TemplateError
			if !errors.As(err, &te) {
				t.Fatalf("error %v is not a *TemplateError", err)
			}
			return
		}
		if tp == nil {
			return
		}
		got, err := tp.render(s, func(v string) string { return "<" + v + ">" })
		if err == nil && !strings.Contains(got, "<") {
			t.Fatalf("rendered %q without quoting its variables: %q", src, got)
		}
	})
}

func gradeSpecSample(t *testing.T, c *Compiler, spec, sample string) Grade {
	t.Helper()
	ch, err := c.Compile([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	if err := json.Unmarshal([]byte(sample), &s); err != nil {
		t.Fatal(err)
	}
	return ch.Grade(context.Background(), &s)
}

func goType(v any) string { return fmt.Sprintf("%T", v) }

// TestValueTemplateJudge checks that llm_answer_match shows the judge the
// item's answer, rendered, and never asks it when the item lacks the key.
func TestValueTemplateJudge(t *testing.T) {
	j := says("j", "fam", "pass", "high")
	c := NewCompiler(WithJudges(j.model()))
	ch, err := c.Compile([]byte(`{"type":"llm_answer_match","expected":"{{item.answer}}"}`))
	if err != nil {
		t.Fatal(err)
	}
	if k := KindOf(ch.Grader); k != KindModel {
		t.Errorf("kind %v, want model", k)
	}
	s := &Sample{Input: "Capital of France?", Output: "Paris.", Item: map[string]any{"answer": "Lutetia-Parisiorum"}}
	if g := ch.Grade(context.Background(), s); g.Status != StatusPassed {
		t.Fatalf("got %v (%s), want passed", g.Status, g.Reason)
	}
	if j.calls() != 1 || !strings.Contains(j.prompts[0], "Lutetia-Parisiorum") || strings.Contains(j.prompts[0], "{{item.answer}}") {
		t.Errorf("the judge's prompt does not hold the rendered answer:\n%s", j.prompts)
	}
	g := ch.Grade(context.Background(), &Sample{Output: "Paris."})
	if g.Status != StatusNotGraded || !errors.Is(g.Err, ErrMissingVariable) {
		t.Errorf("missing item key: got %v (%s), want not graded with ErrMissingVariable", g.Status, g.Reason)
	}
	if j.calls() != 1 {
		t.Errorf("the judge was asked %d times, want once: a missing variable costs no call", j.calls())
	}
}

// TestSpecTypeTemplateFlags checks that a family package's type gets the
// expected and references templates its SpecType asks for, through
// WithSpecTypes, as the root's own types do.
func TestSpecTypeTemplateFlags(t *testing.T) {
	// echo passes when the output equals the sample's expected value, or
	// with refs, its first reference.
	echo := func(refs bool) Builder {
		return func(o *SpecOptions) (Grader, error) {
			want, hasWant := o.OptString("expected")
			return o.Built("expected", Func(o.Name(), func(_ context.Context, s *Sample) Grade {
				switch {
				case hasWant:
				case refs && len(s.References) > 0:
					want = s.References[0]
				case !refs && s.Expected != nil:
					want = *s.Expected
				default:
					return NotGraded("no expected value")
				}
				if s.Output == want {
					return Pass("equal")
				}
				return Fail("want " + want)
			}), nil)
		}
	}
	c := NewCompiler(WithSpecTypes(
		SpecType{Name: "echo", Build: echo(false), ExpectedTemplate: true},
		SpecType{Name: "echo_refs", Build: echo(true), ReferenceTemplates: true},
		SpecType{Name: "echo_plain", Build: echo(false)},
	))
	item := map[string]any{"answer": "Paris"}
	for _, tc := range []struct {
		spec, out string
		want      Status
	}{
		{`{"type":"echo","expected":"{{item.answer}}"}`, "Paris", StatusPassed},
		{`{"type":"echo","expected":"{{item.answer}}"}`, "{{item.answer}}", StatusFailed},
		{`{"type":"echo","expected":"{{item.missing}}"}`, "Paris", StatusNotGraded},
		{`{"type":"echo_refs","references":["{{item.answer}}"]}`, "Paris", StatusPassed},
		{`{"type":"echo_refs","expected":"{{item.answer}}"}`, "Lyon", StatusFailed},
		{`{"type":"echo_plain","expected":"{{item.answer}}"}`, "{{item.answer}}", StatusPassed},
	} {
		ch, err := c.Compile([]byte(tc.spec))
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		g := ch.Grade(context.Background(), &Sample{Output: tc.out, Item: item})
		if g.Status != tc.want {
			t.Errorf("%s on %q: %v (%s), want %v", tc.spec, tc.out, g.Status, g.Reason, tc.want)
		}
	}
}
