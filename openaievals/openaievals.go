package openaievals

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

// StringOp is a [StringCheck] operation, with OpenAI evals' meanings.
type StringOp uint8

const (
	// StringOpEq passes when input equals reference, case-sensitively.
	StringOpEq StringOp = iota
	// StringOpNe passes when input differs from reference, case-sensitively.
	StringOpNe
	// StringOpLike passes when input contains reference, case-sensitively.
	StringOpLike
	// StringOpILike passes when input contains reference, ignoring case.
	StringOpILike
)

var stringOpNames = [...]string{"eq", "ne", "like", "ilike"}

// MarshalText encodes op as [StringOp.String] does.
func (op StringOp) MarshalText() ([]byte, error) { return []byte(op.String()), nil }

// UnmarshalText decodes "eq", "ne", "like" or "ilike".
func (op *StringOp) UnmarshalText(b []byte) error {
	if i := slices.Index(stringOpNames[:], string(b)); i >= 0 {
		*op = StringOp(i)
		return nil
	}
	return fmt.Errorf("openaievals: unknown operation %q (want %s)", b, strings.Join(stringOpNames[:], ", "))
}

// String returns OpenAI's name for op: "eq", "ne", "like" or "ilike".
func (op StringOp) String() string {
	if int(op) < len(stringOpNames) {
		return stringOpNames[op]
	}
	return "string_op_" + strconv.Itoa(int(op))
}

// StringCheck is OpenAI evals' string_check grader. It renders its input
// template (default {{sample.output_text}}) and reference template against
// the sample, trims both of surrounding white space, and compares them as
// OpenAI's graders guide defines: eq (equal, case-sensitive), ne (not
// equal), like (input contains reference, case-sensitive), ilike (contains,
// ignoring case by Unicode lower-casing).
//
// like and ilike are containment, not SQL LIKE over the whole string, as
// OpenAI documents them. A reference written SQL-style is still honoured:
// "%" matches any run of characters (so "%paris%" and "paris" read the
// same, and "a%b" needs an "a" then a "b"); "\%" is a literal percent sign.
// "_" is always literal, since references such as "user_id" are common.
//
// A template variable the sample lacks (an item key) is not graded.
// Immutable and safe for concurrent use.
type StringCheck struct {
	name string
	op   StringOp
	inputReference
}

// StringCheckOptions configure [NewStringCheck]. The zero value reads the
// sample's output as the input.
type StringCheckOptions struct {
	// Input is the input template; "" means "{{sample.output_text}}".
	Input string
	// Name is shown in results; default "string_check".
	Name string
}

var _ proctor.Grader = (*StringCheck)(nil)

// NewStringCheck returns a string_check grader comparing the input with
// the reference template by op. It returns a *[TemplateError] when a
// template does not parse, and an error for an unknown op.
func NewStringCheck(op StringOp, reference string, opts StringCheckOptions) (*StringCheck, error) {
	if int(op) >= len(stringOpNames) {
		return nil, refuse("string_check: unknown operation %v", op)
	}
	p, err := parseInputReference("string_check", opts.Input, reference)
	if err != nil {
		return nil, err
	}
	return &StringCheck{name: cmp.Or(opts.Name, "string_check"), op: op, inputReference: p}, nil
}

// MustStringCheck is [NewStringCheck] for package-level variables; it
// panics, naming the call and the reference, when NewStringCheck fails.
func MustStringCheck(op StringOp, reference string, opts StringCheckOptions) *StringCheck {
	g, err := NewStringCheck(op, reference, opts)
	if err != nil {
		panic(kit.MustFailed("openaievals.MustStringCheck", reference, err))
	}
	return g
}

// Name returns the grader's name.
func (g *StringCheck) Name() string { return g.name }

