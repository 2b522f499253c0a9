package proctor

// similaritySpecs registers the spec types bleu, rouge, token_f1, gleu, levenshtein, fuzzy_match, context_f1, localization_f1, semantic_similarity.
func similaritySpecs(m map[string]Builder) {}

// embedConfig holds what similarity graders are given. Owned by similarity.go.
type embedConfig struct{}
