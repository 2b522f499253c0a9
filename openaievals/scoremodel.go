package openaievals

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/judgereply"
)

// EvalMessage is one message of an OpenAI-evals model grader's input
// (score_model, label_model): a role and a content template.
type EvalMessage struct {
	// Role is system, developer, user or assistant.
	Role string
	// Content is a [proctor.Template]: {{item.KEY}}, {{sample.output_text}} and
	// the other variables it lists.
	Content string
}

// evalRoles are the roles OpenAI's eval messages take.
var evalRoles = []string{"system", "developer", "user", "assistant"}

// evalMessage is an [EvalMessage] with its content compiled.
type evalMessage struct {
	role    string
	content *proctor.Template
}

// evalModel is the body score_model and label_model share: the messages,
// the judge asked first and the caveats every judged grade carries.
type evalModel struct {
	name     string
	severity proctor.Severity
	judging  *proctor.Judging
	messages []evalMessage
	first    string   // the judge asked first; "" for pool order
	caveats  []string // the requested model not configured, sampling params not applied
	typ      string   // the spec type, for caveats
	model    string   // the model asked for, matched to the Runner's judges when built without any
	format   string   // how the judge is told to answer
}

// newEvalModel compiles the messages and picks the judge for model.
func newEvalModel(typ string, input []EvalMessage, model string, jo proctor.JudgeOptions, with []proctor.CompilerOption) (evalModel, error) {
	msgs, err := compileMessages(input)
	if err != nil {
		return evalModel{}, fmt.Errorf("proctor: %s: %w", typ, err)
	}
	g := evalModel{name: cmp.Or(jo.Name, typ), severity: jo.Severity, judging: proctor.NewJudging(with...), messages: msgs, typ: typ, model: model}
	var caveat string
	g.first, caveat = resolveJudge(g.judging.Pool(context.Background()), typ, model)
	if caveat != "" {
		g.caveats = append(g.caveats, caveat)
	}
	return g, nil
}

// messageText is the templates of input, one after another, as a MustX
// panic quotes them.
func messageText(input []EvalMessage) string {
	parts := make([]string, len(input))
	for i, m := range input {
		parts[i] = m.Content
	}
	return strings.Join(parts, "\n")
}

// compileMessages checks the roles and parses the content templates.
func compileMessages(input []EvalMessage) ([]evalMessage, error) {
	if len(input) == 0 {
		return nil, errors.New("input: no messages: the judge would be asked nothing")
	}
	out := make([]evalMessage, len(input))
	for i, m := range input {
		if !slices.Contains(evalRoles, m.Role) {
			return nil, fmt.Errorf("input[%d].role: %q is not one of %s", i, m.Role, strings.Join(evalRoles, ", "))
		}
		t, err := proctor.ParseTemplate(m.Content)
		if err != nil {
			return nil, fmt.Errorf("input[%d].content: %w", i, err)
		}
		out[i] = evalMessage{role: m.Role, content: t}
	}
	return out, nil
}

// Name returns the grader's name.
func (g *evalModel) Name() string { return g.name }

// GraderKind returns [proctor.KindModel]: a judge model grades.
func (g *evalModel) GraderKind() proctor.Kind { return proctor.KindModel }

