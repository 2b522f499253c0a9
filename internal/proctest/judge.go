package proctest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/proctorhq/proctor"
)

// Judge is a scripted judge that records the prompts it is sent, for the
// tests of graders that ask judges.
type Judge struct {
	Name, Family string
	// Reply answers each prompt.
	Reply func(ctx context.Context, prompt string) (string, error)

	mu      sync.Mutex
	prompts []string
}

// Model returns j as a judge a pool can hold, its model named NAME-model.
func (j *Judge) Model() proctor.JudgeModel {
	return proctor.JudgeModel{Name: j.Name, Family: j.Family, Model: j.Name + "-model", Call: j.call}
}

func (j *Judge) call(ctx context.Context, prompt string) (string, error) {
	j.mu.Lock()
	j.prompts = append(j.prompts, prompt)
	j.mu.Unlock()
	return j.Reply(ctx, prompt)
}

// Prompts returns the prompts j was sent, in order.
func (j *Judge) Prompts() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.prompts)
}

// Calls returns how many prompts j was sent.
func (j *Judge) Calls() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.prompts)
}

// Replies returns a judge that always replies text.
func Replies(name, family, text string) *Judge {
	return &Judge{Name: name, Family: family, Reply: func(context.Context, string) (string, error) { return text, nil }}
}

// Says returns a judge that always gives verdict (pass, fail or abstain)
// with confidence (high or low) in the reply proctor's prompts ask for.
func Says(name, family, verdict, confidence string) *Judge {
	return Replies(name, family, VerdictJSON(verdict, confidence))
}

// VerdictJSON is the reply proctor's prompts ask for, reasoning first,
// with verdict and confidence.
func VerdictJSON(verdict, confidence string) string {
	b, _ := json.Marshal(map[string]any{
		"criterion": "the answer must satisfy the rubric", "violations": "none",
		"basis": "answer", "verdict": verdict, "confidence": confidence,
	})
	return string(b)
}

// Pool returns a pool of js, the first the primary judge.
func Pool(js ...*Judge) *proctor.JudgePool {
	ms := make([]proctor.JudgeModel, len(js))
	for i, j := range js {
		ms[i] = j.Model()
	}
	return proctor.NewJudgePool(ms[0], ms[1:]...)
}
