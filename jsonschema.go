package proctor

// jsonSpecs registers the spec types json_valid, json_schema.
func jsonSpecs(m map[string]Builder) {}