// Grade renders the templates and compares.
func (g *StringCheck) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	in, ref, ng, rendered := g.render(s)
	if !rendered {
		return ng
	}
	in, ref = strings.TrimSpace(in), strings.TrimSpace(ref)
	var ok bool
	switch g.op {
	case StringOpEq, StringOpNe:
		ok = (in == ref) == (g.op == StringOpEq)
	case StringOpLike:
		ok = likeContains(in, ref)
	case StringOpILike:
		ok = likeContains(strings.ToLower(in), strings.ToLower(ref))
	}
	if ok {
		return proctor.Grade{Status: proctor.StatusPassed, Score: 1, HasScore: true}
	}
	var why string
	switch g.op {
	case StringOpEq:
		why = "does not equal"
	case StringOpNe:
		why = "equals"
	case StringOpLike:
		why = "does not contain"
	default:
		why = "does not contain (ignoring case)"
	}
	return proctor.Grade{Status: proctor.StatusFailed, HasScore: true, Reason: fmt.Sprintf("input %s %s reference %s", kit.Quote(in), why, kit.Quote(ref))}
}

// inputReference is the pair of templates OpenAI's graders compare.
type inputReference struct {
	input, reference *proctor.Template
}

// parseInputReference parses the input template ("" means
// {{sample.output_text}}) and the reference template of grader typ.
func parseInputReference(typ, input, reference string) (inputReference, error) {
	in, err := proctor.ParseTemplate(cmp.Or(input, "{{sample.output_text}}"))
	if err != nil {
		return inputReference{}, refuse("%s input: %w", typ, err)
	}
	ref, err := proctor.ParseTemplate(reference)
	if err != nil {
		return inputReference{}, refuse("%s reference: %w", typ, err)
	}
	return inputReference{in, ref}, nil
}

// render renders both templates, or returns the not-graded grade naming
// the variable the sample lacks.
func (p inputReference) render(s *proctor.Sample) (in, ref string, ng proctor.Grade, ok bool) {
	in, err := p.input.Render(s)
	if err != nil {
		return "", "", proctor.ErrorGrade("input", err), false
	}
	ref, err = p.reference.Render(s)
	if err != nil {
		return "", "", proctor.ErrorGrade("reference", err), false
	}
	return in, ref, proctor.Grade{}, true
}

// likeContains reports whether s contains pattern, where an unescaped '%'
// in pattern matches any run of characters and "\%" a literal '%'.
func likeContains(s, pattern string) bool {
	if !strings.Contains(pattern, "%") {
		return strings.Contains(s, pattern)
	}
	pos := 0
	for _, part := range likeParts(pattern) {
		i := strings.Index(s[pos:], part)
		if i < 0 {
			return false
		}
		pos += i + len(part)
	}
	return true
}

// likeParts splits pattern at unescaped '%' into its literal parts.
func likeParts(pattern string) []string {
	var parts []string
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch {
		case pattern[i] == '\\' && i+1 < len(pattern) && pattern[i+1] == '%':
			b.WriteByte('%')
			i++
		case pattern[i] == '%':
			if b.Len() > 0 {
				parts = append(parts, b.String())
				b.Reset()
			}
		default:
			b.WriteByte(pattern[i])
		}
	}
	if b.Len() > 0 {
		parts = append(parts, b.String())
	}
	return parts
}

// TextSimilarity is OpenAI evals' text_similarity grader: it renders its
// input and reference templates against the sample and grades the rendered
// input, as the output, against the rendered reference, as the expected
// value, with a metric grader (fuzzy_match, bleu, rouge, ...). The metric
// decides pass, fail and score. A template variable the sample lacks is
// not graded. Its kind is the metric's. Safe for concurrent use if the
// metric is.
type TextSimilarity struct {
	name   string
	metric proctor.Grader
	inputReference
}

// TextSimilarityOptions configure [NewTextSimilarity]. The zero value reads
// the sample's output as the input.
type TextSimilarityOptions struct {
	// Input is the input template; "" means "{{sample.output_text}}".
	Input string
	// Name is shown in results; default "text_similarity".
	Name string
}

var (
	_ proctor.Grader = (*TextSimilarity)(nil)
	_ proctor.Kinded = (*TextSimilarity)(nil)
)

// NewTextSimilarity returns a grader that applies metric to the rendered
// templates. It returns an error when metric is nil or a template does not
// parse.
func NewTextSimilarity(metric proctor.Grader, reference string, opts TextSimilarityOptions) (*TextSimilarity, error) {
	if metric == nil {
		return nil, refuse("text_similarity needs a metric grader")
	}
	p, err := parseInputReference("text_similarity", opts.Input, reference)
	if err != nil {
		return nil, err
	}
	return &TextSimilarity{name: cmp.Or(opts.Name, "text_similarity"), metric: metric, inputReference: p}, nil
}

