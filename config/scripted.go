package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// scriptedReply is one canned reply of a scripted judge: given when the
// case id is Case and the prompt contains PromptContains (each when set);
// one with neither is the reply for anything the others do not match.
// PromptContains is searched in the whole prompt the judge is sent: the
// judge's instructions and the rubric as well as the case's input and
// output, so a phrase of the rubric matches every case graded with it.
type scriptedReply struct {
	Case           string          `json:"case"`
	PromptContains string          `json:"prompt_contains"`
	Reply          json.RawMessage `json:"reply"`
}

// scriptedModel is the model name a scripted judge reports.
const scriptedModel = "canned replies"

// scriptedJudge builds a judge of type scripted: for demos and tests, it
// answers from its canned replies, the first that matches, and calls
// nothing. A prompt no reply matches is an error, so the check is not
// graded rather than given a made-up verdict. Replies pass through the
// judge cache like a model's: two cases whose prompts are identical get
// the same reply, whichever case id it was written for.
func scriptedJudge(j judgeEntry) (proctor.JudgeModel, error) {
	switch {
	case j.BaseURL != "" || j.APIKeyEnv != "" || j.Prices != nil:
		return proctor.JudgeModel{}, errors.New("a scripted judge calls nothing: base_url, api_key_env and prices are for type openai")
	case j.Temperature != nil || j.ReasoningEffort != "" || j.ThinkingBudget != 0 || j.Logprobs || j.MaxTokensField != "" || j.ConfidenceThreshold != 0:
		return proctor.JudgeModel{}, errors.New("a scripted judge samples nothing: temperature, reasoning_effort, thinking_budget, logprobs, max_tokens_field and confidence_threshold are for model judges")
	case len(j.Replies) == 0:
		return proctor.JudgeModel{}, errors.New("a scripted judge needs replies: [{case or prompt_contains, reply}]")
	}
	type canned struct{ caseID, contains, text string }
	replies := make([]canned, len(j.Replies))
	for i, r := range j.Replies {
		raw := bytes.TrimSpace(r.Reply)
		if len(raw) == 0 || string(raw) == "null" {
			return proctor.JudgeModel{}, fmt.Errorf("replies[%d]: reply is required (text, or a JSON object as a judge writes it)", i)
		}
		text := string(raw)
		if raw[0] == '"' {
			_ = json.Unmarshal(raw, &text)
		}
		replies[i] = canned{r.Case, r.PromptContains, text}
	}
	name := j.Name
	model := j.Model
	if model == "" {
		model = scriptedModel
	}
	call := func(ctx context.Context, prompt string) (string, error) {
		id := ""
		if info := proctor.CheckInfoFrom(ctx); info != nil {
			id = info.CaseID
		}
		for _, r := range replies {
			if (r.caseID == "" || r.caseID == id) && (r.contains == "" || strings.Contains(prompt, r.contains)) {
				return r.text, nil
			}
		}
		if id == "" {
			return "", fmt.Errorf("scripted judge %s has no reply for this prompt (no case id: it was called outside a Runner), and none without case and prompt_contains", name)
		}
		return "", fmt.Errorf("scripted judge %s has no reply for case %q: none names it, no prompt_contains matches its prompt (rubric included), and none has neither", name, id)
	}
	// Canned replies cost nothing: free, not of unknown cost.
	return proctor.JudgeModel{Name: name, Family: j.Family, Model: model, Call: call, Concurrency: j.Concurrency, Prices: &proctor.JudgePrices{}}, nil
}