// prompt renders the messages for s as "[role]\ncontent" blocks, the
// sample's values passed through redact, and ends with the answer format.
// It returns why s cannot be graded when a variable is missing.
func (g *evalModel) prompt(s *proctor.Sample, redact func(string) string) (string, string) {
	var b strings.Builder
	for i, m := range g.messages {
		text, err := m.content.RenderRedacted(s, redact)
		if err != nil {
			return "", fmt.Sprintf("input[%d].content: %v", i, err)
		}
		b.WriteString("[" + m.role + "]\n")
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	b.WriteString("[system]\n")
	b.WriteString(g.format)
	return b.String(), ""
}

// grade asks the judges and adds the grader's caveats to a judged grade.
// Built without judges, it matches its model to the judges of the Runner
// that runs it.
func (g *evalModel) grade(ctx context.Context, s *proctor.Sample, read func(string) (proctor.JudgeReading, error)) proctor.Grade {
	first, caveats := g.first, g.caveats
	if g.judging.Pool(context.Background()) == nil {
		if p := g.judging.Pool(ctx); p != nil {
			var caveat string
			first, caveat = resolveJudge(p, g.typ, g.model)
			if caveat != "" {
				caveats = append(slices.Clip(caveats), caveat)
			}
		}
	}
	r := g.judging.Ask(ctx, s, g.severity, proctor.JudgeAsk{Prompt: g.prompt, Read: read, First: first})
	if ev, ok := r.Evidence.(*proctor.JudgeEvidence); ok && len(ev.Judges) > 0 && len(caveats) > 0 {
		r.Caveats = append(slices.Clip(r.Caveats), caveats...)
	}
	return r
}

// modelFamilies infers a model's family from its id, for mapping an
// OpenAI grader's model to a judge of the same family.
var modelFamilies = []struct{ prefix, family string }{
	{"gpt-", "openai"}, {"chatgpt", "openai"}, {"o1", "openai"}, {"o3", "openai"}, {"o4", "openai"},
	{"claude", "anthropic"}, {"gemini", "google"}, {"gemma", "google"},
	{"llama", "meta"}, {"mistral", "mistral"}, {"mixtral", "mistral"},
	{"qwen", "alibaba"}, {"deepseek", "deepseek"},
}

// resolveJudge picks the judge an OpenAI grader's model names: a judge of
// that name, else of that model id, else of that family, else of the
// family the model id belongs to (gpt-* is openai, claude-* anthropic...).
// It returns the judge's name, or "" for the pool's own order, and a
// caveat when the judge asked is not the model requested.
func resolveJudge(p *proctor.JudgePool, typ, model string) (string, string) {
	if p == nil || model == "" {
		return "", ""
	}
	js := p.Judges()
	for _, same := range []func(proctor.JudgeModel) bool{
		func(j proctor.JudgeModel) bool { return j.Name == model },
		func(j proctor.JudgeModel) bool { return strings.EqualFold(j.Model, model) },
		func(j proctor.JudgeModel) bool { return familyOf(j) == strings.ToLower(strings.TrimSpace(model)) },
	} {
		if i := slices.IndexFunc(js, same); i >= 0 {
			return js[i].Name, ""
		}
	}
	m := strings.ToLower(model)
	for _, f := range modelFamilies {
		if !strings.HasPrefix(m, f.prefix) {
			continue
		}
		if i := slices.IndexFunc(js, func(j proctor.JudgeModel) bool { return familyOf(j) == f.family }); i >= 0 {
			return js[i].Name, fmt.Sprintf("%s model %q is not a configured judge: judge %s (model %s) of the same family, %s, graded instead",
				typ, model, js[i].Name, cmp.Or(js[i].Model, "unnamed"), f.family)
		}
		break
	}
	return "", fmt.Sprintf("%s model %q matches no configured judge by name, model or family: the primary judge %s (model %s) graded instead",
		typ, model, js[0].Name, cmp.Or(js[0].Model, "unnamed"))
}

// familyOf is the family judge j is compared by, as the pool compares
// families: its Family folded to lower case, or its own name's when empty.
func familyOf(j proctor.JudgeModel) string {
	if f := strings.ToLower(strings.TrimSpace(j.Family)); f != "" {
		return f
	}
	return "judge:" + j.Name
}

// ScoreModel is OpenAI evals' score_model grader: it sends its messages,
// rendered against the sample, to a judge, reads the score the judge
// replies with, and passes when the score reaches the pass threshold.
//
// The prompt is the messages as "[role]\ncontent" blocks, followed by a
// system block asking for the score alone or as OpenAI's JSON
// {"result": N, "steps": [...]}. The reply is read as a JSON object's
// "score" or "result" (fences and prose around it removed; "reasoning" or
// "steps" kept as the vote's reasoning), a labelled score ("Score: 3",
// "Final score: 0.8", "Rating: [[8]]", "[RESULT] 4"), or a number alone
// on a line ("0.8", "**3**"); "N/M" counts when M is the range's top,
// "85%" on a [0, 1] range. When the reasoning has other numbers alone on
// lines, the labelled score or the number on the last line decides, at
// low confidence. A reply with no such number, with labelled scores that
// disagree, or with one outside the range is unreadable: the judge
// abstains and a panel is asked. See [Judge] for what is not read.
//
// The grade's score is the judge's score scaled to [0, 1] over the range;
// pass or fail is raw score >= pass threshold, in the range's units. An
// OpenAI reply states no confidence, so a score within a tenth of the
// range of the threshold counts as low confidence (a panel decides), any
// other as high.
//
// Which judge grades: see [ScoreModelOptions.Model]. Without a judge the
// grade is not graded; a template variable the sample lacks is not graded.
// Sampling parameters are not passed to judges (a judge is called at
// temperature 0); see [SamplingParams]. The sample's text is quoted into
// the messages as it is, with no fence around it: an output that imitates
// a "[system]" block or a score can sway the judge, as it could OpenAI's.
// Immutable and safe for concurrent use.
type ScoreModel struct {
	evalModel
	lo, hi, threshold float64
}

// ScoreModelOptions configure [NewScoreModel]. The zero value scores on
// [0, 1] with the pool's first judge.
type ScoreModelOptions struct {
	// JudgeOptions name the grader (default "score_model") and set its
	// severity.
	proctor.JudgeOptions
	// Model is OpenAI's model field: the judge asked first is the one of
	// that name, else of that model id, else of that family, else of the
	// family the model id belongs to (gpt-* openai, claude-* anthropic,
	// gemini-* google), with a caveat on the grade saying so. When none
	// matches, the primary judge grades and every judged grade carries a
	// caveat saying the requested model was not available: the grade is
	// kept, since refusing it would make every OpenAI grader list naming
	// a model one does not run ungradable, and the caveat keeps it honest.
	// "" means the primary judge, without a caveat.
	Model string
	// Range is the lowest and highest score; zero means [0, 1].
	Range [2]float64
	// Sampling is OpenAI's sampling_params, accepted and checked but not
	// passed to judges; see [SamplingParams].
	Sampling SamplingParams
}

// SamplingParams are OpenAI's sampling_params for a score_model. A
// proctor [Judge] takes one prompt and is called at temperature 0 (with
// its own seed and token limit, where its adapter has them), so none of
// these reach the judge: temperature 0 and top_p 1 are what judges do
// anyway, and any other value given makes every judged grade carry a
// caveat naming what was not applied.
type SamplingParams struct {
	// Temperature in [0, 2].
	Temperature *float64 `json:"temperature"`
	// TopP in [0, 1].
	TopP *float64 `json:"top_p"`
	// Seed is any integer.
	Seed *int64 `json:"seed"`
	// MaxCompletionsTokens is positive (OpenAI's spelling).
	MaxCompletionsTokens *int `json:"max_completions_tokens"`
	// ReasoningEffort is none, minimal, low, medium, high or xhigh.
	ReasoningEffort string `json:"reasoning_effort"`
}

var reasoningEfforts = []string{"", "none", "minimal", "low", "medium", "high", "xhigh"}

// check returns which parameter is out of range, and why.
func (p SamplingParams) check() (string, error) {
	switch {
	case p.Temperature != nil && !(*p.Temperature >= 0 && *p.Temperature <= 2):
		return "temperature", fmt.Errorf("temperature %v is outside [0, 2]", *p.Temperature)
	case p.TopP != nil && !(*p.TopP >= 0 && *p.TopP <= 1):
		return "top_p", fmt.Errorf("top_p %v is outside [0, 1]", *p.TopP)
	case p.MaxCompletionsTokens != nil && *p.MaxCompletionsTokens <= 0:
		return "max_completions_tokens", fmt.Errorf("max_completions_tokens %d is not positive", *p.MaxCompletionsTokens)
	case !slices.Contains(reasoningEfforts, p.ReasoningEffort):
		return "reasoning_effort", fmt.Errorf("reasoning_effort %q is not one of none, minimal, low, medium, high, xhigh", p.ReasoningEffort)
	}
	return "", nil
}

// unapplied lists the parameters given that judges do not follow.
func (p SamplingParams) unapplied() []string {
	var out []string
	if p.Temperature != nil && *p.Temperature != 0 {
		out = append(out, "temperature="+strconv.FormatFloat(*p.Temperature, 'g', -1, 64))
	}
	if p.TopP != nil && *p.TopP != 1 {
		out = append(out, "top_p="+strconv.FormatFloat(*p.TopP, 'g', -1, 64))
	}
	if p.Seed != nil {
		out = append(out, "seed="+strconv.FormatInt(*p.Seed, 10))
	}
	if p.MaxCompletionsTokens != nil {
		out = append(out, "max_completions_tokens="+strconv.Itoa(*p.MaxCompletionsTokens))
	}
	if p.ReasoningEffort != "" {
		out = append(out, "reasoning_effort="+p.ReasoningEffort)
	}
	return out
}

var (
	_ proctor.Grader = (*ScoreModel)(nil)
	_ proctor.Kinded = (*ScoreModel)(nil)
)

// checkRange returns an error unless lo < hi, both finite.
func checkRange(r [2]float64) error {
	if math.IsNaN(r[0]) || math.IsNaN(r[1]) || math.IsInf(r[0], 0) || math.IsInf(r[1], 0) || r[0] >= r[1] {
		return fmt.Errorf("range [%g, %g] is not a finite [low, high] with low < high", r[0], r[1])
	}
	return nil
}

// checkThreshold returns an error unless t lies in the range.
func checkThreshold(t float64, r [2]float64) error {
	if !(t >= r[0] && t <= r[1]) {
		return fmt.Errorf("pass_threshold %v is outside the range [%g, %g]", t, r[0], r[1])
	}
	return nil
}

// NewScoreModel returns a score_model grader sending input to the judges
// configured by with ([WithJudges] or a [proctor.JudgePool], and the judge policy
// options), passing when the score is at least passThreshold. It returns
// an error when input is empty, a role is unknown, a template does not
// parse (a *[TemplateError]), the range is empty, the threshold lies
// outside it or a sampling parameter is out of range.
func NewScoreModel(input []EvalMessage, passThreshold float64, opts ScoreModelOptions, with ...proctor.CompilerOption) (*ScoreModel, error) {
	r := opts.Range
	if r == [2]float64{} {
		r = [2]float64{0, 1}
	}
	if err := checkRange(r); err != nil {
		return nil, fmt.Errorf("proctor: score_model: %w", err)
	}
	if err := checkThreshold(passThreshold, r); err != nil {
		return nil, fmt.Errorf("proctor: score_model: %w", err)
	}
	if _, err := opts.Sampling.check(); err != nil {
		return nil, fmt.Errorf("proctor: score_model: sampling_params: %w", err)
	}
	em, err := newEvalModel("score_model", input, opts.Model, opts.JudgeOptions, with)
	if err != nil {
		return nil, err
	}
	if un := opts.Sampling.unapplied(); len(un) > 0 {
		em.caveats = append(em.caveats, "score_model sampling_params not applied (judges are called at temperature 0 with their own seed and token limit): "+strings.Join(un, ", "))
	}
	lo, hi := kit.Num(r[0]), kit.Num(r[1])
	em.format = fmt.Sprintf("Reply with the score, a number from %s to %s, alone on the last line, or as JSON: "+
		`{"steps": [{"description": "...", "conclusion": "..."}], "result": <a number from %s to %s>}`, lo, hi, lo, hi)
	return &ScoreModel{evalModel: em, lo: r[0], hi: r[1], threshold: passThreshold}, nil
}

// MustScoreModel is [NewScoreModel] for package-level variables: it
// panics when NewScoreModel returns an error.
func MustScoreModel(input []EvalMessage, passThreshold float64, opts ScoreModelOptions, with ...proctor.CompilerOption) *ScoreModel {
	g, err := NewScoreModel(input, passThreshold, opts, with...)
	if err != nil {
		panic(kit.MustFailed("openaievals.MustScoreModel", messageText(input), err))
	}
	return g
}

// Grade asks the judges to score s; see [ScoreModel].
func (g *ScoreModel) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	return g.grade(ctx, s, g.read)
}