// MustTextSimilarity is [NewTextSimilarity] for package-level variables; it
// panics, naming the call and the reference, when NewTextSimilarity fails.
func MustTextSimilarity(metric proctor.Grader, reference string, opts TextSimilarityOptions) *TextSimilarity {
	g, err := NewTextSimilarity(metric, reference, opts)
	if err != nil {
		panic(kit.MustFailed("openaievals.MustTextSimilarity", reference, err))
	}
	return g
}

// Name returns the grader's name.
func (g *TextSimilarity) Name() string { return g.name }

// GraderKind returns the metric's kind (semantic similarity calls an
// embedder).
func (g *TextSimilarity) GraderKind() proctor.Kind { return proctor.KindOf(g.metric) }

// Grade renders the templates and grades with the metric.
func (g *TextSimilarity) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	in, ref, ng, ok := g.render(s)
	if !ok {
		return ng
	}
	d := *s
	d.Output, d.Expected, d.References, d.ReferenceIDs = in, &ref, nil, nil
	r := proctor.Check{Grader: g.metric}.Grade(ctx, &d)
	r.Grader = ""
	return r
}

// similarityMetrics maps OpenAI's evaluation_metric values to the spec of
// the proctor metric grader that computes them.
var similarityMetrics = map[string]map[string]any{
	"fuzzy_match": {"type": "fuzzy_match"},
	"bleu":        {"type": "bleu"},
	"gleu":        {"type": "gleu"},
	"meteor":      {"type": "meteor"},
	"cosine":      {"type": "semantic_similarity"},
	"rouge_1":     {"type": "rouge", "variant": "rouge1"},
	"rouge_2":     {"type": "rouge", "variant": "rouge2"},
	"rouge_3":     {"type": "rouge", "variant": "rouge3"},
	"rouge_4":     {"type": "rouge", "variant": "rouge4"},
	"rouge_5":     {"type": "rouge", "variant": "rouge5"},
	"rouge_l":     {"type": "rouge", "variant": "rougeL"},
}

// similarityMetricNames lists the evaluation_metric values, for messages.
const similarityMetricNames = "fuzzy_match, bleu, gleu, meteor, cosine, rouge_1, rouge_2, rouge_3, rouge_4, rouge_5, rouge_l"

// refuse is a constructor's error: "openaievals: " and the reason, which
// spec errors show after "proctor: " as they always have
// ([kit.SpecCause]).
func refuse(format string, a ...any) error { return kit.Refuse("openaievals: ", format, a...) }

// stringCheckSpec builds a string_check spec: operation, input, reference.
func stringCheckSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	op := o.Enum("operation", "", stringOpNames[:]...)
	if !o.Has("operation") {
		o.Errorf("operation", "missing: string_check needs one of eq, ne, like, ilike")
	}
	in := templateOption(o, "input", "{{sample.output_text}}", false)
	ref := templateOption(o, "reference", "", true)
	if err := o.Err(); err != nil {
		return nil, err
	}
	return &StringCheck{name: o.Name(), op: StringOp(slices.Index(stringOpNames[:], op)), inputReference: inputReference{in, ref}}, nil
}

