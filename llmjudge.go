package proctor

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/judgereply"
)

// taskKind is how a judge is asked and its reply read.
type taskKind uint8

const (
	taskBinary taskKind = iota
	taskScore
	taskCategory
	taskPairwise
	taskCustom // a prompt and reader from a JudgeAsk (judgeask.go)
)

// judgeTask is what a model-graded grader asks: its criterion, the
// material it shows and how a reply becomes a verdict. Immutable.
type judgeTask struct {
	kind   taskKind
	rubric string
	// needInput, needContext, needExpected: the grader is not graded
	// without them. showExpected, showContext: shown when present.
	needInput, needContext, needExpected bool
	showExpected, showContext            bool
	expected                             *string // overrides the sample's

	lo, hi, passAt float64 // taskScore
	ranged         bool
	whole          bool // taskScore: no half points

	categories, pass []string // taskCategory

	baseline string // taskPairwise, with {{expected}}, {{input}}, {{item.KEY}}

	prompt *userPrompt // the user's own judge prompt, or nil
	// material, when set, is all the prompt quotes, under the task
	// materialTask (a JudgeAsk's Material and Task); it returns why the
	// sample cannot be graded, or "".
	material     func(s *Sample, redact func(string) string) ([]JudgeMaterial, string)
	materialTask string

	customPrompt func(s *Sample, redact func(string) string) (string, string) // taskCustom
	customRead   func(reply string) (JudgeReading, error)                     // taskCustom
	firstName    string                                                       // taskCustom: the judge to ask first; "" for pool order
}

// build writes the prompts for s, or returns why it cannot be graded.
func (t *judgeTask) build(s *Sample, jc *judgeConfig) ([]builtPrompt, string) {
	red := jc.redacted
	if t.kind == taskCustom {
		p, why := t.customPrompt(s, red)
		if why != "" {
			return nil, why
		}
		return []builtPrompt{{text: p}}, ""
	}
	if t.material != nil {
		return t.buildMaterial(s, red)
	}
	input := s.Input
	expected, hasExp := s.ExpectedText()
	if t.expected != nil {
		expected, hasExp = *t.expected, true
	}
	switch {
	case t.needInput && strings.TrimSpace(input) == "":
		return nil, "no input: this check judges the answer against the input"
	case t.needContext && len(s.Context) == 0:
		return nil, "no context: this check judges the answer against the sample's context"
	case t.needExpected && !hasExp:
		return nil, "no expected value: set expected on the case or the spec"
	}
	crit := JudgeMaterial{"criterion", "Criterion", red(t.rubric)}
	in := JudgeMaterial{"input", "Input given to the AI system", red(input)}
	var ctxText string
	if len(s.Context) > 0 {
		parts := make([]string, len(s.Context))
		for i, c := range s.Context {
			parts[i] = fmt.Sprintf("[%d] %s", i+1, red(c))
		}
		ctxText = strings.Join(parts, "\n\n")
	}
	fields := []JudgeMaterial{crit}
	if input != "" {
		fields = append(fields, in)
	}
	if ctxText != "" && (t.showContext || t.needContext) {
		fields = append(fields, JudgeMaterial{"context", "Context the AI system was given", ctxText})
	}
	if hasExp && (t.showExpected || t.needExpected) {
		fields = append(fields, JudgeMaterial{"reference", "Reference answer", red(expected)})
	}
	out := red(s.Output)
	switch t.kind {
	case taskPairwise:
		base := expandBaseline(t.baseline, s, expected)
		if strings.TrimSpace(base) == "" {
			return nil, "baseline is empty for this sample: nothing to compare with"
		}
		if t.prompt != nil {
			return t.buildUser(s, red, base)
		}
		base = red(base)
		task := "Compare two answers to the same input against the criterion and say which satisfies it better."
		a := func(x, y string) builtPrompt {
			f := append(slices.Clip(fields), JudgeMaterial{"answer_a", "Answer A", x}, JudgeMaterial{"answer_b", "Answer B", y})
			return buildPrompt(task, f, answerPairwise())
		}
		return []builtPrompt{a(out, base), a(base, out)}, ""
	case taskScore:
		if t.prompt != nil {
			return t.buildUser(s, red, "")
		}
		fields = append(fields, JudgeMaterial{"output", "Answer to grade", out})
		return []builtPrompt{buildPrompt("Score the answer against the criterion.", fields, answerScore(t.lo, t.hi, t.passAt, t.ranged))}, ""
	case taskCategory:
		fields = append(fields, JudgeMaterial{"output", "Answer to grade", out})
		return []builtPrompt{buildPrompt("Put the answer in one of the categories, reading it against the criterion.", fields, answerCategory(t.categories))}, ""
	}
	fields = append(fields, JudgeMaterial{"output", "Answer to grade", out})
	return []builtPrompt{buildPrompt("Decide whether the answer satisfies the criterion.", fields, answerBinary())}, ""
}

