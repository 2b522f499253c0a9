package openaievals

import (
	"context"
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
		return nil, refuse("score_model: %w", err)
	}
	if err := checkThreshold(passThreshold, r); err != nil {
		return nil, refuse("score_model: %w", err)
	}
	if _, err := opts.Sampling.check(); err != nil {
		return nil, refuse("score_model: sampling_params: %w", err)
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
		o.Wrap("input", "invalid", kit.SpecCause("openaievals: ", err))
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