// CompileTestingCriteria compiles an OpenAI-evals testing_criteria list:
// a JSON array of grader objects with OpenAI's field names (string_check,
// text_similarity, score_model, label_model, multi, python), or an object
// holding such an array under "testing_criteria" (an eval's create
// request). score_model and label_model ask the judges the Compiler was
// given ([ScoreModel], [LabelModel]). Any proctor spec may appear in the
// list too. Unlike [proctor.Compiler.CompileList] it refuses an empty list, since
// an eval with no criteria grades nothing. Errors name the entry by its
// index and name.
func CompileTestingCriteria(c *proctor.Compiler, list []byte) ([]proctor.Check, error) {
	list = bytes.TrimSpace(list)
	if len(list) > 0 && list[0] == '{' {
		var wrapper struct {
			TestingCriteria json.RawMessage `json:"testing_criteria"`
		}
		if err := json.Unmarshal(list, &wrapper); err != nil || len(wrapper.TestingCriteria) == 0 {
			return nil, &proctor.SpecError{Spec: "testing_criteria", Msg: "want a JSON array of grader objects, or an object with a \"testing_criteria\" array", Err: err}
		}
		list = wrapper.TestingCriteria
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(list, &raws); err != nil {
		return nil, &proctor.SpecError{Spec: "testing_criteria", Msg: "want a JSON array of grader objects", Err: err}
	}
	if len(raws) == 0 {
		return nil, &proctor.SpecError{Spec: "testing_criteria", Msg: "the list is empty: nothing would be graded"}
	}
	out := make([]proctor.Check, 0, len(raws))
	for i, r := range raws {
		ch, err := c.CompileAs("testing_criteria["+strconv.Itoa(i)+"]", r)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// passThreshold reads OpenAI's pass_threshold option, or SPEC's threshold
// as its other spelling (not both), which must lie in [0, 1]; def when
// neither is given.
func passThreshold(o *proctor.SpecOptions, def float64) float64 {
	if o.Has("pass_threshold") && o.Has("threshold") {
		o.Errorf("threshold", "give pass_threshold or threshold, not both")
		return def
	}
	f, ok := o.OptFloat("pass_threshold")
	if !ok {
		return o.Threshold(def)
	}
	if f < 0 || f > 1 {
		o.Errorf("pass_threshold", "want a number in [0, 1], got %v", f)
		return def
	}
	return f
}

// templateOption reads a template option: def when absent, a spec error
// naming the option when it does not parse.
func templateOption(o *proctor.SpecOptions, key, def string, required bool) *proctor.Template {
	var src string
	if required {
		src = o.RequireString(key)
	} else {
		src = o.String(key, def)
	}
	if o.Err() != nil {
		return nil
	}
	t, err := proctor.ParseTemplate(src)
	if err != nil {
		o.Wrap(key, "bad template", err)
		return nil
	}
	return t
}

// textSimilaritySpec builds a text_similarity spec: input, reference,
// evaluation_metric, pass_threshold. The metric is compiled as a nested
// spec, so it takes the Compiler's embedder for cosine.
func textSimilaritySpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	in := templateOption(o, "input", "{{sample.output_text}}", false)
	ref := templateOption(o, "reference", "", true)
	metric := o.RequireString("evaluation_metric")
	if metric == "cosine_similarity" {
		metric = "cosine" // as some OpenAI examples spell it
	}
	var threshold float64
	if t, ok := o.OptFloat("pass_threshold"); !ok && o.Err() == nil {
		o.Errorf("pass_threshold", "missing: text_similarity needs a pass_threshold in [0, 1]")
	} else if t < 0 || t > 1 {
		o.Errorf("pass_threshold", "want a number in [0, 1], got %v", t)
	} else {
		threshold = t
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	spec, ok := similarityMetrics[metric]
	if !ok {
		o.Errorf("evaluation_metric", "unknown metric %q (want one of %s)", metric, similarityMetricNames)
		return nil, o.Err()
	}
	inner := map[string]any{"threshold": threshold, "name": o.Name()}
	for k, v := range spec {
		inner[k] = v
	}
	raw, err := json.Marshal(inner)
	if err != nil {
		return nil, err
	}
	ch, err := o.CompileNested("evaluation_metric", raw)
	var se *proctor.SpecError
	if errors.As(err, &se) && se.Option == "type" {
		if metric == "meteor" {
			o.Errorf("evaluation_metric", "metric %s needs the %s grader, which is not available yet in this build", metric, spec["type"])
		} else {
			// The metric graders are the similarity family's: a Compiler
			// given builtin.Types() has them.
			o.Errorf("evaluation_metric", "metric %s needs the similarity family's %s grader: give the Compiler similarity.Types() or builtin.Types()", metric, spec["type"])
		}
		return nil, o.Err()
	}
	if err != nil {
		return nil, err
	}
	return &TextSimilarity{name: o.Name(), metric: ch.Grader, inputReference: inputReference{in, ref}}, nil
}
