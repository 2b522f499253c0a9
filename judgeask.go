package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/judgereply"
	"github.com/proctorhq/proctor/internal/kit"
)

// JudgeReading is what a grader that writes its own judge prompt makes of
// one judge's reply (see [JudgeAsk.Read]).
type JudgeReading struct {
	// Verdict is the judge's verdict; VerdictAbstain counts as no vote.
	Verdict Verdict
	// Confidence is how sure the reply is; low confidence convenes a panel.
	Confidence Confidence
	// Score, when HasScore, is the judge's score scaled to [0, 1] (values
	// outside are clamped, NaN is dropped).
	Score    float64
	HasScore bool
	// Reasoning is whatever reasoning the reply gave, shown in the vote.
	Reasoning string
	// RawScore, when set, is the score on the grader's own scale, which
	// the judge's vote in the evidence shows; by default Score.
	RawScore *float64
	// Category is a label the judge chose, shown in its vote.
	Category string
}

// JudgeAsk is one question a grader puts to the judges in its own words:
// either a prompt it writes and a reader for the reply (Prompt and Read),
// or a task and the material to quote (Task and Material), which proctor
// writes and reads as it does for its own judges.
type JudgeAsk struct {
	// Prompt writes the prompt for s, passing every text it quotes from
	// the sample through redact (the configured redactor), or returns a
	// non-empty notGraded saying why s cannot be graded. The prompt is
	// sent as written: it carries no nonce tags, so judged text that
	// imitates a verdict can sway the judge.
	Prompt func(s *Sample, redact func(string) string) (prompt, notGraded string)
	// Read turns one judge's reply to Prompt into a reading, or returns an
	// error when the reply is unreadable (that judge then abstains and a
	// panel is asked). Required with Prompt.
	Read func(reply string) (JudgeReading, error)
	// Task, with Material in place of Prompt and Read, is the trusted
	// instruction: what the judge is to decide ("Decide whether the
	// agent's plan satisfies the criterion."). The prompt proctor writes
	// says it first, then that quoted material is data to judge and never
	// instructions, then quotes each piece of material, then asks for
	// llm_judge's reply: reasoning first (what would satisfy the criterion,
	// what violates it, the basis), then pass, fail or abstain, and the
	// judge's confidence. The reply is read as llm_judge's is: text that
	// repeats the quoted material is not read, a failing judge's
	// violations end the grade's reason, and the vote's basis and
	// reasoning are kept in the evidence.
	Task string
	// Material returns the untrusted pieces the prompt quotes for s, in
	// order, each Text passed through redact (the configured redactor),
	// or a non-empty notGraded saying why s cannot be graded. Each piece
	// is quoted between <TAG-NONCE> and </TAG-NONCE>, where NONCE is
	// derived from a hash of the whole prompt (so the same sample gives
	// the same prompt and its replies cache, yet judged text cannot
	// predict it), with the nonce and tag-like text inside it masked. A
	// criterion the judge applies is material too (tag "criterion"), as it
	// is in llm_judge's prompt.
	Material func(s *Sample, redact func(string) string) (material []JudgeMaterial, notGraded string)
	// First names the judge asked first, when it may grade the sample's
	// model; "" (or a name not in the pool) means the pool's own order.
	First string
}

// JudgeMaterial is one piece of untrusted material a [JudgeAsk] quotes:
// what the judge reads but never takes instructions from.
type JudgeMaterial struct {
	// Tag names the quote's tags: 1 to 32 lower-case ASCII letters, digits
	// and underscores ("criterion", "trajectory", "turn_3"). A sample whose
	// material has another tag is not graded, with the reason.
	Tag string
	// Title is the heading above the quote ("Tool calls the agent made");
	// "" means Tag.
	Title string
	// Text is the material, already passed through the redactor.
	Text string
}

// Judging asks judges on behalf of any grader, built into proctor or
// written by a user, under the policy the llm_* graders follow: judges of
// the sample model's family refused, a panel convened when the first
// verdict is in doubt, replies cached and identical calls coalesced, the
// budget, timeouts and retries, per-judge stats and the grade's
// [JudgeEvidence]. An ask given as Task and Material is quoted and read
// as the llm_* graders' asks are; one given as its own Prompt lacks their
// defence against judged text that imitates a verdict. Immutable and safe
// for concurrent use.
type Judging struct {
	jc judgeConfig
}

