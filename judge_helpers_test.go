package proctor

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// fakeJudge is a scripted judge that records its prompts, like
// httptest.ResponseRecorder records a response.
type fakeJudge struct {
	name, family string
	reply        func(ctx context.Context, prompt string) (string, error)

	mu      sync.Mutex
	prompts []string
}

func (f *fakeJudge) model() JudgeModel {
	return JudgeModel{Name: f.name, Family: f.family, Model: f.name + "-model", Call: f.call}
}

func (f *fakeJudge) call(ctx context.Context, prompt string) (string, error) {
	f.mu.Lock()
	f.prompts = append(f.prompts, prompt)
	f.mu.Unlock()
	return f.reply(ctx, prompt)
}

func (f *fakeJudge) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.prompts)
}

// says returns a judge that always replies verdict with confidence.
func says(name, family, verdict, confidence string) *fakeJudge {
	r := verdictJSON(verdict, confidence)
	return &fakeJudge{name: name, family: family, reply: func(context.Context, string) (string, error) { return r, nil }}
}

// replies returns a judge that always replies text.
func replies(name, family, text string) *fakeJudge {
	return &fakeJudge{name: name, family: family, reply: func(context.Context, string) (string, error) { return text, nil }}
}

func verdictJSON(verdict, confidence string) string {
	b, _ := json.Marshal(map[string]any{
		"criterion": "the answer must satisfy the rubric", "violations": "none",
		"basis": "answer", "verdict": verdict, "confidence": confidence,
	})
	return string(b)
}

func judgePoolOf(js ...*fakeJudge) *JudgePool {
	ms := make([]JudgeModel, len(js))
	for i, j := range js {
		ms[i] = j.model()
	}
	return NewJudgePool(ms[0], ms[1:]...)
}

// fastRetry keeps retry tests quick.
var fastRetry = WithJudgePolicy(JudgePolicy{Retry: JudgeRetry{Base: time.Millisecond, Max: 2 * time.Millisecond}})

func judgeSample() *Sample {
	return &Sample{ID: "s1", Input: "What is the capital of France?", Output: "Paris.", Model: Model{Name: "subject-1", Family: "fam-z"}}
}

func judgeEvidence(g Grade) *JudgeEvidence {
	ev, _ := g.Evidence.(*JudgeEvidence)
	return ev
}
