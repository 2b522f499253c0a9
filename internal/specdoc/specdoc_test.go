package specdoc

import (
	"bytes"
	"strings"
	"testing"
)

func TestProse(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                         "plain",
		"**B** and <YOUR_KEY>":          `\*\*B\*\* and &lt;YOUR_KEY>`,
		`\% is a literal`:               `\\% is a literal`,
		"use {{item.KEY}} or {{input}}": "use `{{item.KEY}}` or `{{input}}`",
		"a {{ without end":              "a {{ without end",
		"*{{x}}*":                       "\\*`{{x}}`\\*",
		"see docs/templates.md.":        "see [docs/templates.md](templates.md).",
	} {
		if got := prose(in); got != want {
			t.Errorf("prose(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cell("a|b"); got != `a\|b` {
		t.Errorf("cell(a|b) = %q", got)
	}
}

func TestWriteType(t *testing.T) {
	types := []Type{
		{Name: "exact_match", Family: "text", Summary: "the output equals the expected answer"},
		{Name: "regex", Family: "text", Summary: "the output matches a regular expression",
			Options: []Option{
				{"pattern", "string", "(required)", "An RE2 pattern."},
				{"match", "string", "full", "full: the pattern must match the whole trimmed output; search: anywhere in it."},
			},
			Example: `{"type": "regex", "pattern": "a+"}`},
	}
	ty, ok := Lookup(types, "regex")
	if !ok {
		t.Fatal("no regex")
	}
	var b bytes.Buffer
	if err := WriteType(&b, ty); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"regex: the output matches a regular expression\n", "\n  pattern ", "(required)", "\n  match ", "full", "The output is trimmed", "Example:\n  {\"type\": \"regex\""} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if _, ok := Lookup(types, "nope"); ok {
		t.Error("Lookup(nope) found something")
	}
}

func TestWrap(t *testing.T) {
	got := wrap("one two three four five six", 9)
	if want := "one two\nthree\nfour five\nsix"; got != want {
		t.Errorf("wrap = %q, want %q", got, want)
	}
	for _, line := range strings.Split(wrap(strings.Repeat("word ", 50), 20), "\n") {
		if len(line) > 20 {
			t.Errorf("line %q longer than 20", line)
		}
	}
}
