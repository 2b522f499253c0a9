package similarity

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

// ContextMeasure picks the number a [ContextF1] grader compares with its
// threshold.
type ContextMeasure uint8

const (
	// MeasureF1 is the harmonic mean of precision and recall (the default).
	MeasureF1 ContextMeasure = iota
	// MeasurePrecision is the share of retrieved items that are relevant.
	MeasurePrecision
	// MeasureRecall is the share of relevant items that were retrieved.
	MeasureRecall
)

var contextMeasureNames = [...]string{"f1", "precision", "recall"}

// String returns "f1", "precision" or "recall".
func (m ContextMeasure) String() string {
	if int(m) < len(contextMeasureNames) {
		return contextMeasureNames[m]
	}
	return fmt.Sprintf("measure_%d", uint8(m))
}

// MarshalText encodes m as [ContextMeasure.String] does.
func (m ContextMeasure) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "f1", "precision" or "recall".
func (m *ContextMeasure) UnmarshalText(b []byte) error {
	return kit.UnmarshalEnum(m, b, len(contextMeasureNames), "similarity: ", "measure")
}

// ContextF1Options configure [NewContextF1]. The zero value scores F1
// against the sample's references with threshold 0.5.
type ContextF1Options struct {
	// Expected are the relevant items as text; ExpectedIDs as ids. When
	// both are empty the sample's References and ReferenceIDs are used.
	Expected    []string
	ExpectedIDs []string
	// Measure is MeasureF1 (default), MeasurePrecision or MeasureRecall.
	Measure ContextMeasure
	// Threshold is the least passing score; nil means 0.5.
	Threshold *float64
	// Name is shown in results; default "context_f1".
	Name string
}

// ContextF1 scores the items a RAG system retrieved (the sample's Context
// texts and ContextIDs) against the relevant ones: precision, recall and
// F1, and passes when the chosen measure is at least the threshold.
//
// Items given as ids match by id; items given as text match when equal
// after Unicode case folding and white-space folding (runs of white space
// become one space, ends trimmed). When the relevant items are all ids,
// only the retrieved ids are scored; when they are all texts, only the
// retrieved texts; when mixed, both. Duplicates count once.
//
// No relevant items (in the options or on the sample) is not graded.
// Relevant items but nothing retrieved scores 0 and fails, whatever the
// threshold. Score, precision, recall and F1 are in the grade's evidence
// ([ContextF1Evidence]). A ContextF1 is immutable and safe for concurrent
// use.
type ContextF1 struct {
	name      string
	texts     map[string]bool
	ids       map[string]bool
	measure   ContextMeasure
	threshold float64
}

// ContextF1Evidence is the evidence of a [ContextF1] grade.
type ContextF1Evidence struct {
	// Measure names the measure compared with the threshold ("f1",
	// "precision" or "recall") and Score is its value.
	Measure string  `json:"measure"`
	Score   float64 `json:"score"`
	// Precision is Matched / Retrieved, Recall is Matched / Relevant and
	// F1 their harmonic mean; each is 0 when its denominator is.
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// Retrieved and Relevant count the distinct items scored on each side;
	// Matched counts the retrieved items that are relevant.
	Retrieved int `json:"retrieved"`
	Relevant  int `json:"relevant"`
	Matched   int `json:"matched"`
}

var _ proctor.Grader = (*ContextF1)(nil)

// NewContextF1 returns a context_f1 grader. It returns an error for a
// threshold outside [0, 1] or an unknown measure.
func NewContextF1(opts ContextF1Options) (*ContextF1, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 0.5)
	if err != nil {
		return nil, fmt.Errorf("similarity: context_f1 %w", err)
	}
	if int(opts.Measure) >= len(contextMeasureNames) {
		return nil, fmt.Errorf("similarity: context_f1: unknown measure %v", opts.Measure)
	}
	g := &ContextF1{name: cmp.Or(opts.Name, "context_f1"), measure: opts.Measure, threshold: th}
	if len(opts.Expected)+len(opts.ExpectedIDs) > 0 {
		g.texts, g.ids = foldSet(opts.Expected), idSet(opts.ExpectedIDs)
	}
	return g, nil
}

