package proctor

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/internal/specdoc"
	"github.com/proctorhq/proctor/metric"
)

// SpecType is one spec type as a [Compiler] knows it: its name, the family
// of the reference it belongs to, its documentation and its builder. A
// family package outside the root (agent, disclosure, code, openaievals, similarity) exports its
// types as SpecType values and gives them to a Compiler with
// [WithSpecTypes]; docs/spec.md and `proctor types` are rendered from the
// Compiler's list ([Compiler.SpecTypes]), so a type documents itself where
// it is built.
type SpecType struct {
	// Name is the spec's "type" value, such as "tool_called".
	Name string
	// Family is the key of the reference section the type is shown in,
	// such as "tools" or "disclosure".
	Family string
	// Summary is one line, lower case, with no final stop.
	Summary string
	// About says more about what the type checks; it may be empty.
	About string
	// Options documents the options the builder reads, in the order the
	// reference lists them. A test of each family keeps this list equal to
	// what [Compiler.Options] finds the builder reading.
	Options []SpecOptionDoc
	// Example is a spec of this type, as JSON; it must compile.
	Example string
	// Build builds the grader from the spec's options.
	Build Builder
	// ExpectedTemplate makes the spec's expected option, when it is a
	// string, a template (docs/templates.md) rendered per sample: a
	// literal value is passed to Build as given; one with variables makes
	// the Compiler call Build without expected and grade each sample as
	// if its expected value were the rendered text. A variable the sample
	// lacks is not graded, naming the option. Set it on a type whose
	// grader falls back on the sample's expected value.
	ExpectedTemplate bool
	// ReferenceTemplates does for the expected (a string) and references
	// (strings) options of a similarity metric what ExpectedTemplate does
	// for expected: rendered, they become the sample's references, expected
	// first.
	ReferenceTemplates bool
}

// builder returns the builder specs of type t use: Build, wrapped so that
// the options ExpectedTemplate or ReferenceTemplates name are templates.
func (t SpecType) builder() Builder {
	switch {
	case t.Build == nil:
		return nil
	case t.ReferenceTemplates:
		return templatedReferences(t.Build)
	case t.ExpectedTemplate:
		return templatedExpected(t.Build)
	}
	return t.Build
}

// SpecOptionDoc documents one option of a [SpecType].
type SpecOptionDoc struct {
	// Name is the option's key.
	Name string
	// Type is the option's JSON type, in words ("string", "number array").
	Type string
	// Default is the value taken when the option is absent: "(required)"
	// when it must be given, "" when it has none.
	Default string
	// Meaning says what the option does.
	Meaning string
}

// WithSpecTypes gives a [Compiler] the spec types of a family package:
// specs may name them, and [Compiler.SpecTypes] lists them. A later type
// of the same name replaces an earlier one; [Compiler.Register] replaces
// both. Given to a grader constructor it has no effect.
func WithSpecTypes(types ...SpecType) CompilerOption {
	return compilerOption(func(c *config) {
		c.specTypes = append(c.specTypes, types...)
	})
}

// SpecTypes returns the documented spec types c knows: the root package's
// own and those given with [WithSpecTypes], in the order the reference
// shows their families (docs/spec.md) and, within a family, the root's
// first, then as they were given. A type of a family the reference does
// not know comes last. Types added with [Compiler.Register] carry no
// documentation and are left out.
func (c *Compiler) SpecTypes() []SpecType {
	out := builtinSpecTypes()
	seen := make(map[string]int, len(out))
	for i, t := range out {
		seen[t.Name] = i
	}
	for _, t := range c.cfg.specTypes {
		if i, ok := seen[t.Name]; ok {
			out[i] = t
			continue
		}
		seen[t.Name] = len(out)
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b SpecType) int {
		return cmp.Compare(familyRank(a.Family), familyRank(b.Family))
	})
	return out
}

// familyRank is family's place among the reference's sections, or after
// them all.
func familyRank(family string) int {
	i := slices.IndexFunc(specdoc.Families, func(f specdoc.Family) bool { return f.Key == family })
	if i < 0 {
		return len(specdoc.Families)
	}
	return i
}

