package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// replyJudge is a judge that answers every prompt with r and err.
func replyJudge(name, family string, threshold float64, r JudgeReply, err error) JudgeModel {
	return JudgeModel{Name: name, Family: family, ConfidenceThreshold: threshold,
		CallWithUsage: func(context.Context, string) (JudgeReply, error) { return r, err }}
}

func gradeWith(t *testing.T, pool *JudgePool, opts ...CompilerOption) (Grade, *JudgeEvidence) {
	t.Helper()
	opts = append([]CompilerOption{pool, WithJudgePolicy(JudgePolicy{Retry: JudgeRetry{Attempts: 1}})}, opts...)
	g := must(NewLLMJudge("names the capital", JudgeOptions{}, opts...)).
		Grade(context.Background(), &Sample{Input: "Capital of France?", Output: "Paris", Model: Model{Family: "fam-z"}})
	ev, _ := g.Evidence.(*JudgeEvidence)
	return g, ev
}

// A call's Requests are counted as calls, every one but the last an
// error (all of them when the call failed), and against the budget.
func TestJudgeReplyRequestsCounted(t *testing.T) {
	tests := []struct {
		name                  string
		r                     JudgeReply
		err                   error
		wantCalls, wantErrors int
		why                   string
	}{
		{"one request", JudgeReply{Text: verdictJSON("pass", "high")}, nil, 1, 0, "0 means 1"},
		{"a fallback", JudgeReply{Text: verdictJSON("pass", "high"), Requests: 2}, nil, 2, 1, "the refused request failed"},
		{"failed after a fallback", JudgeReply{Requests: 3}, errors.New("boom"), 3, 3, "every request failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pool := NewJudgePool(replyJudge("j", "fam-a", 0, tt.r, tt.err))
			gradeWith(t, pool)
			if st := pool.Stats()[0]; st.Calls != tt.wantCalls || st.Errors != tt.wantErrors {
				t.Errorf("got %d calls, %d errors; want %d, %d (%s)", st.Calls, st.Errors, tt.wantCalls, tt.wantErrors, tt.why)
			}
		})
	}
	// A budget of 2 calls is spent by one call that made 2 requests.
	pool := NewJudgePool(replyJudge("j", "fam-a", 0, JudgeReply{Text: verdictJSON("pass", "high"), Requests: 2}, nil))
	budget := WithJudgePolicy(JudgePolicy{Budget: JudgeBudget{Calls: 2}})
	gradeWith(t, pool, budget)
	g := must(NewLLMJudge("names the capital", JudgeOptions{}, pool, budget)).
		Grade(context.Background(), &Sample{Input: "q", Output: "another answer", Model: Model{Family: "fam-z"}})
	if !errors.Is(g.Err, ErrJudgeBudget) {
		t.Errorf("after 2 requests on a budget of 2 calls: got %v (%s), want the budget spent", g.Status, g.Reason)
	}
}

// A reply cut off at the token limit is not graded with that reason, and
// counted with its tokens.
func TestJudgeReplyTruncated(t *testing.T) {
	err := fmt.Errorf("vendor: %w (finish_reason length)", ErrReplyTruncated)
	pool := NewJudgePool(replyJudge("j", "fam-a", 0, JudgeReply{Tokens: 900}, err))
	g, ev := gradeWith(t, pool)
	if g.Status != StatusNotGraded || !strings.Contains(g.Reason, "reply cut off at the token limit") || !errors.Is(g.Err, ErrReplyTruncated) {
		t.Errorf("got %v (%s, %v), want not graded, cut off", g.Status, g.Reason, g.Err)
	}
	if ev.Judges[0].Error != "reply cut off at the token limit" {
		t.Errorf("vote error %q", ev.Judges[0].Error)
	}
	if st := pool.Stats()[0]; st.Calls != 1 || st.Errors != 1 || st.Tokens != 900 {
		t.Errorf("stats %+v: want 1 call, 1 error, 900 tokens", st)
	}
}

