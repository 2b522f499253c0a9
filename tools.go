package proctor

// toolSpecs registers the spec types tool_called, tool_not_called, tool_sequence, tool_argument_assertion.
func toolSpecs(m map[string]Builder) {}
