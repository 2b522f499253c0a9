package code

import "github.com/proctorhq/proctor"

// SpecTypes returns the code family's spec types (python_compiles,
// go_compiles) with their reference and builders, for
// [proctor.WithSpecTypes].
func SpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "python_compiles", Build: pythonCompilesSpec, Family: "code", Summary: "the output is Python that compiles",
			About:   "Not graded, with the reason, where no python3 is installed.",
			Options: []proctor.SpecOptionDoc{{Name: "timeout_ms", Type: "integer, 1 to 600000", Default: "10000", Meaning: "How long the check may take."}},
			Example: `{"type": "python_compiles"}`},
		{Name: "go_compiles", Build: goCompilesSpec, Family: "code", Summary: "the output parses as Go",
			About:   "A Go file or, failing that, a list of statements. Not graded when brackets nest more than 1,000 levels deep.",
			Example: `{"type": "go_compiles"}`},
	}
}

// Types gives a [proctor.Compiler] the code family's spec types.
func Types() proctor.CompilerOption { return proctor.WithSpecTypes(SpecTypes()...) }
