package proctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
)

// ErrMissingVariable is wrapped by [Template.Render] when a sample lacks
// what a template names: an {{item.KEY}} the sample's item does not hold,
// or {{expected}} on a sample with no expected value. Graders turn it into
// [StatusNotGraded], never into an empty string.
var ErrMissingVariable = errors.New("proctor: template variable missing from the sample")

// TemplateError is a template that does not parse: an unclosed {{, an empty
// or unknown variable. Offset is the byte offset of the variable's opening
// braces in the source.
type TemplateError struct {
	// Source is the whole template text.
	Source string
	// Offset is the byte offset in Source of the variable at fault.
	Offset int
	// Msg says what is wrong.
	Msg string
}

// Error reads `template "SRC": at byte N: MSG`.
func (e *TemplateError) Error() string {
	return fmt.Sprintf("template %s: at byte %d: %s", kit.Quote(e.Source), e.Offset, e.Msg)
}

// Template is a string with variables, parsed once by [ParseTemplate] and
// rendered against each sample. The variables are:
//
//	{{input}}               the sample's input
//	{{output}}              the sample's output
//	{{sample.output_text}}  the sample's output (OpenAI evals' name)
//	{{expected}}            the sample's expected value
//	{{item.KEY}}            a value of the sample's item; item.a.b descends
//	                        into objects and item.list.0 into arrays
//
// Spaces inside the braces are allowed ({{ sample.output_text }}), and so
// are the spaced braces OpenAI's documentation shows ({ {item.section} }).
// There is no escape: text that must hold a literal "{{" cannot be a
// template. Item values that are not strings render as compact JSON.
//
// A Template is immutable and safe for concurrent use.
type Template struct {
	src   string
	parts []tmplPart
}

// tmplPart is literal text (path nil) or a variable.
type tmplPart struct {
	lit  string
	v    tmplVar
	path []string // for varItem: the keys below item
	name string   // the variable as written, for messages
}

type tmplVar uint8

const (
	varNone tmplVar = iota
	varInput
	varOutput
	varExpected
	varItem
)

// templateVars names the variables a template may use, for messages.
const templateVars = "input, output, expected, item.KEY, sample.output_text"

// ParseTemplate parses s. It returns a *[TemplateError] for an unclosed
// "{{", an empty variable or one not among input, output, expected,
// item.KEY and sample.output_text.
func ParseTemplate(s string) (*Template, error) { return parseTemplate(s, false) }

// parseTemplate is [ParseTemplate]; with escapes, a backslash and the byte
// after it are literal text, so that a regular expression's \{ (a literal
// brace) never opens a variable.
func parseTemplate(s string, escapes bool) (*Template, error) {
	t := &Template{src: s}
	lit := 0 // start of the pending literal text
	for i := 0; i < len(s); {
		if escapes && s[i] == '\\' {
			i += 2
			continue
		}
		open, inner := openBraces(s, i)
		if open == 0 {
			i++
			continue
		}
		end, closeLen := closeBraces(s, inner)
		if end < 0 {
			if s[i+1] != '{' {
				// A spaced "{ {" that never closes is ordinary text (JSON,
				// code); only "{{" must close.
				i++
				continue
			}
			return nil, &TemplateError{Source: s, Offset: i, Msg: `unclosed "{{"`}
		}
		name := strings.TrimSpace(s[inner:end])
		p, err := templateVar(name)
		if err != nil {
			if s[i+1] != '{' && !looksLikeVar(name) {
				i++
				continue
			}
			return nil, &TemplateError{Source: s, Offset: i, Msg: err.Error()}
		}
		if lit < i {
			t.parts = append(t.parts, tmplPart{lit: s[lit:i]})
		}
		t.parts = append(t.parts, p)
		i = end + closeLen
		lit = i
	}
	if lit < len(s) {
		t.parts = append(t.parts, tmplPart{lit: s[lit:]})
	}
	return t, nil
}

// MustTemplate is [ParseTemplate] for package-level variables: it panics
// when s does not parse.
func MustTemplate(s string) *Template {
	t, err := ParseTemplate(s)
	if err != nil {
		panic(kit.MustFailed("MustTemplate", s, err))
	}
	return t
}

// openBraces reports the length of the opening braces at s[i:] ("{{" or
// "{", spaces, "{") and where the variable starts; 0 when there are none.
func openBraces(s string, i int) (n, inner int) {
	if s[i] != '{' {
		return 0, 0
	}
	j := i + 1
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) || s[j] != '{' {
		return 0, 0
	}
	return j + 1 - i, j + 1
}

// closeBraces finds the first "}}" or "} }" at or after i and returns its
// offset and length, or -1.
func closeBraces(s string, i int) (int, int) {
	for j := i; j < len(s); j++ {
		if s[j] != '}' {
			continue
		}
		k := j + 1
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k < len(s) && s[k] == '}' {
			return j, k + 1 - j
		}
	}
	return -1, 0
}

