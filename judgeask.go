package proctor

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/proctorhq/proctor/internal/judgereply"
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

// JudgeAsk is one question a grader puts to the judges in its own words.
type JudgeAsk struct {
	// Prompt writes the prompt for s, passing every text it quotes from
	// the sample through redact (the configured redactor), or returns a
	// non-empty notGraded saying why s cannot be graded. Required.
	Prompt func(s *Sample, redact func(string) string) (prompt, notGraded string)
	// Read turns one judge's reply into a reading, or returns an error
	// when the reply is unreadable (that judge then abstains and a panel
	// is asked). Required.
	Read func(reply string) (JudgeReading, error)
	// First names the judge asked first, when it may grade the sample's
	// model; "" (or a name not in the pool) means the pool's own order.
	First string
}

// Judging asks judges on behalf of any grader, built into proctor or
// written by a user, under the policy the llm_* graders follow: judges of
// the sample model's family refused, a panel convened when the first
// verdict is in doubt, replies cached and identical calls coalesced, the
// budget, timeouts and retries, per-judge stats and the grade's
// [JudgeEvidence]. A prompt given through a JudgeAsk carries no nonce
// tags, so it lacks the llm_* prompts' defence against judged text that
// imitates a verdict. Immutable and safe for concurrent use.
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
// Without judges, or with a's Prompt or Read missing, the grade is not
// graded with the reason.
func (j *Judging) Ask(ctx context.Context, s *Sample, severity Severity, a JudgeAsk) Grade {
	if a.Prompt == nil || a.Read == nil {
		return NotGraded("judge ask without a prompt or a reader")
	}
	t := judgeTask{kind: taskCustom, customPrompt: a.Prompt, customRead: a.Read, firstName: a.First}
	return j.jc.decide(ctx, s, &t, severity)
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