// read turns a reply into a verdict: pass at the threshold, low confidence
// within a tenth of the range of it or when the score was read from a
// looser form than the one asked for.
func (g *ScoreModel) read(reply string) (proctor.JudgeReading, error) {
	raw, loose, reasoning, err := readScoreReply(reply, g.lo, g.hi)
	if err != nil {
		return proctor.JudgeReading{}, err
	}
	if raw < g.lo || raw > g.hi {
		return proctor.JudgeReading{}, fmt.Errorf("score %s is outside the range [%s, %s]", kit.Num(raw), kit.Num(g.lo), kit.Num(g.hi))
	}
	cr := proctor.JudgeReading{Verdict: proctor.VerdictFail, Confidence: proctor.ConfidenceHigh, Score: (raw - g.lo) / (g.hi - g.lo), HasScore: true, RawScore: &raw, Reasoning: reasoning}
	if raw >= g.threshold {
		cr.Verdict = proctor.VerdictPass
	}
	if loose || math.Abs(raw-g.threshold) < (g.hi-g.lo)/10 {
		cr.Confidence = proctor.ConfidenceLow
	}
	return cr, nil
}

// errNoScore is an unreadable score reply's error.
var errNoScore = errors.New("no score: want a number alone on a line, or JSON with a \"score\" or \"result\" number")