// Reasoning apart from the text is the vote's when the text gives none,
// and never decides the verdict.
func TestJudgeReplyReasoning(t *testing.T) {
	bare := `{"verdict":"pass","confidence":"high"}`
	for _, tt := range []struct{ text, want string }{
		{bare, "thinking: it should fail"},
		{verdictJSON("pass", "high"), "Criterion: the answer must satisfy the rubric Violations: none"},
	} {
		pool := NewJudgePool(replyJudge("j", "fam-a", 0, JudgeReply{Text: tt.text, Reasoning: "thinking: it should fail"}, nil))
		g, ev := gradeWith(t, pool)
		if g.Status != StatusPassed || ev.Judges[0].Reasoning != tt.want {
			t.Errorf("text %s: got %v, reasoning %q; want passed, %q", tt.text, g.Status, ev.Judges[0].Reasoning, tt.want)
		}
	}
}

// A verdict probability decides confidence against the judge's threshold
// (0.9 by default), whatever the reply states; low convenes the panel.
func TestJudgeReplyVerdictProbability(t *testing.T) {
	tests := []struct {
		name      string
		stated    string
		p, thresh float64
		wantPanel bool
	}{
		{"below the default", "high", 0.85, 0, true},
		{"at the default", "low", 0.9, 0, false},
		{"below a set threshold", "high", 0.97, 0.99, true},
		{"unknown: stated confidence stands", "low", 0, 0, true},
		{"unknown: stated high stands", "high", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pass := JudgeReply{Text: verdictJSON("pass", "high")}
			pool := NewJudgePool(replyJudge("j1", "fam-a", tt.thresh, JudgeReply{Text: verdictJSON("pass", tt.stated), VerdictProbability: tt.p}, nil),
				replyJudge("j2", "fam-b", 0, pass, nil), replyJudge("j3", "fam-c", 0, pass, nil))
			g, ev := gradeWith(t, pool)
			first := ev.Judges[0]
			if g.Status != StatusPassed || ev.Panel != tt.wantPanel {
				t.Fatalf("got %v, panel %v (%v); want passed, panel %v", g.Status, ev.Panel, ev.PanelReasons, tt.wantPanel)
			}
			if (first.VerdictProbability != nil) != (tt.p > 0) || tt.p > 0 && *first.VerdictProbability != tt.p {
				t.Errorf("vote probability %v, want %v", first.VerdictProbability, tt.p)
			}
			b, _ := json.Marshal(first)
			if strings.Contains(string(b), "verdict_probability") != (tt.p > 0) {
				t.Errorf("vote JSON %s", b)
			}
		})
	}
}

// Impossible figures are refused as usage errors; the disk cache keeps
// reasoning and probability.
func TestJudgeReplyFieldsChecked(t *testing.T) {
	for _, r := range []JudgeReply{{Requests: -1}, {Requests: maxCallRequests + 1}, {VerdictProbability: 1.5}, {VerdictProbability: -0.1}, {VerdictProbability: math.NaN()}} {
		if err := checkUsage(r); !errors.Is(err, ErrJudgeUsage) {
			t.Errorf("checkUsage(%+v) = %v, want ErrJudgeUsage", r, err)
		}
	}
	for _, tt := range []struct {
		err   error
		over  bool
		after time.Duration
	}{
		{&TransientError{StatusCode: 429}, true, 0},
		{&TransientError{StatusCode: 503}, true, 0},
		{&TransientError{StatusCode: 529}, true, 0},
		{fmt.Errorf("call: %w", &TransientError{StatusCode: 502, RetryAfter: time.Second}), true, time.Second},
		{&TransientError{StatusCode: 502}, false, 0},
		{errors.New("429 too many requests"), false, 0},
		{nil, false, 0},
	} {
		// The judges' limiter cuts its limit on exactly these.
		if over, after := overloaded(tt.err); over != tt.over || after != tt.after {
			t.Errorf("overloaded(%v) = %v, %v; want %v, %v", tt.err, over, after, tt.over, tt.after)
		}
	}
	dir := t.TempDir()
	want := JudgeReply{Text: verdictJSON("pass", "high"), Reasoning: "because", VerdictProbability: 0.75}
	gradeWith(t, NewJudgePool(replyJudge("j", "fam-a", 0, want, nil)), WithJudgePolicy(JudgePolicy{CacheDir: dir}))
	pool := NewJudgePool(replyJudge("j", "fam-a", 0, JudgeReply{}, errors.New("not asked")))
	_, ev := gradeWith(t, pool, WithJudgePolicy(JudgePolicy{CacheDir: dir}))
	if v := ev.Judges[0]; !v.Cached || v.VerdictProbability == nil || *v.VerdictProbability != 0.75 {
		t.Errorf("from the disk cache: %+v, want cached with probability 0.75", v)
	}
}