// unknownType is the error for a spec whose type c does not know: the
// nearest known type when one is close, and where proctor's family types
// come from when c has none of them.
func (c *Compiler) unknownType(o *SpecOptions, typ string) *SpecError {
	known := c.Types()
	msg := fmt.Sprintf("unknown type %q", typ)
	if near, ok := nearest(typ, known); ok {
		msg += fmt.Sprintf("; did you mean %q?", near)
	} else {
		msg += " (known: " + strings.Join(known, ", ") + ")"
	}
	if len(c.cfg.specTypes) == 0 {
		msg += "; the agent, disclosure, code, openaievals and similarity families' types come with builtin.Types() (package github.com/proctorhq/proctor/builtin)"
	}
	return &SpecError{Spec: o.label(), Option: "type", Msg: msg}
}

// nearest returns the word of words that s most likely misspells: the
// nearest by edit distance (ignoring case), within 2 edits and fewer than
// half of s's letters.
func nearest(s string, words []string) (string, bool) {
	best, bestD := "", 3
	ls := strings.ToLower(s)
	for _, w := range words {
		d := metric.LevenshteinDistance(ls, strings.ToLower(w))
		if d < bestD || (d == bestD && w < best) {
			best, bestD = w, d
		}
	}
	if best == "" || 2*bestD >= len([]rune(s)) {
		return "", false
	}
	return best, true
}

// builtinSpecTypes returns the root package's own spec types with their
// reference and builders, in the reference's order.
func builtinSpecTypes() []SpecType { return rootSpecTypes() }

// rootSpecTypes returns the root package's own spec types as their family
// files document and build them, in the reference's order.
func rootSpecTypes() []SpecType {
	var out []SpecType
	for _, types := range [][]SpecType{
		textSpecTypes(), limitSpecTypes(), regexSpecTypes(),
		jsonSpecTypes(), jsonPathSpecTypes(), xmlSpecTypes(),
		answerSpecTypes(),
		thresholdSpecTypes(),
		webhookSpecTypes(),
		judgeSpecTypes(),
		combinatorSpecTypes(), weightedSpecTypes(),
	} {
		out = append(out, types...)
	}
	return out
}

// The root package's own types are documented beside their builders, one
// func per family file; the drift test in package builtin
// (spec_reference_test.go) checks every type the full Compiler knows
// against its reference: the same options as its builder reads, examples
// that compile, and docs/spec.md as Markdown renders it. The phrases and
// option lists below are shared by several of them.

// docTemplates is said of options that take {{ }} template variables.
const docTemplates = "Template variables: {{input}}, {{output}}, {{expected}}, {{item.KEY}}, {{sample.output_text}}."

// docValueTemplate is said of options that hold a value to compare with: a
// string value is a template rendered per sample.
const docValueTemplate = kit.DocValueTemplate

// docContainsOptions is the options of contains and not_contains.
func docContainsOptions() []SpecOptionDoc {
	return []SpecOptionDoc{
		{"value", "string", "", "The text to look for. Give value or values. " + docValueTemplate},
		{"values", "string array", "", "Several texts to look for. " + docValueTemplate},
		{"mode", "string", "all", "all: contains needs every value, not_contains needs every value absent; any: contains needs one value, not_contains needs one value absent."},
		{"case_sensitive", "boolean", "true", "Compare letter case."},
	}
}

// docRegexOptions is the options of regex and not_regex, def the default
// of match.
func docRegexOptions(def string) []SpecOptionDoc {
	return []SpecOptionDoc{
		{"pattern", "string", "(required)", "An RE2 pattern (Go syntax) or one with the backtracking constructs of docs/regex.md, at most 1,024 characters. May hold templates such as {{item.KEY}}, whose values match as literal text (docs/templates.md)."},
		{"match", "string", def, "full: the pattern must match the whole trimmed output; search: anywhere in it."},
		{"case_sensitive", "boolean", "true", "Compare letter case."},
	}
}

// docJudgeRubric is the rubric option of the judge types.
func docJudgeRubric() SpecOptionDoc {
	return SpecOptionDoc{"rubric", "string", "(required)", "What the judge checks, in plain words. " + docTemplates}
}