// readScoreReply reads a judge's score on the range [lo, hi]: the reply
// as a number alone; a JSON object's "score" or "result" (in fences or
// prose); a labelled score ("Score: 3", "Final score: 0.8", "Rating:
// [[8]]", "[RESULT] 4", "8/10" when 10 is hi, "85%" on [0, 1]); else a
// number alone on a line. When the reasoning has other numbers alone on
// lines, a labelled score or the number on the last line decides, read
// as loose. It returns whether the form was looser than asked and the
// reasoning a JSON reply gave.
func readScoreReply(text string, lo, hi float64) (float64, bool, string, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return 0, false, "", errors.New("empty reply")
	}
	if f, ok := judgereply.PlainScore(t); ok && !strings.ContainsAny(t, "\n:=") {
		return f, false, "", nil
	}
	r, err := judgereply.Parse(t, "")
	if err != nil {
		return 0, false, "", err
	}
	var found []float64
	lines := strings.Split(r.Text, "\n")
	lastNum, lastOK := 0.0, false
	for i, line := range lines {
		if f, ok := judgereply.PlainScore(line); ok {
			if !slices.Contains(found, f) {
				found = append(found, f)
			}
			if i == len(lines)-1 {
				lastNum, lastOK = f, true
			}
		}
	}
	if r.HasScore {
		sc, err := judgereply.ScoreOnScale(r, lo, hi)
		if err != nil {
			return 0, false, "", err
		}
		if lastOK && lastNum != r.Score {
			return 0, false, "", fmt.Errorf("%w: score %s, then %s on the last line", judgereply.ErrContradictory, kit.Num(r.Score), kit.Num(lastNum))
		}
		return sc, r.Loose || len(found) > 1, r.Reasoning, nil
	}
	if r.Decided() {
		return 0, false, "", errNoScore
	}
	switch {
	case len(found) == 0:
		if _, _, _, ok := judgereply.ScoreAlone(r.Last); ok {
			// "8/10" or "85%" alone on the last line.
			sc, err := judgereply.ScoreOnScale(r, lo, hi)
			return sc, true, r.Reasoning, err
		}
		return 0, false, "", errNoScore
	case len(found) == 1:
		return found[0], false, r.Reasoning, nil
	case lastOK:
		return lastNum, true, r.Reasoning, nil
	}
	return 0, false, "", fmt.Errorf("ambiguous: %d different numbers stand alone on lines, none on the last", len(found))
}

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
		return nil, fmt.Errorf("proctor: label_model: %w", err)
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

