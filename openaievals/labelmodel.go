package openaievals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/judgereply"
)

// LabelModel is OpenAI evals' label_model grader: it sends its messages,
// rendered against the sample, to a judge, asks it to answer with exactly
// one of the labels, and passes when that label is one of the passing
// labels. The grade's evidence holds the label in each judge's vote
// (Category).
//
// The reply is read, ignoring case, closing punctuation, and spaces,
// underscores and hyphens, as JSON {"label": ...} (or "result"), in fences
// or prose, or as the label alone ("positive", "**Positive**.", "Label:
// positive"): these count as high confidence. Failing that, at low
// confidence (a panel decides): another answer form ("Final answer: X",
// "(B)", "GRADE: C", {"choice": "Y"}), the label alone on the last line
// (as OpenAI evals' chain-of-thought classifiers read it) or on the first,
// or the one label the reply mentions as a whole word. A label inside a
// longer one ("relevant" in "not relevant"), after a negation ("not
// factual"), or of one letter ("a" the article, "I" the pronoun) is not
// counted as mentioned. A reply that names none or several, or a label not
// in the list, is unreadable: the judge abstains.
//
// Which judge grades: as [ScoreModelOptions.Model]. Without a judge the
// grade is not graded; a template variable the sample lacks is not graded.
// Immutable and safe for concurrent use.
type LabelModel struct {
	evalModel
	labels, passing []string
}

// LabelModelOptions configure [NewLabelModel]. The zero value asks the
// pool's first judge.
type LabelModelOptions struct {
	// JudgeOptions name the grader (default "label_model") and set its
	// severity.
	proctor.JudgeOptions
	// Model picks the judge as [ScoreModelOptions.Model] does.
	Model string
}

var (
	_ proctor.Grader = (*LabelModel)(nil)
	_ proctor.Kinded = (*LabelModel)(nil)
)

// checkLabels returns which option is wrong, and why: labels empty, blank
// or repeated (ignoring case), passing labels empty or not among them.
func checkLabels(labels, passing []string) (string, error) {
	if len(labels) == 0 {
		return "labels", errors.New("no labels: want at least one")
	}
	for i, l := range labels {
		if strings.TrimSpace(l) == "" {
			return "labels", fmt.Errorf("label %d is blank", i)
		}
		if slices.ContainsFunc(labels[:i], func(x string) bool { return strings.EqualFold(x, l) }) {
			return "labels", fmt.Errorf("label %q is given twice (labels are matched ignoring case)", l)
		}
	}
	if len(passing) == 0 {
		return "passing_labels", errors.New("no passing labels: want at least one of the labels")
	}
	for _, p := range passing {
		if !slices.Contains(labels, p) {
			return "passing_labels", fmt.Errorf("%q is not one of the labels", p)
		}
	}
	return "", nil
}

// NewLabelModel returns a label_model grader sending input to the judges
// configured by with, passing when the judge's label is in passing. It
// returns an error when input is empty, a role is unknown, a template does
// not parse, labels are empty, blank or repeated, or passing is empty or
// names a label not in labels.
func NewLabelModel(input []EvalMessage, labels, passing []string, opts LabelModelOptions, with ...proctor.CompilerOption) (*LabelModel, error) {
	if _, err := checkLabels(labels, passing); err != nil {
		return nil, refuse("label_model: %w", err)
	}
	em, err := newEvalModel("label_model", input, opts.Model, opts.JudgeOptions, with)
	if err != nil {
		return nil, err
	}
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = strconv.Quote(l)
	}
	em.format = "Reply with exactly one of these labels: " + strings.Join(q, ", ") +
		`. Give the label alone, or as JSON: {"label": "<label>"}.`
	return &LabelModel{evalModel: em, labels: slices.Clone(labels), passing: slices.Clone(passing)}, nil
}

// MustLabelModel is [NewLabelModel] for package-level variables: it panics
// when NewLabelModel returns an error.
func MustLabelModel(input []EvalMessage, labels, passing []string, opts LabelModelOptions, with ...proctor.CompilerOption) *LabelModel {
	g, err := NewLabelModel(input, labels, passing, opts, with...)
	if err != nil {
		panic(kit.MustFailed("openaievals.MustLabelModel", messageText(input), err))
	}
	return g
}

// Grade asks the judges to label s; see [LabelModel].
func (g *LabelModel) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	return g.grade(ctx, s, g.read)
}

func (g *LabelModel) read(reply string) (proctor.JudgeReading, error) {
	label, exact, reasoning, err := readLabelReply(reply, g.labels)
	if err != nil {
		return proctor.JudgeReading{}, err
	}
	cr := proctor.JudgeReading{Verdict: proctor.VerdictFail, Confidence: proctor.ConfidenceLow, Category: label, Reasoning: reasoning}
	if exact {
		cr.Confidence = proctor.ConfidenceHigh
	}
	if slices.Contains(g.passing, label) {
		cr.Verdict = proctor.VerdictPass
	}
	return cr, nil
}

