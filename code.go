package proctor

// codeSpecs registers the spec types python_compiles, go_compiles.
func codeSpecs(m map[string]Builder) {}
