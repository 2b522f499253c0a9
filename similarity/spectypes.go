package similarity

import "github.com/proctorhq/proctor"

// SpecTypes returns the similarity family's spec types (bleu, gleu, rouge,
// token_f1, levenshtein, fuzzy_match, jaro, jaro_winkler, hamming, chrf,
// json_diff, numeric_diff, list_contains, semantic_similarity,
// localization_f1, context_f1) with their reference and builders, in the
// reference's order, for [proctor.WithSpecTypes].
func SpecTypes() []proctor.SpecType {
	var out []proctor.SpecType
	for _, types := range [][]proctor.SpecType{
		similaritySpecTypes(), stringMetricSpecTypes(), chrfSpecTypes(), jsonDiffSpecTypes(),
		semanticLocationSpecTypes(), contextF1SpecTypes(),
	} {
		out = append(out, types...)
	}
	return out
}

// Types gives a [proctor.Compiler] the similarity family's spec types.
func Types() proctor.CompilerOption { return proctor.WithSpecTypes(SpecTypes()...) }

// contextF1SpecTypes documents the spec type context_f1 with its builder.
func contextF1SpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "context_f1", Build: contextF1Spec, Family: "similarity", Summary: "precision, recall or F1 of the retrieved context items against the relevant ones",
			About: `Items given as {"id": ...} match by id; text items match when equal after folding case and white space.`,
			Options: []proctor.SpecOptionDoc{
				{Name: "expected_contexts", Type: "array of strings or {\"id\": ...} objects", Default: "the sample's references", Meaning: "The relevant items."},
				{Name: "measure", Type: "string", Default: "f1", Meaning: "f1, precision or recall."},
				docThreshold("0.5"),
			},
			Example: `{"type": "context_f1", "measure": "recall", "threshold": 0.8}`},
	}
}