// expandBaseline substitutes {{expected}}, {{input}} and {{item.KEY}} in the
// baseline. It is a small literal substitution: no other template syntax.
func expandBaseline(tmpl string, s *Sample, expected string) string {
	if !strings.Contains(tmpl, "{{") {
		return tmpl
	}
	pairs := []string{"{{expected}}", expected, "{{input}}", s.Input, "{{ expected }}", expected, "{{ input }}", s.Input}
	for k, v := range s.Item {
		val := fmt.Sprint(v)
		if str, ok := v.(string); ok {
			val = str
		}
		pairs = append(pairs, "{{item."+k+"}}", val)
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}

// readVerdict is a reply turned into a verdict.
type readVerdict struct {
	verdict  Verdict
	score    float64 // on the grader's scale
	norm     float64 // in [0, 1]
	hasScore bool
	category string // the category read, in any form the reader accepts
	loose    bool   // read from a form looser than the prompt asked for
}

// read turns a parsed reply into the task's verdict, as a careful person
// reads it: what the prompt asked for first, then the looser forms (whose
// reading judgereply marks low confidence). A reply whose verdict word
// contradicts its score or category, or that gives no reading the task
// can use, is unreadable.
func (t *judgeTask) read(r judgereply.Reply) (readVerdict, error) {
	said, hasSaid := verdictWord(r.Verdict)
	switch t.kind {
	case taskScore:
		if said == VerdictAbstain && hasSaid {
			return readVerdict{verdict: VerdictAbstain}, nil
		}
		sc, err := judgereply.ScoreOnScale(t.withDimension(r), t.lo, t.hi)
		if err != nil {
			return readVerdict{}, err
		}
		if sc < t.lo || sc > t.hi || math.IsNaN(sc) {
			return readVerdict{}, fmt.Errorf("%w: score %v is not on the scale %g to %g", judgereply.ErrNoVerdict, sc, t.lo, t.hi)
		}
		if step := t.step(); step > 0 && sc/step != math.Trunc(sc/step) {
			return readVerdict{}, fmt.Errorf("%w: score %v is between the steps of the scale %g to %g (steps of %g)", judgereply.ErrNoVerdict, sc, t.lo, t.hi, step)
		}
		v := VerdictFail
		if sc >= t.passAt {
			v = VerdictPass
		}
		if hasSaid && said != v {
			return readVerdict{}, fmt.Errorf("%w: score %v gives %s but the verdict says %s", judgereply.ErrContradictory, sc, v, said)
		}
		// A half point answers proctor's prompt, which asks for a whole
		// number, loosely.
		half := !t.ranged && t.prompt == nil && sc != math.Trunc(sc)
		return readVerdict{verdict: v, score: sc, norm: (sc - t.lo) / (t.hi - t.lo), hasScore: true, loose: half}, nil
	case taskCategory:
		c, err := t.category(r)
		if err != nil {
			return readVerdict{}, err
		}
		if c == "" {
			return readVerdict{verdict: VerdictAbstain}, nil
		}
		v := VerdictFail
		if slices.Contains(t.pass, c) {
			v = VerdictPass
		}
		if hasSaid && said != v {
			return readVerdict{}, fmt.Errorf("%w: category %q gives %s but the verdict says %s", judgereply.ErrContradictory, c, v, said)
		}
		return readVerdict{verdict: v, category: c}, nil
	case taskPairwise:
		return pairwiseVerdict(r)
	}
	if !hasSaid {
		said, hasSaid = verdictWord(r.Bare)
	}
	if !hasSaid && r.Grade != "" {
		switch r.Grade {
		case "C":
			said, hasSaid = VerdictPass, true
		case "I":
			said, hasSaid = VerdictFail, true
		default:
			return readVerdict{}, fmt.Errorf("%w: GRADE: P (partly correct) is neither a pass nor a fail", judgereply.ErrNoVerdict)
		}
	}
	if !hasSaid && r.Choice != "" {
		w, _ := judgereply.VerdictWord(r.Choice)
		said, hasSaid = verdictWord(w)
	}
	if !hasSaid {
		return readVerdict{}, fmt.Errorf("%w: no pass, fail or abstain", judgereply.ErrNoVerdict)
	}
	return readVerdict{verdict: said}, nil
}

// category returns the listed category r chose, "" for an abstention:
// the category key or line, else the answer ("(B)", "GRADE: C",
// {"choice": ...}), else an exact category on the last line. Names
// compare ignoring case, closing punctuation, and spaces, underscores and
// hyphens; a one-letter category on the last line must be written in
// capitals ("a" is an article, "I" a pronoun there).
func (t *judgeTask) category(r judgereply.Reply) (string, error) {
	said, hasSaid := verdictWord(r.Verdict)
	if strings.EqualFold(strings.TrimSpace(r.Category), "abstain") || (r.Category == "" && hasSaid && said == VerdictAbstain) {
		return "", nil
	}
	c, _, err := judgereply.PickLabel(r, t.categories)
	return c, err
}

func verdictWord(w string) (Verdict, bool) {
	switch w {
	case judgereply.Pass:
		return VerdictPass, true
	case judgereply.Fail:
		return VerdictFail, true
	case judgereply.Abstain:
		return VerdictAbstain, true
	}
	return VerdictAbstain, false
}

// judgeGrader is the body every model-graded grader shares.
type judgeGrader struct {
	name     string
	severity Severity
	jc       judgeConfig
	task     judgeTask
}

// Name returns the grader's name.
func (g *judgeGrader) Name() string { return g.name }

// GraderKind returns [KindModel]: a judge model grades.
func (g *judgeGrader) GraderKind() Kind { return KindModel }

// Grade asks the judges about s; see the grader type's doc.
func (g *judgeGrader) Grade(ctx context.Context, s *Sample) Grade {
	return g.jc.decide(ctx, s, &g.task, g.severity)
}

// JudgeOptions are what every model-graded grader takes. The zero value
// names the grader after its type and takes the severity from the check.
type JudgeOptions struct {
	// Name is shown in results; default the spec type ("llm_judge").
	Name string
	// Severity, when high or critical, always convenes a panel. A
	// [Runner] passes the check's or case's severity too; the higher wins.
	Severity Severity
}

func newJudgeGrader(typ string, opts JudgeOptions, t judgeTask, with []CompilerOption) judgeGrader {
	return judgeGrader{name: cmp.Or(opts.Name, typ), severity: opts.Severity, jc: newCompilerConfig(with).judgeConfig, task: t}
}

// LLMJudge passes when the judges find the output meets a rubric: binary
// verdict, reasoning first, abstaining allowed. The first judge alone
// decides when it is confident and nothing disputes it; otherwise a panel
// of judges from other model families is convened, asked one at a time
// until its outcome is settled (or all at once with [JudgePolicy.PanelParallel]),
// and decides when at least two of its votes took a side and a majority of
// those agree. It is not graded without a judge, when the panel does not
// decide (one side alone, abstentions, an even split), or when the only
// reply cannot be read; a failed judge call is kept in [Grade.Err]. Judges
// come from the grader's options or, when it was built without any, from
// the [Runner] that runs it (see [WithJudges]).
// The judge is shown the rubric, the input, the output and, when the sample
// has them, the expected answer and the context.
//
// An LLMJudge is immutable and safe for concurrent use.
type LLMJudge struct{ judgeGrader }

var (
	_ Grader = (*LLMJudge)(nil)
	_ Kinded = (*LLMJudge)(nil)
)

// NewLLMJudge returns a grader that asks the judges configured by with
// ([WithJudges] or a [JudgePool], and the judge policy options) whether the
// output meets rubric. It returns an error when rubric is empty or only
// white space: the judges would be asked about no criterion.
func NewLLMJudge(rubric string, opts JudgeOptions, with ...CompilerOption) (*LLMJudge, error) {
	if strings.TrimSpace(rubric) == "" {
		return nil, fmt.Errorf("proctor: llm_judge rubric %q: want a criterion to judge against", rubric)
	}
	return &LLMJudge{newJudgeGrader("llm_judge", opts, judgeTask{rubric: rubric, showExpected: true, showContext: true}, with)}, nil
}

// NewFaithfulness returns an [LLMJudge] with the built-in faithfulness
// rubric: every claim of the output is supported by the sample's context.
// Not graded without context.
func NewFaithfulness(opts JudgeOptions, with ...CompilerOption) *LLMJudge {
	return &LLMJudge{newJudgeGrader("faithfulness", opts, judgeTask{rubric: rubricFaithfulness, needContext: true}, with)}
}

// NewRelevance returns an [LLMJudge] with the built-in relevance rubric:
// the output addresses the input. Not graded without an input.
func NewRelevance(opts JudgeOptions, with ...CompilerOption) *LLMJudge {
	return &LLMJudge{newJudgeGrader("relevance", opts, judgeTask{rubric: rubricRelevance, needInput: true}, with)}
}

// NewHallucination returns an [LLMJudge] with the built-in hallucination
// rubric: the output contradicts nothing in, and invents nothing beyond,
// the input and context. It passes when there is no hallucination. Not
// graded without context.
func NewHallucination(opts JudgeOptions, with ...CompilerOption) *LLMJudge {
	return &LLMJudge{newJudgeGrader("hallucination", opts, judgeTask{rubric: rubricHallucination, needContext: true}, with)}
}

// NewToxicity returns an [LLMJudge] with the built-in toxicity rubric. It
// passes when the output is not toxic.
func NewToxicity(opts JudgeOptions, with ...CompilerOption) *LLMJudge {
	return &LLMJudge{newJudgeGrader("toxicity", opts, judgeTask{rubric: rubricToxicity}, with)}
}

// LLMScore passes when the judges' score reaches PassAt on a scale (by
// default 3 on 1 to 4, as "3 or 4 passes"), or Threshold on the range
// [0, 1] as OpenAI's score_model. The score decides the verdict; a reply
// whose verdict word contradicts its score, or whose score is off the
// scale, is unreadable. The grade's score is the mean judge score scaled to
// [0, 1], advisory. Otherwise as [LLMJudge]. Immutable and safe for
// concurrent use.
type LLMScore struct{ judgeGrader }

var _ Grader = (*LLMScore)(nil)

// LLMScoreOptions configure [NewLLMScore]. The zero value scores 1 to 4 and
// passes at 3.
type LLMScoreOptions struct {
	JudgeOptions
	// Scale is the lowest and highest score; zero means [1, 4]. Whole
	// numbers only.
	Scale [2]int
	// PassAt is the lowest passing score; 0 means 3 with the default
	// scale, or the score two thirds of the way up the scale, rounded up.
	PassAt int
	// Range scores on [0, 1] instead of Scale, and passes when the score
	// is at least Threshold (in [0, 1]; Scale and PassAt are then unused).
	Range     bool
	Threshold float64
	// WholeScores refuses half points on Scale: a reply scoring 3.5 is
	// then unreadable. By default a half point is read as written.
	WholeScores bool
	// Prompt, when set, is the judge prompt sent in place of the one
	// proctor writes (an MT-Bench prompt, say), as a template: {{input}},
	// {{output}}, {{expected}}, {{item.KEY}}. The rubric is then only
	// what a line labelled with the rubric's dimension is read against,
	// and may be empty. The reply is read as every reply is, on Scale.
	Prompt string
}

// NewLLMScore returns a scoring grader; it returns an error when the scale
// is empty, PassAt is off it, Threshold is outside [0, 1], or Prompt does
// not parse.
func NewLLMScore(rubric string, opts LLMScoreOptions, with ...CompilerOption) (*LLMScore, error) {
	t := judgeTask{kind: taskScore, rubric: rubric, showExpected: true, showContext: true}
	if opts.Prompt != "" {
		p, err := parseUserPrompt(opts.Prompt, false)
		if err != nil {
			return nil, fmt.Errorf("proctor: llm_score prompt: %w", err)
		}
		t.prompt = p
	}
	if opts.Range {
		if opts.Threshold < 0 || opts.Threshold > 1 || math.IsNaN(opts.Threshold) {
			return nil, fmt.Errorf("proctor: llm_score threshold %v is outside [0, 1]", opts.Threshold)
		}
		t.lo, t.hi, t.passAt, t.ranged = 0, 1, opts.Threshold, true
	} else {
		sc := opts.Scale
		if sc == [2]int{} {
			sc = [2]int{1, 4}
		}
		if sc[0] >= sc[1] {
			return nil, fmt.Errorf("proctor: llm_score scale [%d, %d] is empty", sc[0], sc[1])
		}
		pa := opts.PassAt
		if pa == 0 {
			pa = sc[0] + int(math.Ceil(float64(sc[1]-sc[0])*2/3))
		}
		if pa < sc[0] || pa > sc[1] {
			return nil, fmt.Errorf("proctor: llm_score pass_at %d is off the scale [%d, %d]", pa, sc[0], sc[1])
		}
		t.lo, t.hi, t.passAt, t.whole = float64(sc[0]), float64(sc[1]), float64(pa), opts.WholeScores
	}
	return &LLMScore{newJudgeGrader("llm_score", opts.JudgeOptions, t, with)}, nil
}

// LLMCategory passes when the judges put the output in one of the passing
// categories. A category not in the list is an unreadable reply. Otherwise
// as [LLMJudge]. Immutable and safe for concurrent use.
type LLMCategory struct{ judgeGrader }

var _ Grader = (*LLMCategory)(nil)

// LLMCategoryOptions configure [NewLLMCategory].
type LLMCategoryOptions struct {
	JudgeOptions
	// Rubric says how to read the answer; optional.
	Rubric string
}

// NewLLMCategory returns a classifying grader. It returns an error when
// categories is empty or repeats a category, or pass is empty or names a
// category not in categories.
func NewLLMCategory(categories, pass []string, opts LLMCategoryOptions, with ...CompilerOption) (*LLMCategory, error) {
	if len(categories) == 0 {
		return nil, fmt.Errorf("proctor: llm_category needs at least one category")
	}
	for i, c := range categories {
		if strings.TrimSpace(c) == "" || slices.Contains(categories[:i], c) || strings.EqualFold(c, "abstain") {
			return nil, fmt.Errorf("proctor: llm_category: category %q is empty, repeated or reserved", c)
		}
	}
	if len(pass) == 0 {
		return nil, fmt.Errorf("proctor: llm_category needs at least one passing category")
	}
	for _, p := range pass {
		if !slices.Contains(categories, p) {
			return nil, fmt.Errorf("proctor: llm_category: passing category %q is not one of the categories", p)
		}
	}
	rubric := cmp.Or(opts.Rubric, "Choose the category that describes the answer.")
	t := judgeTask{kind: taskCategory, rubric: rubric, categories: slices.Clone(categories), pass: slices.Clone(pass), showExpected: true, showContext: true}
	return &LLMCategory{newJudgeGrader("llm_category", opts.JudgeOptions, t, with)}, nil
}

// LLMPairwise passes when the judges prefer the output to a baseline
// answer. Each judge compares them in both orders; a verdict that flips
// with the order is an abstention. It is not graded when the baseline is
// empty for the sample. Otherwise as [LLMJudge]. Immutable and safe for
// concurrent use.
type LLMPairwise struct{ judgeGrader }

var _ Grader = (*LLMPairwise)(nil)

// LLMPairwiseOptions configure [NewLLMPairwise].
type LLMPairwiseOptions struct {
	JudgeOptions
	// Rubric is what "better" means; default: more correct, complete and
	// helpful.
	Rubric string
	// Prompt, when set, is the judge prompt sent in place of the one
	// proctor writes (an arena-hard or MT-Bench pairwise prompt, say), as
	// a template that places the answers with {{answer_a}} and
	// {{answer_b}} and may use {{input}}, {{expected}} and {{item.KEY}}.
	// It is sent in both orders, as proctor's own is. A prompt that does
	// not parse is an error from [NewLLMPairwise].
	Prompt string
}

// NewLLMPairwise returns a grader comparing the output with baseline, in
// which {{expected}}, {{input}} and {{item.KEY}} are replaced by the
// sample's values (a literal substitution, no other template syntax). It
// returns an error when opts.Prompt does not parse.
func NewLLMPairwise(baseline string, opts LLMPairwiseOptions, with ...CompilerOption) (*LLMPairwise, error) {
	t := judgeTask{kind: taskPairwise, rubric: cmp.Or(opts.Rubric, rubricPairwise), baseline: baseline}
	if opts.Prompt != "" {
		p, err := parseUserPrompt(opts.Prompt, true)
		if err != nil {
			return nil, fmt.Errorf("proctor: llm_pairwise prompt: %w", err)
		}
		t.prompt = p
	}
	return &LLMPairwise{newJudgeGrader("llm_pairwise", opts.JudgeOptions, t, with)}, nil
}

// LLMAnswerMatch passes when the judges find the output means the same as
// the expected answer. Not graded without one. Otherwise as [LLMJudge].
// Immutable and safe for concurrent use.
type LLMAnswerMatch struct{ judgeGrader }

var _ Grader = (*LLMAnswerMatch)(nil)

// LLMAnswerMatchOptions configure [NewLLMAnswerMatch].
type LLMAnswerMatchOptions struct {
	JudgeOptions
	// Expected replaces the sample's expected answer when set.
	Expected *string
}

// NewLLMAnswerMatch returns a grader comparing the output's meaning with
// the expected answer.
func NewLLMAnswerMatch(opts LLMAnswerMatchOptions, with ...CompilerOption) *LLMAnswerMatch {
	t := judgeTask{rubric: rubricAnswerMatch, needExpected: true, expected: opts.Expected}
	return &LLMAnswerMatch{newJudgeGrader("llm_answer_match", opts.JudgeOptions, t, with)}
}

// judgeSpecOptions are what every judge spec's grader takes from the
// spec: its name and severity, and what the Compiler injects.
func judgeSpecOptions(o *SpecOptions) (JudgeOptions, []CompilerOption) {
	return JudgeOptions{Name: o.Name(), Severity: o.Severity()}, []CompilerOption{configOption(o.config())}
}

// llmScoreSpec builds an llm_score spec: a scale with pass_at, or the
// range [0, 1] with a threshold, and optionally the user's own prompt.
func llmScoreSpec(o *SpecOptions) (Grader, error) {
	prompt := o.String("prompt", "")
	rubric := o.String("rubric", "")
	if prompt == "" {
		rubric = o.RequireString("rubric")
	}
	jo, with := judgeSpecOptions(o)
	opts := LLMScoreOptions{JudgeOptions: jo, Prompt: prompt}
	var scale []float64
	hasScale := o.Decode("scale", &scale)
	pa, hasPA := o.OptInt("pass_at")
	var rng []float64
	hasRange := o.Decode("range", &rng)
	th, hasTh := o.OptFloat("threshold")
	if err := o.Err(); err != nil {
		return nil, err
	}
	switch {
	case hasRange:
		if hasScale || hasPA {
			o.Errorf("range", "give range with threshold, or scale with pass_at, not both")
		}
		if len(rng) != 2 || rng[0] != 0 || rng[1] != 1 {
			o.Errorf("range", "want [0, 1], got %v", rng)
		}
		if !hasTh {
			o.Errorf("threshold", "missing: range needs a threshold in [0, 1]")
		}
		opts.Range, opts.Threshold = true, th
	case hasTh:
		o.Errorf("threshold", "threshold goes with range [0, 1]; with a scale use pass_at")
	default:
		if hasScale {
			if len(scale) != 2 || scale[0] != math.Trunc(scale[0]) || scale[1] != math.Trunc(scale[1]) || math.Abs(scale[0]) > 1e6 || math.Abs(scale[1]) > 1e6 {
				o.Errorf("scale", "want two whole numbers [low, high], got %v", scale)
			} else {
				opts.Scale = [2]int{int(scale[0]), int(scale[1])}
			}
		}
		if hasPA {
			opts.PassAt = pa
		}
		opts.WholeScores = o.Bool("whole_scores", false)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewLLMScore(rubric, opts, with...)
	if err != nil {
		key := "scale"
		if hasPA {
			key = "pass_at"
		}
		if opts.Range {
			key = "threshold"
		}
		if _, perr := parseUserPrompt(prompt, false); prompt != "" && perr != nil {
			key = "prompt"
		}
		o.Wrap(key, "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// llmCategorySpec builds an llm_category spec.
func llmCategorySpec(o *SpecOptions) (Grader, error) {
	cats, okC := o.OptStrings("categories")
	pass, okP := o.OptStrings("pass")
	rubric := o.String("rubric", "")
	jo, with := judgeSpecOptions(o)
	if !okC && o.Err() == nil {
		o.Errorf("categories", "missing: llm_category needs an array of categories")
	}
	if !okP && o.Err() == nil {
		o.Errorf("pass", "missing: llm_category needs the passing categories")
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewLLMCategory(cats, pass, LLMCategoryOptions{JudgeOptions: jo, Rubric: rubric}, with...)
	if err != nil {
		o.Wrap("categories", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// llmPairwiseSpec builds an llm_pairwise spec.
func llmPairwiseSpec(o *SpecOptions) (Grader, error) {
	base := o.RequireString("baseline")
	rubric := o.String("rubric", "")
	prompt := o.String("prompt", "")
	jo, with := judgeSpecOptions(o)
	if err := o.Err(); err != nil {
		return nil, err
	}
	if prompt != "" {
		if _, err := parseUserPrompt(prompt, true); err != nil {
			o.Wrap("prompt", "invalid", err)
			return nil, o.Err()
		}
	}
	return NewLLMPairwise(base, LLMPairwiseOptions{JudgeOptions: jo, Rubric: rubric, Prompt: prompt}, with...)
}

// configOption copies what a Compiler injects (judges and their policy,
// embedder, files, network) from a built config into another.
func configOption(c *config) CompilerOption {
	jc, ec, nc, files := c.judgeConfig, c.embedConfig, c.netConfig, c.files
	return compilerOption(func(d *config) {
		d.judgeConfig, d.embedConfig, d.netConfig, d.files = jc, ec, nc, files
	})
}
