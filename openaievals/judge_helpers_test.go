package openaievals

import (
	"context"
	"sync"

	"github.com/proctorhq/proctor"
)

// fakeJudge is a scripted judge that records its prompts.
type fakeJudge struct {
	name, family string
	reply        func(ctx context.Context, prompt string) (string, error)

	mu      sync.Mutex
	prompts []string
}

func (f *fakeJudge) model() proctor.JudgeModel {
	return proctor.JudgeModel{Name: f.name, Family: f.family, Model: f.name + "-model", Call: f.call}
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

// replies returns a judge that always replies text.
func replies(name, family, text string) *fakeJudge {
	return &fakeJudge{name: name, family: family, reply: func(context.Context, string) (string, error) { return text, nil }}
}

func judgePoolOf(js ...*fakeJudge) *proctor.JudgePool {
	ms := make([]proctor.JudgeModel, len(js))
	for i, j := range js {
		ms[i] = j.model()
	}
	return proctor.NewJudgePool(ms[0], ms[1:]...)
}

func judgeSample() *proctor.Sample {
	return &proctor.Sample{ID: "s1", Input: "What is the capital of France?", Output: "Paris.", Model: proctor.Model{Name: "subject-1", Family: "fam-z"}}
}

func judgeEvidence(g proctor.Grade) *proctor.JudgeEvidence {
	ev, _ := g.Evidence.(*proctor.JudgeEvidence)
	return ev
}
