package proctor

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type statusErr struct {
	code int
	msg  string
}

func (e *statusErr) Error() string   { return e.msg }
func (e *statusErr) HTTPStatus() int { return e.code }

// TestMisconfiguredClassifies: only a status no retry can fix, or a 400
// that says the model is unknown, stops the run; transient errors, other
// statuses and errors without a status never do.
func TestMisconfiguredClassifies(t *testing.T) {
	tests := []struct {
		name string
		err  error
		stop bool
	}{
		{"401", &statusErr{401, "bad key"}, true},
		{"403 wrapped", fmt.Errorf("calling: %w", &statusErr{403, "forbidden"}), true},
		{"404", &statusErr{404, "no such path"}, true},
		{"400 model not found", &statusErr{400, `{"error":"model 'x' not found"}`}, true},
		{"400 model_not_found code", &statusErr{400, `{"code":"model_not_found"}`}, true},
		{"400 other", &statusErr{400, "response_format is not supported"}, false},
		{"422", &statusErr{422, "unprocessable"}, false},
		{"transient 404", &TransientError{Err: &statusErr{404, "x"}, StatusCode: 404}, false},
		{"429", &TransientError{Err: &statusErr{429, "slow down"}, StatusCode: 429}, false},
		{"500", &TransientError{Err: &statusErr{500, "model not found"}, StatusCode: 500}, false},
		{"no status, says model not found", errors.New("model output not found"), false},
		{"timeout", context.DeadlineExceeded, false},
		{"budget", fmt.Errorf("%w: 3 calls", ErrJudgeBudget), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		got := misconfigured("j", tt.err)
		if (got != nil) != tt.stop {
			t.Errorf("%s: misconfigured = %v, want stop %v", tt.name, got, tt.stop)
		}
		if got != nil && !errors.Is(got, ErrJudgeMisconfigured) {
			t.Errorf("%s: %v does not wrap ErrJudgeMisconfigured", tt.name, got)
		}
	}
}

// TestHaltEndsCallsInFlight: once one call finds the pool misconfigured,
// a call blocked on the endpoint ends at once with that error.
func TestHaltEndsCallsInFlight(t *testing.T) {
	started := make(chan struct{})
	slow := JudgeModel{Name: "slow", Family: "a", Call: func(ctx context.Context, _ string) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}}
	bad := JudgeModel{Name: "bad", Family: "b", Call: func(context.Context, string) (string, error) {
		return "", &statusErr{401, "bad key"}
	}}
	p := NewJudgePool(slow, bad)
	jc := &judgeConfig{pool: p}
	done := make(chan error, 1)
	go func() {
		_, err := p.call(context.Background(), jc, 0, "prompt")
		done <- err
	}()
	<-started
	if _, err := p.call(context.Background(), jc, 1, "prompt"); !errors.Is(err, ErrJudgeMisconfigured) {
		t.Fatalf("bad judge: %v", err)
	}
	if err := <-done; !errors.Is(err, ErrJudgeMisconfigured) {
		t.Errorf("the call in flight ended with %v, want the pool's error", err)
	}
	if s := p.Stats(); s[0].Calls != 1 || s[1].Calls != 1 {
		t.Errorf("stats %+v: want one call each, no retry", s)
	}
}
