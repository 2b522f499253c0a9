package proctor

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/proctorhq/proctor/internal/judgereply"
)

// customReading is what a grader that writes its own judge prompt makes of
// the judge's reply (see gradeCustom).
type customReading struct {
	Verdict    Verdict
	Confidence Confidence
	// Score, when HasScore, is the judge's score scaled to [0, 1].
	Score    float64
	HasScore bool
	// Reasoning is whatever reasoning the reply gave.
	Reasoning string
	// RawScore, when set, is the score on the grader's own scale, which
	// the judge's vote in the evidence shows; default Score.
	RawScore *float64
	// Category is the label the judge chose (label_model), shown in its
	// vote in the evidence.
	Category string
}

// gradeCustom lets graders of this package that write their own judge
// prompt (OpenAI-evals score_model and label_model) ask the configured
// judges under the same policy as the llm_* graders: same-family refusal,
// panel on doubt, retries, coalescing and caching, budget, stats and
// evidence. prompt writes the prompt for s, passing every text it quotes
// from the sample through redact (the configured redactor), or returns a
// reason the sample cannot be graded. read turns a reply into a verdict,
// or returns an error when the reply is unreadable (the judge then
// abstains). Such prompts carry no nonce tags, so they have none of the
// llm_* prompts' defence against judged text that imitates a verdict.
func (jc *judgeConfig) gradeCustom(ctx context.Context, s *Sample, severity Severity,
	prompt func(s *Sample, redact func(string) string) (string, string),
	read func(reply string) (customReading, error)) Grade {
	return jc.gradeCustomFirst(ctx, s, severity, -1, prompt, read)
}

// gradeCustomFirst is gradeCustom asking judge first (an index into the
// pool's judges; -1 for pool order) before the others, when it may grade
// the sample's model.
func (jc *judgeConfig) gradeCustomFirst(ctx context.Context, s *Sample, severity Severity, first int,
	prompt func(s *Sample, redact func(string) string) (string, string),
	read func(reply string) (customReading, error)) Grade {
	t := judgeTask{kind: taskCustom, customPrompt: prompt, customRead: read, first: first + 1}
	return jc.decide(ctx, s, &t, severity)
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

// readCustom adapts a custom reader to the panel's reading.
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
