// Package specref turns a Compiler's spec types into the reference that
// internal/specdoc renders, for `proctor types` and docs/spec.md.
package specref

import (
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/specdoc"
)

// Types returns the reference of every documented spec type c knows, in
// the order of [proctor.Compiler.SpecTypes].
func Types(c *proctor.Compiler) []specdoc.Type {
	sts := c.SpecTypes()
	out := make([]specdoc.Type, 0, len(sts))
	for _, t := range sts {
		d := specdoc.Type{Name: t.Name, Family: t.Family, Summary: t.Summary, About: t.About, Example: t.Example}
		for _, o := range t.Options {
			d.Options = append(d.Options, specdoc.Option(o))
		}
		out = append(out, d)
	}
	return out
}
