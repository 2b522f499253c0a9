// Package openaievals holds proctor's OpenAI evals graders: string_check,
// text_similarity, score_model, label_model, multi and python, with
// OpenAI's field names, so that an eval's testing_criteria list is a list
// of specs ([CompileTestingCriteria]). It is built on the root package's
// public API alone: score_model and label_model ask the judges through
// [proctor.Judging], under the same policy as the llm_* graders.
//
// A Compiler knows these types when given them:
//
//	c := proctor.NewCompiler(openaievals.Types())  // or builtin.Types()
//
// text_similarity computes its metric with the similarity family's graders
// (fuzzy_match, bleu, gleu, rouge, semantic_similarity), which the Compiler
// must know too: builtin.Types() brings them, as does similarity.Types().
package openaievals
