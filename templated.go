package proctor

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
)

// Templates in the options that hold a value to compare with
// (docs/templates.md). Each such option is parsed as a [Template] once,
// when the spec compiles. A value without variables is the literal it was
// before and builds the same grader as before, at the same cost; only a
// value with variables makes the spec build one of the graders below,
// which render per sample. A variable the sample lacks is not graded,
// with the reason naming the option; it is never an empty string.

// valueTemplates parses each of vals, the values of option key, as a
// template. A value that does not parse is a spec error naming key. ok
// reports whether some value holds a variable; when none does, the caller
// keeps the literal values.
func valueTemplates(o *SpecOptions, key string, vals []string) (ts []*Template, ok bool) {
	ts = make([]*Template, len(vals))
	for i, v := range vals {
		t, err := ParseTemplate(v)
		if err != nil {
			o.Wrap(key, "bad template", err)
			return nil, false
		}
		ts[i] = t
		ok = ok || t.hasVariables()
	}
	return ts, ok
}

// renderValues renders ts against s. A variable the sample lacks is a
// not-graded grade naming option key.
func renderValues(key string, ts []*Template, s *Sample) ([]string, Grade, bool) {
	vals := make([]string, len(ts))
	for i, t := range ts {
		v, err := t.Render(s)
		if err != nil {
			return nil, ErrorGrade(key, err), false
		}
		vals[i] = v
	}
	return vals, Grade{}, true
}

// perSample is a grader whose values are templates: for each sample it
// renders them and grades with the grader build makes of the rendered
// values. A rendered value that build refuses (an empty contains value) is
// not graded with build's reason. Safe for concurrent use if build is.
type perSample struct {
	name  string
	key   string // the option the templates come from, for reasons
	tmpls []*Template
	build func(vals []string) (Grader, error)
}

var _ Grader = (*perSample)(nil)

// Name returns the spec's name.
func (g *perSample) Name() string { return g.name }

// Grade renders the values and grades with the grader they make.
func (g *perSample) Grade(ctx context.Context, s *Sample) Grade {
	vals, ng, ok := renderValues(g.key, g.tmpls, s)
	if !ok {
		return ng
	}
	inner, err := g.build(vals)
	if err != nil {
		return ErrorGrade(g.key+" as rendered", err)
	}
	return inner.Grade(ctx, s)
}

// withValues is the grader a spec builds from vals, the values of option
// key: build(vals) when none holds a variable (the literal path, unchanged),
// else a [perSample] that renders them per sample. A malformed template is
// a spec error naming key.
func withValues(o *SpecOptions, key string, vals []string, build func([]string) (Grader, error)) (Grader, error) {
	ts, templated := valueTemplates(o, key, vals)
	if err := o.Err(); err != nil {
		return nil, err
	}
	if !templated {
		return build(vals)
	}
	// Check the values as build would with each variable rendered as a
	// placeholder, so that a spec build always refuses (an empty list)
	// fails at load rather than on every sample.
	if _, err := build(placeholders(ts)); err != nil {
		o.Wrap(key, "invalid", err)
		return nil, o.Err()
	}
	return &perSample{name: o.Name(), key: key, tmpls: ts, build: build}, nil
}

// placeholder stands for a variable's value when a templated option is
// checked at load.
const placeholder = "x"

// placeholders renders ts with every variable as [placeholder].
func placeholders(ts []*Template) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.withPlaceholders(nil)
	}
	return out
}

// withPlaceholders renders t with every variable as [placeholder], passed
// through quote when it is not nil.
func (t *Template) withPlaceholders(quote func(string) string) string {
	var b strings.Builder
	for _, p := range t.parts {
		switch {
		case p.v == varNone:
			b.WriteString(p.lit)
		case quote != nil:
			b.WriteString(quote(placeholder))
		default:
			b.WriteString(placeholder)
		}
	}
	return b.String()
}

// expectedSubst grades with a grader built without a fixed expected value
// or references, on a copy of the sample whose expected value (asRefs
// false: exact_match, choice, numeric) or references (asRefs true: the
// similarity metrics, expected first) are the spec's rendered templates.
// The grader then reads them as it reads a case's own. Its kind is the
// inner grader's. Safe for concurrent use if the inner grader is.
type expectedSubst struct {
	inner  Grader
	keys   []string // the option each template comes from
	tmpls  []*Template
	asRefs bool
}

