package similarity

import (
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

// bleuSpec builds a bleu grader from its spec.
func bleuSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := BLEUOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
	if o.Has("weights") {
		var w []float64
		if !o.Decode("weights", &w) {
			return nil, o.Err()
		}
		opts.Weights = w
		if opts.Weights == nil {
			opts.Weights = []float64{}
		}
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewBLEU(opts)
	if err != nil {
		o.Wrap("weights", "want 1 to 4 weights >= 0, one > 0", kit.SpecCause("similarity: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// gleuSpec builds a gleu grader from its spec.
func gleuSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	g, err := NewGLEU(GLEUOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// rougeSpec builds a rouge grader from its spec.
func rougeSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := RougeOptions{
		Variant:    o.String("variant", "rougeL"),
		Stemmer:    o.Bool("stemmer", false),
		References: specReferences(o),
		Threshold:  o.OptThreshold(),
		Name:       o.Name(),
	}
	switch o.Enum("measure", "fmeasure", "fmeasure", "precision", "recall") {
	case "precision":
		opts.Measure = RougePrecision
	case "recall":
		opts.Measure = RougeRecall
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewRouge(opts)
	if err != nil {
		o.Wrap("variant", "want rouge1 .. rouge9, rougeL or rougeLsum", kit.SpecCause("similarity: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// tokenF1Spec builds a token_f1 grader from its spec.
func tokenF1Spec(o *proctor.SpecOptions) (proctor.Grader, error) {
	g, err := NewTokenF1(TokenF1Options{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// levenshteinSpec builds a levenshtein grader from its spec.
func levenshteinSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := EditSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
	if d, ok := o.OptInt("max_distance"); ok {
		if d < 0 {
			o.Errorf("max_distance", "want a whole number of edits >= 0, got %d", d)
		}
		opts.MaxDistance = &d
	}
	g, err := NewLevenshtein(opts)
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// fuzzyMatchSpec builds a fuzzy_match grader from its spec.
func fuzzyMatchSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	g, err := NewFuzzyMatch(EditSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// semanticSimilaritySpec builds a semantic_similarity grader from its spec.
func semanticSimilaritySpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := SemanticSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewSemanticSimilarity(o.Embedder(), opts)
	return o.Built("threshold", g, kit.SpecCause("similarity: ", err))
}

// specReferences reads the reference options shared by the similarity
// specs: expected (a string) or references (strings). Both may be given;
// expected comes first. Nil when neither is, so the sample's are used.
func specReferences(o *proctor.SpecOptions) []string {
	var refs []string
	if e, ok := o.OptString("expected"); ok {
		refs = append(refs, e)
	}
	if rs, ok := o.OptStrings("references"); ok {
		if len(rs) == 0 {
			o.Errorf("references", "must hold at least one reference")
		}
		refs = append(refs, rs...)
	}
	return refs
}

// bestOfRefs returns the references a best-of grader compares with: fixed
// ones when configured, else the sample's expected answer followed by its
// references. ok is false when there are none.
func bestOfRefs(fixed []string, s *proctor.Sample) ([]string, bool) {
	if fixed != nil {
		return fixed, true
	}
	var refs []string
	if e, ok := s.ExpectedText(); ok {
		refs = append(refs, e)
	}
	refs = append(refs, s.References...)
	return refs, len(refs) > 0
}

// multiRefs returns the references of a metric that takes several at once
// (BLEU, GLEU): fixed ones when configured, else the sample's references,
// else its expected answer.
func multiRefs(fixed []string, s *proctor.Sample) ([]string, bool) {
	if fixed != nil {
		return fixed, true
	}
	if len(s.References) > 0 {
		return s.References, true
	}
	if e, ok := s.ExpectedText(); ok {
		return []string{e}, true
	}
	return nil, false
}

const noReference = "no reference: set expected or references on the case or the spec"

// scoreGrade is the grade of a similarity score against a threshold, with
// the score formatted in the reason.
func scoreGrade(metric string, score, threshold float64, refs int, ev any) proctor.Grade {
	return proctor.Scored(score, threshold, kit.ScoreReason(metric, score, threshold, refs)).WithEvidence(ev)
}

// similaritySpecTypes documents the similarity family's spec types bleu,
// gleu, rouge, token_f1, levenshtein and fuzzy_match, for
// [proctor.Compiler.SpecTypes], with their builders.
func similaritySpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "bleu", ReferenceTemplates: true, Build: bleuSpec, Family: "similarity", Summary: "sentence BLEU against the references, on a 0-1 scale",
			About: "Computed as sacreBLEU does by default (13a tokeniser, exponential smoothing), divided by 100. With weights, score = BP * exp(sum of w_n log p_n) for n = 1 .. len(weights), with sacreBLEU's smoothed precisions, no effective order and the weights used as given (not normalised), as NLTK's sentence_bleu(weights=...) uses them; an order the output is too short for scores 0 unless its weight is 0. Not graded when the output or a reference is over 256 KiB (262,144 bytes).",
			Options: append(docSimilarity("0.5"),
				proctor.SpecOptionDoc{Name: "weights", Type: "1 to 4 numbers >= 0, one > 0", Default: "none (sacreBLEU's 4 equal orders)", Meaning: "Weights of the log n-gram precisions, for n = 1 .. len(weights)."}),
			Example: `{"type": "bleu", "threshold": 0.4}`},
		{Name: "gleu", ReferenceTemplates: true, Build: gleuSpec, Family: "similarity", Summary: "sentence GLEU against the references",
			About:   "Computed as NLTK's sentence_gleu does.",
			Options: docSimilarity("0.5"), Example: `{"type": "gleu", "threshold": 0.4}`},
		{Name: "rouge", ReferenceTemplates: true, Build: rougeSpec, Family: "similarity", Summary: "ROUGE-N, ROUGE-L or ROUGE-Lsum against the references",
			About: "Computed as Google's rouge-score does; with several references the best F-measure counts.",
			Options: append(docSimilarity("0.5"),
				proctor.SpecOptionDoc{Name: "variant", Type: "string", Default: "rougeL", Meaning: "rouge1 to rouge9 (n-gram overlap), rougeL (longest common subsequence) or rougeLsum (over newline-separated sentences)."},
				proctor.SpecOptionDoc{Name: "measure", Type: "string", Default: "fmeasure", Meaning: "Which measure is compared with threshold: fmeasure, precision or recall."},
				proctor.SpecOptionDoc{Name: "stemmer", Type: "boolean", Default: "false", Meaning: "Porter-stem tokens longer than three characters."}),
			Example: `{"type": "rouge", "variant": "rouge1", "threshold": 0.6}`},
		{Name: "token_f1", ReferenceTemplates: true, Build: tokenF1Spec, Family: "similarity", Summary: "SQuAD token F1 against the best reference",
			About:   "Lower-cased, punctuation and articles removed, as the SQuAD evaluation does.",
			Options: docSimilarity("0.5"), Example: `{"type": "token_f1", "expected": "the Eiffel Tower"}`},
		{Name: "levenshtein", ReferenceTemplates: true, Build: levenshteinSpec, Family: "similarity", Summary: "1 - edit distance / longer length, over code points",
			About: "With max_distance it passes when the edit distance to the closest reference is at most that many edits, as promptfoo's levenshtein assertion's threshold does; the score is that reference's similarity, and threshold, when also given, must be reached too.",
			Options: append(docSimilarity("0.5"),
				proctor.SpecOptionDoc{Name: "max_distance", Type: "integer >= 0", Default: "none", Meaning: "The most code-point edits (insertions, deletions, substitutions) allowed."}),
			Example: `{"type": "levenshtein", "threshold": 0.8}`},
		{Name: "fuzzy_match", ReferenceTemplates: true, Build: fuzzyMatchSpec, Family: "similarity", Summary: "normalised Indel similarity (rapidfuzz's fuzz.ratio on a 0-1 scale)",
			Options: docSimilarity("0.5"), Example: `{"type": "fuzzy_match", "threshold": 0.9}`},
	}
}

// semanticLocationSpecTypes documents the similarity family's spec types
// semantic_similarity and localization_f1, which the reference shows after
// the string metrics, for [SpecTypes], with their builders.
func semanticLocationSpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "semantic_similarity", ReferenceTemplates: true, Build: semanticSimilaritySpec, Family: "similarity", Summary: "cosine of the embeddings of the output and the best reference",
			About:   "Uses the configured embedder; without one, the built-in lexical embedder, which measures shared wording rather than meaning and says so in the reason. Negative cosines score 0.",
			Options: docSimilarity("0.8"), Example: `{"type": "semantic_similarity", "threshold": 0.85}`},
		{Name: "localization_f1", ExpectedTemplate: true, Build: localizationSpec, Family: "similarity", Summary: "cited path:start-end lines against the expected locations",
			About: "Scores files and line overlap. An output that cites nothing or cannot be read fails, even at threshold 0.",
			Options: []proctor.SpecOptionDoc{
				{Name: "expected", Type: "string or object", Default: "the sample's expected", Meaning: "The right locations: path:start-end citations, or an object mapping a file to ranges. A string may hold templates such as {{item.KEY}} (docs/templates.md)."},
				docThreshold("0.5"),
			},
			Example: `{"type": "localization_f1", "expected": "src/auth.go:10-24"}`},
	}
}

// docThreshold is the threshold option of a scored type, def its default.
func docThreshold(def string) proctor.SpecOptionDoc {
	return proctor.SpecOptionDoc{Name: "threshold", Type: "number in [0, 1]", Default: def, Meaning: "The least passing score."}
}

// docSimilarity is the options of a similarity type: expected, references
// and threshold, def the threshold's default.
func docSimilarity(def string) []proctor.SpecOptionDoc {
	return []proctor.SpecOptionDoc{
		{Name: "expected", Type: "string", Default: "the sample's expected", Meaning: "The reference to compare with. " + kit.DocValueTemplate},
		{Name: "references", Type: "string array", Default: "the sample's references", Meaning: "More references; the best score counts. Given with expected, expected comes first. " + kit.DocValueTemplate},
		docThreshold(def),
	}
}
