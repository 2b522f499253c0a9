package proctor

// compatSpecTypes documents the similarity family's spec type context_f1,
// for [Compiler.SpecTypes], with its builder.
func compatSpecTypes() []SpecType {
	return []SpecType{
		{Name: "context_f1", Build: contextF1Spec, Family: "similarity", Summary: "precision, recall or F1 of the retrieved context items against the relevant ones",
			About: `Items given as {"id": ...} match by id; text items match when equal after folding case and white space.`,
			Options: []SpecOptionDoc{
				{"expected_contexts", "array of strings or {\"id\": ...} objects", "the sample's references", "The relevant items."},
				{"measure", "string", "f1", "f1, precision or recall."},
				docThreshold("0.5"),
			},
			Example: `{"type": "context_f1", "measure": "recall", "threshold": 0.8}`},
	}
}