// evalInputOption reads OpenAI's input: a list of messages {role, content,
// type "message"}, content a template string, a content part {type:
// input_text | output_text, text} or a list of them (joined by newlines).
// Images and audio are spec errors: judges here take text.
func evalInputOption(o *proctor.SpecOptions) []EvalMessage {
	raw, ok := o.Raw("input")
	if !ok {
		o.Errorf("input", "missing: want a list of messages [{role, content}]")
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		o.Errorf("input", "want a non-empty list of messages [{role, content}], got %s", kit.JSONKind(raw))
		return nil
	}
	out := make([]EvalMessage, 0, len(items))
	for i, it := range items {
		key := "input[" + strconv.Itoa(i) + "]"
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Type    string          `json:"type"`
		}
		if err := strictJSON(it, &m); err != nil {
			o.Wrap(key, "want a message {role, content, type \"message\"}", err)
			return nil
		}
		if m.Type != "" && m.Type != "message" {
			o.Errorf(key+".type", "want \"message\", got %q", m.Type)
			return nil
		}
		if !slices.Contains(evalRoles, m.Role) {
			o.Errorf(key+".role", "want one of %s, got %q", strings.Join(evalRoles, ", "), m.Role)
			return nil
		}
		text, err := contentText(m.Content)
		if err != nil {
			o.Wrap(key+".content", "want a template string or text content parts", err)
			return nil
		}
		if _, err := proctor.ParseTemplate(text); err != nil {
			o.Wrap(key+".content", "bad template", err)
			return nil
		}
		out = append(out, EvalMessage{Role: m.Role, Content: text})
	}
	return out
}

