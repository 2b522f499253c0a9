// Package builtin gives a [proctor.Compiler] every spec type proctor ships:
// the root package's own and those of its family packages (agent,
// disclosure, code, openaievals, similarity). The list is explicit, with no
// registration at import:
//
//	c := proctor.NewCompiler(builtin.Types())
//
// Suites, the CLI (grade, run, serve, calibrate, types) pass it
// for the user; a Go program that builds its own Compiler passes it, or
// only the families it needs (agent.Types()).
package builtin

import (
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
	"github.com/proctorhq/proctor/code"
	"github.com/proctorhq/proctor/disclosure"
	"github.com/proctorhq/proctor/openaievals"
	"github.com/proctorhq/proctor/similarity"
)

// SpecTypes returns the spec types of every family package, in the order
// the reference shows their families.
func SpecTypes() []proctor.SpecType {
	var out []proctor.SpecType
	for _, family := range [][]proctor.SpecType{
		agent.SpecTypes(),
		disclosure.SpecTypes(),
		code.SpecTypes(),
		openaievals.SpecTypes(),
		similarity.SpecTypes(),
	} {
		out = append(out, family...)
	}
	return out
}

// Types gives a [proctor.Compiler] the spec types of every family package
// ([SpecTypes]); the root package's own it knows already.
func Types() proctor.CompilerOption { return proctor.WithSpecTypes(SpecTypes()...) }