var (
	_ Grader = (*expectedSubst)(nil)
	_ Kinded = (*expectedSubst)(nil)
)

// Name returns the inner grader's name, the spec's.
func (g *expectedSubst) Name() string { return g.inner.Name() }

// GraderKind returns the inner grader's kind (semantic similarity calls an
// embedder).
func (g *expectedSubst) GraderKind() Kind { return KindOf(g.inner) }

// Grade renders the templates into a copy of s and grades it.
func (g *expectedSubst) Grade(ctx context.Context, s *Sample) Grade {
	vals := make([]string, len(g.tmpls))
	for i, t := range g.tmpls {
		v, err := t.Render(s)
		if err != nil {
			return ErrorGrade(g.keys[i], err)
		}
		vals[i] = v
	}
	d := *s
	if g.asRefs {
		d.Expected, d.ExpectedJSON, d.References, d.ReferenceIDs = nil, false, vals, nil
	} else {
		d.Expected, d.ExpectedJSON = &vals[0], false
	}
	return g.inner.Grade(ctx, &d)
}

// templatedExpected wraps the builder of a spec type whose expected option
// (a string) falls back on the sample's expected value: exact_match,
// choice, numeric, llm_answer_match, ... A literal expected builds as before; a template makes
// the builder build the grader of a spec without expected, wrapped in an
// [expectedSubst].
func templatedExpected(b Builder) Builder {
	return func(o *SpecOptions) (Grader, error) {
		return hideTemplates(o, b, false, "expected")
	}
}

// templatedReferences wraps the builder of a similarity metric: its
// expected (a string) and references (strings) options are templates, as
// [templatedExpected] makes expected one.
func templatedReferences(b Builder) Builder {
	return func(o *SpecOptions) (Grader, error) {
		return hideTemplates(o, b, true, "expected", "references")
	}
}

// hideTemplates parses the string (or string array) options keys of o as
// templates. When none holds a variable it returns b(o), the literal path.
// Otherwise it runs b with those options hidden, so that b builds a grader
// that reads the sample's expected value, and wraps that grader in an
// [expectedSubst] rendering them. A malformed template is a spec error
// naming its option; an option of another JSON type is left to b.
func hideTemplates(o *SpecOptions, b Builder, asRefs bool, keys ...string) (Grader, error) {
	var g expectedSubst
	templated := false
	for _, key := range keys {
		vals, ok := rawStrings(o.raw[key], key == "references")
		if !ok {
			continue
		}
		if len(vals) == 0 {
			o.Errorf(key, "must hold at least one reference")
			return nil, o.Err()
		}
		ts, has := valueTemplates(o, key, vals)
		if err := o.Err(); err != nil {
			return nil, err
		}
		templated = templated || has
		for _, t := range ts {
			g.keys, g.tmpls = append(g.keys, key), append(g.tmpls, t)
		}
	}
	if !templated {
		return b(o)
	}
	saved := make(map[string]json.RawMessage, len(keys))
	for _, key := range keys {
		if r, ok := o.raw[key]; ok {
			saved[key] = r
			o.used[key], o.asked[key] = true, true
			delete(o.raw, key)
		}
	}
	inner, err := b(o)
	for k, r := range saved {
		o.raw[k] = r
	}
	if err != nil {
		return nil, err
	}
	g.inner, g.asRefs = inner, asRefs
	return &g, nil
}

// rawStrings decodes a raw option that is a JSON string or, with array,
// an array of strings (references); ok is false for anything else, which
// is left to the builder (an exact_match expected object is structural, not
// a template).
func rawStrings(r json.RawMessage, array bool) ([]string, bool) {
	switch kit.JSONKind(r) {
	case "a string":
		if array {
			return nil, false
		}
		var s string
		if json.Unmarshal(r, &s) != nil {
			return nil, false
		}
		return []string{s}, true
	case "an array":
		if !array {
			return nil, false
		}
		var ss []string
		if json.Unmarshal(r, &ss) != nil {
			return nil, false
		}
		return ss, true
	}
	return nil, false
}