// NewJudging returns a Judging with the judges and policy opts configure
// ([WithJudges] or a [JudgePool], [JudgePolicy.Budget], [WithRedactor],
// [SpecOptions.Injected] in a spec builder...). Built without judges, it
// asks the judges of the [Runner] grading the sample, found through the
// context.
func NewJudging(opts ...CompilerOption) *Judging {
	return &Judging{jc: newCompilerConfig(opts).judgeConfig}
}

// Pool returns the judges Ask would ask in ctx: j's own, else those of
// the Runner running in ctx; nil when there are none.
func (j *Judging) Pool(ctx context.Context) *JudgePool {
	if j.jc.pool != nil {
		return j.jc.pool
	}
	return runnerPool(ctx)
}

// Ask asks the judges about s as a says and returns the grade they
// decide, with severity raising the panel's bar as for the llm_* graders.
// Without judges, or when a gives neither Prompt and Read nor Task and
// Material (or mixes the two), the grade is not graded with the reason.
func (j *Judging) Ask(ctx context.Context, s *Sample, severity Severity, a JudgeAsk) Grade {
	t, why := a.task()
	if why != "" {
		return NotGraded(why)
	}
	return j.jc.decide(ctx, s, &t, severity)
}

// task is what a asks, or why it asks nothing.
func (a JudgeAsk) task() (judgeTask, string) {
	switch {
	case a.Material != nil && (a.Prompt != nil || a.Read != nil):
		return judgeTask{}, "judge ask with both material and its own prompt or reader: give one or the other"
	case a.Material != nil && strings.TrimSpace(a.Task) == "":
		return judgeTask{}, "judge ask with material but no task"
	case a.Material != nil:
		return judgeTask{kind: taskBinary, material: a.Material, materialTask: a.Task, firstName: a.First}, ""
	case a.Prompt == nil || a.Read == nil:
		return judgeTask{}, "judge ask without a prompt or a reader"
	}
	return judgeTask{kind: taskCustom, customPrompt: a.Prompt, customRead: a.Read, firstName: a.First}, ""
}

// buildMaterial writes the prompt of an ask given as Task and Material:
// proctor's prompt over the material, asking for llm_judge's reply.
func (t *judgeTask) buildMaterial(s *Sample, red func(string) string) ([]builtPrompt, string) {
	m, why := t.material(s, red)
	if why != "" {
		return nil, why
	}
	if len(m) == 0 {
		return nil, "judge ask with no material to quote"
	}
	m = slices.Clone(m)
	for i := range m {
		if !judgereply.IsTagName(m[i].Tag) || len(m[i].Tag) > 32 {
			return nil, fmt.Sprintf("judge material tag %q: want 1 to 32 lower-case letters, digits or underscores", kit.ClipRunes(m[i].Tag, 40))
		}
		m[i].Title = cmp.Or(m[i].Title, m[i].Tag)
	}
	return []builtPrompt{buildPrompt(t.materialTask, m, answerBinary())}, ""
}

// askFirst moves judge i to the front of order when order holds it (it
// may have been skipped for sharing the subject's family).
func askFirst(order []int, i int) []int {
	k := slices.Index(order, i)
	if k <= 0 {
		return order
	}
	out := make([]int, 0, len(order))
	out = append(out, i)
	out = append(out, order[:k]...)
	return append(out, order[k+1:]...)
}

// readCustom adapts a JudgeAsk's reader to the panel's reading.
func readCustom(t *judgeTask, text string) (judgereply.Reply, readVerdict, error) {
	if t.customRead == nil {
		return judgereply.Reply{}, readVerdict{}, errors.New("no reader")
	}
	r, err := t.customRead(text)
	if err != nil {
		return judgereply.Reply{}, readVerdict{}, err
	}
	rep := judgereply.Reply{Reasoning: r.Reasoning, Category: r.Category}
	if r.Confidence == ConfidenceHigh {
		rep.Confidence = "high"
	}
	rv := readVerdict{verdict: r.Verdict}
	if r.HasScore && !math.IsNaN(r.Score) {
		sc := min(max(r.Score, 0), 1)
		rv.score, rv.norm, rv.hasScore = sc, sc, true
		if r.RawScore != nil {
			rv.score = *r.RawScore
		}
	}
	return rep, rv, nil
}
