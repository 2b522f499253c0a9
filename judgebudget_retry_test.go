package proctor

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBudgetRefusedRetryNotCounted checks that a retry the budget refuses
// is not counted as a retry: with a budget of one call and a judge that
// always fails transiently, the stats show one call and no retry.
func TestBudgetRefusedRetryNotCounted(t *testing.T) {
	judge := JudgeModel{Name: "flaky", Family: "f", Call: func(context.Context, string) (string, error) {
		return "", &TransientError{Err: errors.New("overloaded")}
	}}
	pool := NewJudgePool(judge)
	g := must(NewLLMJudge("Names the capital.", JudgeOptions{}, pool,
		WithJudgePolicy(JudgePolicy{Budget: JudgeBudget{Calls: 1}}), WithJudgePolicy(JudgePolicy{Retry: JudgeRetry{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})))
	got := g.Grade(context.Background(), &Sample{Input: "Capital of France?", Output: "Paris."})
	if got.Status != StatusNotGraded {
		t.Fatalf("got %v (%s), want not graded", got.Status, got.Reason)
	}
	st := pool.Stats()
	if len(st) != 1 || st[0].Calls != 1 || st[0].Retries != 0 {
		t.Errorf("stats %+v, want 1 call and 0 retries (the budget refused the retry)", st)
	}
}
