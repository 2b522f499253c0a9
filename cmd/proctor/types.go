package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/internal/specdoc"
	"github.com/proctorhq/proctor/internal/specref"
)

const typesUsage = `usage: proctor types [NAME | --common]

Without NAME, lists every spec type with a one-line summary. With NAME,
prints that type's options (type, default, meaning) and an example.
--common prints the options every spec takes. The same reference is in
docs/spec.md.
`

// cmdTypes prints the spec reference of every type the CLI's Compiler
// knows, which a test keeps equal to what it accepts.
func cmdTypes(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("types", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	common := fs.Bool("common", false, "print the options every spec takes")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, typesUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "proctor types: %v\n%s", err, typesUsage)
		return exitUsage
	}
	types := specref.Types(proctor.NewCompiler(builtin.Types()))
	var err error
	switch {
	case fs.NArg() > 1 || fs.NArg() == 1 && *common:
		fmt.Fprintf(stderr, "proctor types: want at most one type name\n%s", typesUsage)
		return exitUsage
	case *common:
		err = specdoc.WriteCommon(stdout)
	case fs.NArg() == 0:
		err = specdoc.WriteSummary(stdout, types)
	default:
		name := fs.Arg(0)
		t, ok := specdoc.Lookup(types, name)
		if !ok {
			fmt.Fprintf(stderr, "proctor types: unknown spec type %q%s; proctor types lists them\n", name, nearType(types, name))
			return exitUsage
		}
		err = specdoc.WriteType(stdout, t)
	}
	if err != nil {
		fmt.Fprintf(stderr, "proctor types: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// nearType suggests a type whose name contains name or is contained in it.
func nearType(types []specdoc.Type, name string) string {
	n := strings.ToLower(name)
	for _, t := range types {
		if n != "" && (strings.Contains(t.Name, n) || strings.Contains(n, t.Name)) {
			return fmt.Sprintf(" (did you mean %q?)", t.Name)
		}
	}
	return ""
}
