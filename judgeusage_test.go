package proctor

import (
	"context"
	"math"
	"strings"
	"testing"
)

// usageJudge returns a judge that passes every answer and reports tokens
// and cost as given.
func usageJudge(tokens int, cost float64) JudgeModel {
	return JudgeModel{Name: "j", Family: "f", CallWithUsage: func(context.Context, string) (JudgeReply, error) {
		return JudgeReply{Text: `{"reasoning": "ok", "verdict": "pass"}`, Tokens: tokens, CostUSD: cost}, nil
	}}
}

// TestJudgeUsageRefused: a judge reporting negative, absurd or non-number
// usage is refused; the grade is not graded, saying why.
func TestJudgeUsageRefused(t *testing.T) {
	for _, u := range []struct {
		tokens int
		cost   float64
	}{{-1000, 0}, {math.MaxInt, 0}, {10, -1}, {10, math.NaN()}, {10, math.Inf(1)}} {
		g := must(NewLLMJudge("Names the capital.", JudgeOptions{}, NewJudgePool(usageJudge(u.tokens, u.cost)),
			WithJudgePolicy(JudgePolicy{Budget: JudgeBudget{Tokens: 1 << 20}}))) // room for the call's reservation
		got := g.Grade(context.Background(), &Sample{Input: "Capital of France?", Output: "Paris."})
		if got.Status != StatusNotGraded || !strings.Contains(got.Reason, "impossible usage") {
			t.Errorf("usage %d tokens, $%v: %v (%s), want not graded naming the usage", u.tokens, u.cost, got.Status, got.Reason)
		}
	}
}

// TestJudgeBudgetSaturates: usage sums saturate rather than wrap, so the
// budget stays spent however large the figures.
func TestJudgeBudgetSaturates(t *testing.T) {
	if got := addSat(math.MaxInt-5, maxCallTokens); got != math.MaxInt {
		t.Errorf("addSat near MaxInt = %d, want MaxInt", got)
	}
	pool := NewJudgePool(usageJudge(maxCallTokens, 0))
	pool.tokens = math.MaxInt - 10
	g := must(NewLLMJudge("Names the capital.", JudgeOptions{}, pool, WithJudgePolicy(JudgePolicy{Budget: JudgeBudget{Tokens: 100}})))
	got := g.Grade(context.Background(), &Sample{Input: "Capital of France?", Output: "Paris."})
	if got.Status != StatusNotGraded || pool.tokens != math.MaxInt-10 {
		t.Errorf("spent budget: %v (%s), tokens %d; want not graded, tokens unchanged", got.Status, got.Reason, pool.tokens)
	}
	pool = NewJudgePool(usageJudge(maxCallTokens, 0))
	pool.tokens = math.MaxInt - 10
	g = must(NewLLMJudge("Names the capital.", JudgeOptions{}, pool))
	g.Grade(context.Background(), &Sample{Input: "Capital of France?", Output: "Paris."})
	if pool.tokens != math.MaxInt {
		t.Errorf("tokens %d after adding %d to MaxInt-10, want MaxInt (saturated)", pool.tokens, maxCallTokens)
	}
}
