// Package conformance holds proctor's conformance suites: fixed corpora
// with published or labelled answers, run through the public API the way
// a user's program grades. It exports nothing; its tests are the suites.
//
//   - TestJSONPathCTS: every case of the JSONPath Compliance Test Suite
//     (RFC 9535; the repository's testdata/jsonpath-cts.json) through the
//     json_path evaluator, the spec Compiler and the Go constructors.
//   - TestSimilarityConformance: testdata/similarity/conformance.json,
//     each similarity spec with its cases and the reference scores.
//   - TestContextF1Conformance: testdata/compat/context_f1.json, shaped as
//     the JSON Schema Test Suite shapes its files.
//   - TestJudgeReplyCorpus: testdata/judges/replies, labelled judge
//     replies read through the real llm_* and OpenAI evals graders.
//   - TestRealJudgeReplies: testdata/judges/real, replies judge models
//     wrote in public benchmark runs, each graded through the grader and
//     scale it answers (llm_judge, llm_pairwise, llm_score) and read back
//     from the grade, by source and by shape.
//   - TestJSONSchemaTestSuite and TestJSONSchemaTestSuiteFormats: every
//     case of the JSON Schema Test Suite (testdata/json-schema-test-suite)
//     through NewJSONSchema, its remote schemas served offline through
//     JSONSchemaOptions.Remotes.
//
// Run them with
//
//	go test -v ./conformance
//
// The json_schema fast path's run of that suite stays in the root
// package: it reaches the fast path, which is not public API.
package conformance
