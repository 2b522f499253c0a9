package proctor

// compatSpecs registers the spec type context_f1.
func compatSpecs(m map[string]Builder) {
	m["context_f1"] = contextF1Spec
}
