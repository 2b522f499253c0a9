package proctor

import (
	"errors"
	"strings"
	"testing"
)

func TestTemplateRender(t *testing.T) {
	s := &Sample{
		Input: "What is 6*7?", Output: "42", Expected: Ptr("forty-two"),
		Item: map[string]any{"answer": "42", "n": 3.0, "a": map[string]any{"b": "deep"}, "list": []any{"x", "y"}, "obj": map[string]any{"k": true}},
	}
	tests := []struct {
		tmpl, want string
	}{
		{"{{sample.output_text}}", "42"},
		{"{{ sample.output_text }}", "42"},
		{"{ {sample.output_text} }", "42"},
		{"{ { item.answer } }", "42"},
		{"{{output}} vs {{expected}}", "42 vs forty-two"},
		{"Q: {{input}}", "Q: What is 6*7?"},
		{"{{item.a.b}}", "deep"},
		{"{{item.list.1}}", "y"},
		{"{{item.n}}", "3"},
		{"{{item.obj}}", `{"k":true}`},
		{"no variables", "no variables"},
		{"", ""},
		{`{"json": {"x": 1}}`, `{"json": {"x": 1}}`},
		{"{ {not a var} }", "{ {not a var} }"},
		{"a }} b", "a }} b"},
	}
	for _, tt := range tests {
		tp, err := ParseTemplate(tt.tmpl)
		if err != nil {
			t.Errorf("ParseTemplate(%q): %v", tt.tmpl, err)
			continue
		}
		got, err := tp.Render(s)
		if err != nil || got != tt.want {
			t.Errorf("Render(%q) = %q, %v, want %q", tt.tmpl, got, err, tt.want)
		}
	}
}

func TestTemplateErrors(t *testing.T) {
	for _, bad := range []string{"{{item.nope", "{{nope}}", "{{}}", "{{ }}", "{{sample.output_json}}", "{{item.}}", "{{item.a..b}}", "x {{output}} {{", "{ {item.nope"} {
		_, err := ParseTemplate(bad)
		if bad == "{ {item.nope" {
			// A spaced "{ {" that never closes is literal text.
			if err != nil {
				t.Errorf("ParseTemplate(%q): %v, want literal text", bad, err)
			}
			continue
		}
		var te *TemplateError
		if !errors.As(err, &te) {
			t.Errorf("ParseTemplate(%q): got %v, want a *TemplateError", bad, err)
		}
	}
	tp := MustTemplate("{{item.missing.deeper}} {{expected}}")
	_, err := tp.Render(&Sample{Item: map[string]any{}})
	if !errors.Is(err, ErrMissingVariable) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing item key: got %v, want ErrMissingVariable naming the key", err)
	}
	_, err = MustTemplate("{{expected}}").Render(&Sample{})
	if !errors.Is(err, ErrMissingVariable) {
		t.Errorf("missing expected: got %v, want ErrMissingVariable", err)
	}
	_, err = MustTemplate("{{item.list.5}}").Render(&Sample{Item: map[string]any{"list": []any{1}}})
	if !errors.Is(err, ErrMissingVariable) {
		t.Errorf("index out of range: got %v, want ErrMissingVariable", err)
	}
	if got := MustTemplate("{{input}}-{{item.k}}").Variables(); strings.Join(got, ",") != "input,item.k" {
		t.Errorf("Variables() = %v", got)
	}
}

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{"{{sample.output_text}}", "{ {item.section} }", "{{item.nope", "{{", "}}", "{ {", "{{ input }}{{output}}", "{{item.a.b.0}}", "\xff{{", "{{{input}}}"} {
		f.Add(s)
	}
	s := &Sample{Input: "in", Output: "out", Item: map[string]any{"a": map[string]any{"b": []any{"z"}}}}
	f.Fuzz(func(t *testing.T, src string) {
		tp, err := ParseTemplate(src)
		if err != nil {
			var te *TemplateError
			if !errors.As(err, &te) {
				t.Fatalf("ParseTemplate(%q) error %v is not a *TemplateError", src, err)
			}
			return
		}
		if tp.String() != src {
			t.Fatalf("String() = %q, want %q", tp.String(), src)
		}
		got, err := tp.Render(s)
		if err != nil && !errors.Is(err, ErrMissingVariable) {
			t.Fatalf("Render: unexpected error %v", err)
		}
		if err == nil && len(tp.Variables()) == 0 && got != src {
			t.Fatalf("a template without variables renders as itself: got %q, want %q", got, src)
		}
	})
}
