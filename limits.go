package proctor

// limitSpecs registers the spec types length, blocklist.
func limitSpecs(m map[string]Builder) {}
