package proctor

// answerSpecs registers the spec types choice, numeric, refused, not_refused.
func answerSpecs(m map[string]Builder) {}
