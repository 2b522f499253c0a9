// Package specdoc renders the reference of spec types (docs/spec.md and
// `proctor types`): for each a one-line summary, what it checks, its
// options (type, default, meaning) and an example. It holds the families
// ([Families]) and the options every spec takes ([Common]); each type,
// the root package's own as well as the family packages', is documented in
// its proctor.SpecType value beside its builder. A test of package builtin
// keeps docs/spec.md equal to what the full Compiler accepts.
package specdoc

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Family is a group of spec types, a section of the reference.
type Family struct {
	Key   string // as Type.Family names it
	Title string
	About string // what holds for every type of the family
}

// Option is one option of a spec type.
type Option struct {
	Name    string
	Type    string // the JSON type, in words
	Default string // "(required)" when it must be given; "" when it has none
	Meaning string
}

// Type is one spec type.
type Type struct {
	Name    string
	Family  string // a Family's Key
	Summary string // one line, lower case, no final stop
	About   string // more about what it checks; may be empty
	Options []Option
	Example string // a spec of this type, as JSON
}

// Lookup returns the reference of the named type among types.
func Lookup(types []Type, name string) (Type, bool) {
	for _, t := range types {
		if t.Name == name {
			return t, true
		}
	}
	return Type{}, false
}

// FamilyOf returns the family of t.
func FamilyOf(t Type) Family {
	for _, f := range Families {
		if f.Key == t.Family {
			return f
		}
	}
	return Family{Key: t.Family, Title: t.Family}
}

// WriteSummary writes one line per type: its name and summary.
func WriteSummary(w io.Writer, types []Type) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range types {
		fmt.Fprintf(tw, "%s\t%s\n", t.Name, t.Summary)
	}
	return tw.Flush()
}

// WriteType writes the reference of t as plain text: summary, what it
// checks, its options and an example.
func WriteType(w io.Writer, t Type) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n", t.Name, t.Summary)
	for _, p := range []string{FamilyOf(t).About, t.About} {
		if p != "" {
			b.WriteString("\n" + wrap(p, 76) + "\n")
		}
	}
	b.WriteString("\nOptions:\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  OPTION\tTYPE\tDEFAULT\tMEANING\n")
	for _, o := range t.Options {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", o.Name, o.Type, orDash(o.Default), o.Meaning)
	}
	tw.Flush()
	b.WriteString("  and name, required, criterion, severity, turns, as every spec (proctor types --common)\n")
	fmt.Fprintf(&b, "\nExample:\n  %s\n", t.Example)
	_, err := w.Write(b.Bytes())
	return err
}

// WriteCommon writes the options every spec takes.
func WriteCommon(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "OPTION\tTYPE\tDEFAULT\tMEANING\n")
	for _, o := range Common {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", o.Name, o.Type, orDash(o.Default), o.Meaning)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// wrap folds s at spaces into lines of at most width bytes.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if n+1+len(w) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// Markdown renders docs/spec.md from the reference of types, in the order
// of Families.
func Markdown(types []Type) []byte {
	var b bytes.Buffer
	b.WriteString(`<!-- Rendered from the Compiler's spec types (internal/specdoc/types.go for
     the root package's, SpecTypes in each family package); edit them there and
     run go test -run TestSpecReference -update-docs ./builtin to write this
     file again. -->

# Spec reference

A spec is a JSON (or YAML) object with a ` + "`type`" + ` and the options of that
type. Suites, ` + "`proctor grade --grader`" + `, ` + "`proctor serve`" + ` and the Go
` + "`Compiler`" + ` all read the same specs. Loading is fail-closed: an unknown type, an
unknown option, an option of the wrong JSON type or out of range, or a missing
required option is an error when the spec is loaded, naming the spec, the
option and what was expected. Nothing is ignored.

Scores are in [0, 1]; graders that compare a score pass when it reaches their
threshold. ` + "`proctor types`" + ` lists the types and ` + "`proctor types NAME`" + ` prints one
of these sections from the binary.

Other references: [suite files](suite.md), [the --config file](config.md),
[results and reports](formats.md), [exit codes](exit-codes.md),
[regex patterns](regex.md).

## Contents

- [Options every spec takes](#options-every-spec-takes)
`)
	for _, f := range Families {
		var names []string
		for _, t := range types {
			if t.Family == f.Key {
				names = append(names, fmt.Sprintf("[%s](#%s)", t.Name, t.Name))
			}
		}
		fmt.Fprintf(&b, "- [%s](#%s): %s\n", f.Title, anchor(f.Title), strings.Join(names, ", "))
	}
	b.WriteString("\n## Options every spec takes\n\n")
	table(&b, Common)
	for _, f := range Families {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", f.Title, prose(f.About))
		for _, t := range types {
			if t.Family != f.Key {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n\n%s.", t.Name, prose(upperFirst(t.Summary)))
			if t.About != "" {
				b.WriteString(" " + prose(t.About))
			}
			b.WriteString("\n\n")
			if len(t.Options) == 0 {
				b.WriteString("No options beyond those every spec takes.\n")
			} else {
				table(&b, t.Options)
			}
			fmt.Fprintf(&b, "\n```json\n%s\n```\n", t.Example)
		}
	}
	return b.Bytes()
}

func table(b *bytes.Buffer, opts []Option) {
	b.WriteString("| option | type | default | meaning |\n|---|---|---|---|\n")
	for _, o := range opts {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", o.Name, cell(o.Type), cell(orDash(o.Default)), cell(o.Meaning))
	}
}

// cell is prose for a table cell: a | would end the cell.
func cell(s string) string {
	return strings.ReplaceAll(prose(s), "|", `\|`)
}

// prose renders plain text as Markdown that reads the same: {{...}}
// template variables go in code spans, a mention of a page of docs/
// (docs/templates.md) becomes a link to it, and outside them the
// characters Markdown would take as markup (\, *, <) are escaped.
func prose(s string) string { return docLinks(spans(s)) }

// docLinks turns each docs/NAME.md in s into a Markdown link to NAME.md,
// the page beside this one.
func docLinks(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "docs/")
		if i < 0 {
			break
		}
		name := s[i+len("docs/"):]
		n := strings.IndexFunc(name, func(r rune) bool {
			return !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		})
		if n <= 0 || !strings.HasPrefix(name[n:], ".md") {
			b.WriteString(s[:i+len("docs/")])
			s = name
			continue
		}
		page := name[:n+len(".md")]
		b.WriteString(s[:i] + "[docs/" + page + "](" + page + ")")
		s = name[len(page):]
	}
	b.WriteString(s)
	return b.String()
}

// spans is prose without the links.
func spans(s string) string {
	esc := strings.NewReplacer(`\`, `\\`, "*", `\*`, "<", "&lt;")
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		j := strings.Index(s[max(i, 0):], "}}")
		if i < 0 || j < 0 {
			break
		}
		b.WriteString(esc.Replace(s[:i]) + "`" + s[i:i+j+2] + "`")
		s = s[i+j+2:]
	}
	b.WriteString(esc.Replace(s))
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// anchor is the id GitHub gives a heading.
func anchor(title string) string {
	return strings.ReplaceAll(strings.ToLower(title), " ", "-")
}
