package proctor

// thresholdSpecs registers the spec types latency_threshold, token_threshold, cost_threshold, http_status.
func thresholdSpecs(m map[string]Builder) {}
