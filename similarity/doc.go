// Package similarity grades how close an output is to a reference, on a
// 0-1 scale with a threshold: n-gram overlap ([NewBLEU], [NewGLEU],
// [NewRouge], [NewChrF]), token F1 ([NewTokenF1]), edit distances
// ([NewLevenshtein], [NewFuzzyMatch], [NewJaro], [NewJaroWinkler],
// [NewHamming]), partial credit between JSON values, numbers and lists
// ([NewJSONDiff], [NewNumericDiff], [NewListContains]), the cosine of
// embeddings ([NewSemanticSimilarity], over a [proctor.EmbeddingProvider]),
// cited source locations ([NewLocalizationF1]) and retrieved context items
// ([NewContextF1]). The formulas themselves, on plain strings, are in
// package metric; the graders add references, thresholds, limits and
// reasons.
//
// The package is one of proctor's families built on the root package's
// public API. Its spec types (bleu, gleu, rouge, token_f1, levenshtein,
// fuzzy_match, jaro, jaro_winkler, hamming, chrf, json_diff, numeric_diff,
// list_contains, semantic_similarity, localization_f1, context_f1) reach a
// [proctor.Compiler] through [Types], or with every other family through
// builtin.Types:
//
//	c := proctor.NewCompiler(similarity.Types())
//	check, err := c.Compile([]byte(`{"type": "rouge", "expected": "the cat sat", "threshold": 0.6}`))
//
// semantic_similarity specs embed with the Compiler's embedder
// ([proctor.WithEmbedder], [proctor.SpecOptions.Embedder]), one cache per
// Compiler; without one, with the lexical embedder, which measures shared
// wording and says so in its reasons.
package similarity
