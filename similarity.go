package proctor

import (
	"github.com/proctorhq/proctor/internal/kit"
)

// similaritySpecs registers the spec types bleu, rouge, token_f1, gleu, levenshtein, fuzzy_match, context_f1, localization_f1, semantic_similarity.
//
// context_f1 is registered elsewhere; meteor is deliberately absent (NLTK's
// METEOR needs WordNet data to match, so a spec naming it is a spec error).
func similaritySpecs(m map[string]Builder) {
	m["bleu"] = func(o *SpecOptions) (Grader, error) {
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
			o.Wrap("weights", "want 1 to 4 weights >= 0, one > 0", err)
			return nil, o.Err()
		}
		return g, nil
	}
	m["gleu"] = func(o *SpecOptions) (Grader, error) {
		g, err := NewGLEU(GLEUOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
		return specGrader(o, "threshold", g, err)
	}
	m["rouge"] = func(o *SpecOptions) (Grader, error) {
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
			o.Wrap("variant", "want rouge1 .. rouge9, rougeL or rougeLsum", err)
			return nil, o.Err()
		}
		return g, nil
	}
	m["token_f1"] = func(o *SpecOptions) (Grader, error) {
		g, err := NewTokenF1(TokenF1Options{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
		return specGrader(o, "threshold", g, err)
	}
	m["levenshtein"] = func(o *SpecOptions) (Grader, error) {
		opts := EditSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
		if d, ok := o.OptInt("max_distance"); ok {
			if d < 0 {
				o.Errorf("max_distance", "want a whole number of edits >= 0, got %d", d)
			}
			opts.MaxDistance = &d
		}
		g, err := NewLevenshtein(opts)
		return specGrader(o, "threshold", g, err)
	}
	m["fuzzy_match"] = func(o *SpecOptions) (Grader, error) {
		g, err := NewFuzzyMatch(EditSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()})
		return specGrader(o, "threshold", g, err)
	}
	m["localization_f1"] = localizationSpec
	m["semantic_similarity"] = func(o *SpecOptions) (Grader, error) {
		opts := SemanticSimilarityOptions{References: specReferences(o), Threshold: o.OptThreshold(), Name: o.Name()}
		if err := o.Err(); err != nil {
			return nil, err
		}
		g, err := newSemanticSimilarity(o.config().embedder(), opts)
		return specGrader(o, "threshold", g, err)
	}
}

// OptThreshold returns the threshold option, read as [SpecOptions.Threshold]
// reads it, or nil when the spec does not give one, so that a builder can
// leave the grader's own default in place.
func (o *SpecOptions) OptThreshold() *float64 {
	if !o.Has("threshold") {
		return nil
	}
	t := o.Threshold(0)
	return &t
}

// specGrader returns the grader a builder's constructor made, or the spec's
// error: the first problem the options recorded, else the constructor's
// err recorded against option key. A builder whose getters already refused
// every bad value never reaches the second; it keeps a value the getters
// let through from being graded silently.
func specGrader[G Grader](o *SpecOptions, key string, g G, err error) (Grader, error) {
	if e := o.Err(); e != nil {
		return nil, e
	}
	if err != nil {
		o.Wrap(key, "", err)
		return nil, o.Err()
	}
	return g, nil
}

// specReferences reads the reference options shared by the similarity
// specs: expected (a string) or references (strings). Both may be given;
// expected comes first. Nil when neither is, so the sample's are used.
func specReferences(o *SpecOptions) []string {
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
func bestOfRefs(fixed []string, s *Sample) ([]string, bool) {
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
func multiRefs(fixed []string, s *Sample) ([]string, bool) {
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

// thresholdOr returns *t, or def when t is nil.

// scoreGrade is the grade of a similarity score against a threshold, with
// the score formatted in the reason.
func scoreGrade(metric string, score, threshold float64, refs int, ev any) Grade {
	return Scored(score, threshold, kit.ScoreReason(metric, score, threshold, refs)).WithEvidence(ev)
}