// looksLikeVar reports whether name is written like a variable (letters,
// digits, '_', '-', '.'), so that a spaced "{ {...} }" holding one is
// checked, and one holding anything else (code, JSON) stays literal.
func looksLikeVar(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func templateVar(name string) (tmplPart, error) {
	switch name {
	case "":
		return tmplPart{}, errors.New("empty variable (want one of " + templateVars + ")")
	case "input":
		return tmplPart{v: varInput, name: name}, nil
	case "output", "sample.output_text":
		return tmplPart{v: varOutput, name: name}, nil
	case "expected":
		return tmplPart{v: varExpected, name: name}, nil
	}
	if rest, ok := strings.CutPrefix(name, "item."); ok {
		path := strings.Split(rest, ".")
		for _, k := range path {
			if k == "" || !looksLikeVar(k) {
				return tmplPart{}, fmt.Errorf("variable %q: bad key %q after \"item.\"", name, k)
			}
		}
		return tmplPart{v: varItem, path: path, name: name}, nil
	}
	return tmplPart{}, fmt.Errorf("unknown variable %q (want one of %s)", name, templateVars)
}

// String returns the template's source text.
func (t *Template) String() string { return t.src }

// Variables returns the variables t uses, as written, in order.
func (t *Template) Variables() []string {
	var out []string
	for _, p := range t.parts {
		if p.v != varNone {
			out = append(out, p.name)
		}
	}
	return out
}

// Render returns t with each variable replaced by the sample's value. An
// item key the sample lacks, or {{expected}} when it has none, is an error
// wrapping [ErrMissingVariable] that names the variable. A template that is
// a single variable returns the sample's string without copying it.
func (t *Template) Render(s *Sample) (string, error) { return t.render(s, nil) }

// render is [Template.Render] with each variable's value passed through
// quote first, when quote is not nil; literal text is kept as written.
func (t *Template) render(s *Sample, quote func(string) string) (string, error) {
	switch len(t.parts) {
	case 0:
		return "", nil
	case 1:
		return t.parts[0].quoted(s, quote)
	}
	var b strings.Builder
	for i := range t.parts {
		v, err := t.parts[i].quoted(s, quote)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// hasVariables reports whether t holds a variable: a template without one
// renders as its source text whatever the sample.
func (t *Template) hasVariables() bool {
	for i := range t.parts {
		if t.parts[i].v != varNone {
			return true
		}
	}
	return false
}

// quoted is p's value, passed through quote when p is a variable.
func (p *tmplPart) quoted(s *Sample, quote func(string) string) (string, error) {
	v, err := p.value(s)
	if err != nil || quote == nil || p.v == varNone {
		return v, err
	}
	return quote(v), nil
}

func (p *tmplPart) value(s *Sample) (string, error) {
	switch p.v {
	case varNone:
		return p.lit, nil
	case varInput:
		return s.Input, nil
	case varOutput:
		return s.Output, nil
	case varExpected:
		if e, ok := s.ExpectedText(); ok {
			return e, nil
		}
		return "", fmt.Errorf("%w: {{expected}}: the sample has no expected value", ErrMissingVariable)
	}
	var cur any = s.Item
	for i, k := range p.path {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[k]
			if !ok {
				return "", fmt.Errorf("%w: {{%s}}: the sample's item has no key %q", ErrMissingVariable, p.name, strings.Join(p.path[:i+1], "."))
			}
			cur = v
		case []any:
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= len(c) {
				return "", fmt.Errorf("%w: {{%s}}: the sample's item has no element %q", ErrMissingVariable, p.name, strings.Join(p.path[:i+1], "."))
			}
			cur = c[n]
		default:
			return "", fmt.Errorf("%w: {{%s}}: the sample's item has no key %q", ErrMissingVariable, p.name, strings.Join(p.path[:i+1], "."))
		}
	}
	switch v := cur.(type) {
	case string:
		return v, nil
	case nil:
		return "", fmt.Errorf("%w: {{%s}}: the sample's item value is null", ErrMissingVariable, p.name)
	}
	b, err := json.Marshal(cur)
	if err != nil {
		return "", fmt.Errorf("{{%s}}: %w", p.name, err)
	}
	return string(b), nil
}

// RenderRedacted is [Template.Render] with each variable's value passed
// through redact and the template's own text kept as written: how a
// grader quotes a sample into a judge prompt (see [JudgeAsk.Prompt]).
func (t *Template) RenderRedacted(s *Sample, redact func(string) string) (string, error) {
	return renderRedacted(t, s, redact)
}

// renderRedacted renders t against s with each variable's value passed
// through redact; the template's own text is sent as written.
func renderRedacted(t *Template, s *Sample, redact func(string) string) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		v, err := p.value(s)
		if err != nil {
			return "", err
		}
		if p.v != varNone {
			v = redact(v)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}
