package proctor

// webhookSpecs registers the spec types custom_webhook.
func webhookSpecs(m map[string]Builder) {}

// netConfig holds what network graders are given. Owned by webhook.go.
type netConfig struct{}