// Name returns the grader's name.
func (g *ContextF1) Name() string { return g.name }

// Grade scores the sample's retrieved context.
func (g *ContextF1) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	texts, ids := g.texts, g.ids
	if texts == nil && ids == nil {
		texts, ids = foldSet(s.References), idSet(s.ReferenceIDs)
	}
	relevant := len(texts) + len(ids)
	if relevant == 0 {
		return proctor.NotGraded("no relevant context items: set expected_contexts on the spec or references on the sample")
	}
	var gotTexts, gotIDs map[string]bool
	if len(texts) > 0 {
		gotTexts = foldSet(s.Context)
	}
	if len(ids) > 0 {
		gotIDs = idSet(s.ContextIDs)
	}
	retrieved := len(gotTexts) + len(gotIDs)
	matched := 0
	for k := range gotTexts {
		if texts[k] {
			matched++
		}
	}
	for k := range gotIDs {
		if ids[k] {
			matched++
		}
	}
	ev := ContextF1Evidence{Measure: g.measure.String(), Retrieved: retrieved, Relevant: relevant, Matched: matched}
	if retrieved > 0 {
		ev.Precision = float64(matched) / float64(retrieved)
	}
	ev.Recall = float64(matched) / float64(relevant)
	if ev.Precision+ev.Recall > 0 {
		ev.F1 = 2 * ev.Precision * ev.Recall / (ev.Precision + ev.Recall)
	}
	switch g.measure {
	case MeasurePrecision:
		ev.Score = ev.Precision
	case MeasureRecall:
		ev.Score = ev.Recall
	default:
		ev.Score = ev.F1
	}
	reason := fmt.Sprintf("%s %.4g (precision %.4g, recall %.4g: %d of %d retrieved items relevant, %d of %d relevant items retrieved); threshold %.4g",
		ev.Measure, ev.Score, ev.Precision, ev.Recall, matched, retrieved, matched, relevant, g.threshold)
	if retrieved == 0 {
		gr := proctor.Failf("no context items retrieved, %d relevant expected", relevant).WithScore(0)
		return gr.WithEvidence(ev)
	}
	return proctor.Scored(ev.Score, g.threshold, reason).WithEvidence(ev)
}

// foldSet returns the set of texts after case and white-space folding;
// nil when texts is empty.
func foldSet(texts []string) map[string]bool {
	if len(texts) == 0 {
		return nil
	}
	m := make(map[string]bool, len(texts))
	for _, t := range texts {
		m[foldText(t)] = true
	}
	return m
}

func idSet(ids []string) map[string]bool {
	if len(ids) == 0 {
		return nil
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// foldText joins the white-space separated fields of s with one space and
// maps each rune to the smallest rune of its Unicode simple case-folding
// orbit, so texts differing only in case or spacing fold equal.
func foldText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, f := range strings.Fields(s) {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range f {
			b.WriteRune(foldRune(r))
		}
	}
	return b.String()
}

// foldRune returns the smallest rune in r's simple case-folding orbit.
func foldRune(r rune) rune {
	min := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < min {
			min = f
		}
	}
	return min
}

func contextF1Spec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := ContextF1Options{Name: o.Name()}
	if raw, ok := o.Raw("expected_contexts"); ok {
		texts, ids, err := kit.TextOrIDs(raw)
		switch {
		case err != nil:
			o.Wrap("expected_contexts", "want an array of strings or {\"id\": ...} objects", err)
		case len(texts)+len(ids) == 0:
			o.Errorf("expected_contexts", "must hold at least one item")
		}
		opts.Expected, opts.ExpectedIDs = texts, ids
	}
	switch o.Enum("measure", "f1", "f1", "precision", "recall") {
	case "precision":
		opts.Measure = MeasurePrecision
	case "recall":
		opts.Measure = MeasureRecall
	}
	opts.Threshold = proctor.Ptr(o.Threshold(0.5))
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewContextF1(opts)
	if err != nil {
		return nil, kit.SpecCause("similarity: ", err)
	}
	return g, nil
}
