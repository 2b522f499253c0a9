package proctor

// disclosureSpecs registers the spec types no_pii, no_secrets, forbidden.
func disclosureSpecs(m map[string]Builder) {}
