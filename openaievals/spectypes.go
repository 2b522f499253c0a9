package openaievals

import "github.com/proctorhq/proctor"

// templates is said of options that take {{ }} template variables.
const templates = "Template variables: {{input}}, {{output}}, {{expected}}, {{item.KEY}}, {{sample.output_text}}."

// SpecTypes returns the OpenAI evals family's spec types (string_check,
// text_similarity, score_model, label_model, multi, python) with their
// reference and builders, for [proctor.WithSpecTypes].
func SpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "string_check", Build: stringCheckSpec, Family: "openai", Summary: "OpenAI's string_check: compare two rendered templates",
			About: "Both sides are trimmed. eq and ne compare exactly; like is containment, ilike containment ignoring case. In a reference, % matches any run of characters and \\% is a literal percent sign.",
			Options: []proctor.SpecOptionDoc{
				{Name: "operation", Type: "string", Default: "(required)", Meaning: "eq, ne, like or ilike."},
				{Name: "input", Type: "template string", Default: "{{sample.output_text}}", Meaning: "The left side. " + templates},
				{Name: "reference", Type: "template string", Default: "(required)", Meaning: "The right side. " + templates},
			},
			Example: `{"type": "string_check", "operation": "ilike", "reference": "{{item.city}}"}`},
		{Name: "text_similarity", Build: textSimilaritySpec, Family: "openai", Summary: "OpenAI's text_similarity: a similarity metric with a pass threshold",
			Options: []proctor.SpecOptionDoc{
				{Name: "evaluation_metric", Type: "string", Default: "(required)", Meaning: "fuzzy_match, bleu, gleu, meteor, cosine (or cosine_similarity), rouge_1 to rouge_5, rouge_l. meteor is refused at load in this build."},
				{Name: "pass_threshold", Type: "number in [0, 1]", Default: "(required)", Meaning: "The least passing score."},
				{Name: "input", Type: "template string", Default: "{{sample.output_text}}", Meaning: "What is scored. " + templates},
				{Name: "reference", Type: "template string", Default: "(required)", Meaning: "What it is compared with. " + templates},
			},
			Example: `{"type": "text_similarity", "evaluation_metric": "fuzzy_match", "pass_threshold": 0.8, "reference": "{{item.answer}}"}`},
		{Name: "score_model", Build: scoreModelSpec, Family: "openai", Summary: "OpenAI's score_model: a judge returns a number compared with pass_threshold",
			About: "model picks the judge: the one of that name, model id or family; when none matches the primary judge grades and the grade carries a caveat saying so.",
			Options: []proctor.SpecOptionDoc{
				{Name: "model", Type: "string", Default: "(required)", Meaning: "The judge to ask (see above)."},
				{Name: "input", Type: "array of {role, content}", Default: "(required)", Meaning: "The messages sent to the judge; contents are templates. " + templates},
				{Name: "range", Type: "two numbers [low, high]", Default: "[0, 1]", Meaning: "The range of scores."},
				{Name: "pass_threshold", Type: "number within range", Default: "(required)", Meaning: "The least passing score."},
				{Name: "sampling_params", Type: "object", Default: "none", Meaning: "OpenAI's sampling_params (temperature, top_p, seed, max_completions_tokens, reasoning_effort): checked, not passed on."},
			},
			Example: `{"type": "score_model", "model": "gpt-4.1", "input": [{"role": "user", "content": "Rate 0-1: {{sample.output_text}}"}], "pass_threshold": 0.7}`},
		{Name: "label_model", Build: labelModelSpec, Family: "openai", Summary: "OpenAI's label_model: a judge picks a label; some labels pass",
			Options: []proctor.SpecOptionDoc{
				{Name: "model", Type: "string", Default: "(required)", Meaning: "The judge to ask, as for score_model."},
				{Name: "input", Type: "array of {role, content}", Default: "(required)", Meaning: "The messages sent to the judge; contents are templates. " + templates},
				{Name: "labels", Type: "string array", Default: "(required)", Meaning: "The labels the judge chooses from."},
				{Name: "passing_labels", Type: "string array", Default: "(required)", Meaning: "The labels that pass, a subset of labels."},
			},
			Example: `{"type": "label_model", "model": "gpt-4.1", "input": [{"role": "user", "content": "{{sample.output_text}}"}], "labels": ["polite", "rude"], "passing_labels": ["polite"]}`},
		{Name: "multi", Build: multiSpec, Family: "openai", Summary: "OpenAI's multi: a formula over the scores of named graders",
			About: "The formula takes numbers, the graders' names, + - * /, ^, parentheses, min, max, abs, floor, ceil, exp, sqrt and log.",
			Options: []proctor.SpecOptionDoc{
				{Name: "graders", Type: "object of specs, or spec array", Default: "(required)", Meaning: "The graders, by name."},
				{Name: "calculate_output", Type: "string", Default: "(required)", Meaning: "The formula."},
				{Name: "pass_threshold", Type: "number in [0, 1]", Default: "0.5", Meaning: "The least passing score. threshold is accepted in its place."},
				{Name: "threshold", Type: "number in [0, 1]", Default: "0.5", Meaning: "Another spelling of pass_threshold; give one."},
			},
			Example: `{"type": "multi", "graders": {"a": {"type": "contains", "value": "refund"}, "b": {"type": "length", "max_words": 80}}, "calculate_output": "(a + b) / 2"}`},
		{Name: "python", Build: pythonSpec, Family: "openai", Summary: "OpenAI's python grader: your grade(sample, item) function scores the output",
			About: "Runs in a python3 worker process on this machine, without network. sample holds output_text, output_json, output_tools, model and metrics; item is the sample's item plus expected.",
			Options: []proctor.SpecOptionDoc{
				{Name: "source", Type: "string", Default: "(required)", Meaning: "Python source defining grade(sample, item) that returns a number."},
				{Name: "pass_threshold", Type: "number in [0, 1]", Default: "0.5", Meaning: "The least passing score. threshold is accepted in its place."},
				{Name: "threshold", Type: "number in [0, 1]", Default: "0.5", Meaning: "Another spelling of pass_threshold; give one."},
				{Name: "timeout_ms", Type: "integer, 1 to 600000", Default: "10000", Meaning: "Bound on one call of grade."},
				{Name: "memory_mb", Type: "integer, 32 to 1048576", Default: "512", Meaning: "The worker's memory limit, in MiB."},
				{Name: "workers", Type: "integer, 1 to 64", Default: "1", Meaning: "How many worker processes may run at once."},
				{Name: "image_tag", Type: "string", Default: "none", Meaning: "OpenAI's image_tag: accepted and ignored, with a caveat on each grade."},
			},
			Example: `{"type": "python", "source": "def grade(sample, item):\n    return 1.0 if 'Paris' in sample['output_text'] else 0.0"}`},
	}
}

// Types gives a [proctor.Compiler] the OpenAI evals family's spec types.
func Types() proctor.CompilerOption { return proctor.WithSpecTypes(SpecTypes()...) }
