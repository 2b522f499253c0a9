package proctor

// judgeSpecs registers the spec types llm_judge, llm_score, llm_category, llm_pairwise, llm_answer_match, faithfulness, relevance, hallucination, toxicity.
func judgeSpecs(m map[string]Builder) {}

// judgeConfig holds the judges and their policy. Owned by judge.go.
type judgeConfig struct{}