// contentText reads a message's content: a string, a part or parts.
func contentText(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		parts = []json.RawMessage{raw}
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		var part struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		var loose map[string]json.RawMessage
		if err := json.Unmarshal(p, &loose); err != nil {
			return "", fmt.Errorf("content part is %s, not an object", kit.JSONKind(p))
		}
		switch t := strings.Trim(string(loose["type"]), `"`); t {
		case "input_text", "output_text", "text":
		case "input_image", "input_audio", "image_url":
			return "", fmt.Errorf("content part type %s is not supported: judges here take text only", t)
		default:
			return "", fmt.Errorf("content part type %q is unknown (want input_text or output_text)", t)
		}
		if err := strictJSON(p, &part); err != nil || part.Text == nil {
			return "", fmt.Errorf("want a text part {type, text}: %v", cmpErr(err, "no text"))
		}
		texts = append(texts, *part.Text)
	}
	return strings.Join(texts, "\n"), nil
}

func cmpErr(err error, def string) string {
	if err != nil {
		return err.Error()
	}
	return def
}

// strictJSON decodes b into v, refusing unknown fields.
func strictJSON(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// judgeOptionsOf reads the options every model-graded spec shares.
func judgeOptionsOf(o *proctor.SpecOptions) (proctor.JudgeOptions, []proctor.CompilerOption) {
	return proctor.JudgeOptions{Name: o.Name(), Severity: o.Severity()}, []proctor.CompilerOption{o.Injected()}
}

// scoreModelSpec builds a score_model spec: name, model, input, range,
// pass_threshold, sampling_params.
func scoreModelSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	jo, with := judgeOptionsOf(o)
	opts := ScoreModelOptions{JudgeOptions: jo, Model: o.RequireString("model")}
	input := evalInputOption(o)
	var rng []float64
	if o.Decode("range", &rng) {
		if len(rng) != 2 {
			o.Errorf("range", "want [low, high], got %d numbers", len(rng))
		} else {
			opts.Range = [2]float64{rng[0], rng[1]}
			if err := checkRange(opts.Range); err != nil {
				o.Wrap("range", "invalid", err)
			}
		}
	}
	th, hasTh := o.OptFloat("pass_threshold")
	o.Decode("sampling_params", &opts.Sampling)
	if err := o.Err(); err != nil {
		return nil, err
	}
	r := cmpRange(opts.Range)
	if !hasTh {
		o.Errorf("pass_threshold", "missing: score_model needs a pass_threshold within its range [%s, %s]", kit.Num(r[0]), kit.Num(r[1]))
	} else if err := checkThreshold(th, r); err != nil {
		o.Wrap("pass_threshold", "invalid", err)
	}
	if k, err := opts.Sampling.check(); err != nil {
		o.Wrap("sampling_params."+k, "invalid", err)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewScoreModel(input, th, opts, with...)
	if err != nil {
		o.Wrap("input", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

func cmpRange(r [2]float64) [2]float64 {
	if r == [2]float64{} {
		return [2]float64{0, 1}
	}
	return r
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
		o.Wrap("input", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}