// readLabelReply reads which of labels a reply chose, compared as
// [judgereply.SameLabel] does: exact (high confidence) from JSON
// {"label"|"result": ...}, a "Label:" line or the label alone; loose (low
// confidence, exact false) from another answer form ("Final answer: X",
// "(B)", "GRADE: C", {"choice": ...}), from the label alone on the last
// line (as OpenAI evals' chain-of-thought classifiers read it), or from the
// one label the reply mentions as a whole word, not negated.
func readLabelReply(text string, labels []string) (label string, exact bool, reasoning string, err error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return "", false, "", errors.New("empty reply")
	}
	var s string
	if json.Unmarshal([]byte(t), &s) == nil {
		t = s
	}
	r, err := judgereply.Parse(t, "")
	if err != nil {
		return "", false, "", err
	}
	single := !strings.Contains(strings.TrimSpace(r.Text), "\n")
	l, edge, err := judgereply.PickLabel(r, labels)
	switch {
	case err == nil && !edge:
		return l, !r.Loose, r.Reasoning, nil
	case err == nil:
		return l, single, r.Reasoning, nil
	case errors.Is(err, judgereply.ErrContradictory), r.Category != "":
		return "", false, "", err
	case strings.HasPrefix(t, "{") && r.Choice != "":
		return "", false, "", fmt.Errorf("label %s is not one of the %d labels", kit.Quote(r.Choice), len(labels))
	}
	if l, ok := judgereply.MatchLabel(r.Last, labels, false); ok && single {
		return l, true, r.Reasoning, nil
	}
	if strings.TrimSpace(r.Text) == "" {
		return "", false, "", errors.New(`no label: the JSON reply has no "label"`)
	}
	var hit []string
	for _, l := range labels {
		if mentioned(r.Text, l, labels) {
			hit = append(hit, l)
		}
	}
	switch len(hit) {
	case 0:
		return "", false, "", fmt.Errorf("no label: the reply names none of the %d labels", len(labels))
	case 1:
		return hit[0], false, kit.ClipRunes(r.Text, 300), nil
	}
	return "", false, "", fmt.Errorf("ambiguous: the reply names %d labels (%s)", len(hit), strings.Join(hit, ", "))
}

// mentioned reports whether text holds label l as a whole word, ignoring
// case, somewhere not inside a longer label that holds it ("relevant" in
// "not relevant") and not negated ("not factual" does not mention
// factual). A one-letter label is never found by mention: "a" is an
// article, "I" a pronoun.
func mentioned(text, l string, labels []string) bool {
	lt, ll := strings.ToLower(text), strings.ToLower(strings.TrimSpace(l))
	if len([]rune(ll)) < 2 {
		return false
	}
	var longer []string
	for _, o := range labels {
		if lo := strings.ToLower(o); len(lo) > len(ll) && strings.Contains(lo, ll) {
			longer = append(longer, lo)
		}
	}
	type span struct{ at, n int }
	var outer []span
	for _, lo := range longer {
		for _, sp := range wordSpans(lt, lo) {
			outer = append(outer, span{sp, len(lo)})
		}
	}
	for _, at := range wordSpans(lt, ll) {
		inside := false
		for _, o := range outer {
			if o.at <= at && at+len(ll) <= o.at+o.n {
				inside = true
				break
			}
		}
		if !inside && !judgereply.Negated(lt, at) {
			return true
		}
	}
	return false
}

// wordSpans returns the offsets where w occurs in s with no letter or
// digit just before or after it.
func wordSpans(s, w string) []int {
	var out []int
	for i := 0; w != ""; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			break
		}
		at := i + k
		end := at + len(w)
		if (at == 0 || !isWordByte(s[at-1])) && (end == len(s) || !isWordByte(s[end])) {
			out = append(out, at)
		}
		i = at + 1
	}
	return out
}

// isWordByte reports whether b is an ASCII letter or digit, or part of a
// multi-byte (non-ASCII) letter.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

// labelModelSpec builds a label_model spec: name, model, input, labels,
// passing_labels.
func labelModelSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	jo, with := judgeOptionsOf(o)
	opts := LabelModelOptions{JudgeOptions: jo, Model: o.RequireString("model")}
	input := evalInputOption(o)
	labels, okL := o.OptStrings("labels")
	passing, okP := o.OptStrings("passing_labels")
	if err := o.Err(); err != nil {
		return nil, err
	}
	switch {
	case !okL:
		o.Errorf("labels", "missing: label_model needs the labels the judge chooses from")
	case !okP:
		o.Errorf("passing_labels", "missing: label_model needs the labels that pass, a subset of labels")
	default:
		if k, err := checkLabels(labels, passing); err != nil {
			o.Wrap(k, "invalid", err)
		}
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewLabelModel(input, labels, passing, opts, with...)
	if err != nil {
		o.Wrap("input", "invalid", kit.SpecCause("openaievals: ", err))
		return nil, o.Err()
	}
	return g, nil
}
