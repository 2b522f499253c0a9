package proctor

// jsonPathSpecs registers the spec types json_path.
func jsonPathSpecs(m map[string]Builder) {}
