package proctor

// regexSpecs registers the spec types regex, not_regex.
func regexSpecs(m map[string]Builder) {}
