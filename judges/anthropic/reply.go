package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/judgehttp"
)

// The optional parameters of a [Judge.Reply] an endpoint may refuse; each
// is learned once per Judge.
const (
	paramTemperature judgehttp.Param = 1 << iota // refused: send none
	paramTools                                   // refused: ask for JSON in text
)

// toolName is the tool a structured verdict is forced through.
const toolName = "judge_reply"

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type thinking struct {
	Type         string `json:"type"` // "enabled"
	BudgetTokens int    `json:"budget_tokens"`
}

type tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"input_schema"`
}

type toolChoice struct {
	Type string `json:"type"` // "tool"
	Name string `json:"name"`
}

type request struct {
	Model       string      `json:"model"`
	MaxTokens   int         `json:"max_tokens"`
	System      string      `json:"system,omitempty"`
	Messages    []message   `json:"messages"`
	Temperature *float64    `json:"temperature,omitempty"`
	Thinking    *thinking   `json:"thinking,omitempty"`
	Tools       []tool      `json:"tools,omitempty"`
	ToolChoice  *toolChoice `json:"tool_choice,omitempty"`
}

// block is one content block of a reply: text, thinking,
// redacted_thinking or tool_use.
type block struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

type response struct {
	Type       string  `json:"type"`
	Content    []block `json:"content"`
	StopReason string  `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// Reply sends prompt as one user message with the system prompt,
// max_tokens, temperature and thinking of [Options], and returns the
// reply's verdict text (the forced tool call's input as JSON, else its
// text blocks) with its thinking as Reasoning, the tokens and cost it
// used and the requests it made. A parameter the endpoint refuses with a
// 400 (temperature; tools, under StructuredAuto) is learned once and left
// out, the refused request counted. A reply that stopped at max_tokens,
// or gave no text after its thinking, is an error wrapping
// [proctor.ErrReplyTruncated] with its usage; one that stopped as a
// refusal is an error. 429, 529 and other 5xx are [proctor.TransientError]
// with the server's retry-after; another status is a *[StatusError].
func (j *Judge) Reply(ctx context.Context, prompt string) (proctor.JudgeReply, error) {
	var tools []tool
	if j.opts.Structured != StructuredOff && j.opts.ThinkingBudget == 0 {
		if keys := judgehttp.PromptKeys(prompt); len(keys) > 0 {
			tools = []tool{{Name: toolName, Description: "Record the verdict, with every key the instructions ask for.", InputSchema: judgehttp.KeysSchema(keys)}}
		}
	}
	var mr response
	n, err := j.learn.Do(ctx, j.learnable(tools != nil), func(omit judgehttp.Param) error {
		return j.post(ctx, j.request(prompt, tools, omit), &mr)
	}, j.refusal)
	if err != nil {
		return proctor.JudgeReply{Requests: n}, err
	}
	return j.judgeReply(mr, n)
}

// learnable is the parameters of a Reply that may be learned refused.
func (j *Judge) learnable(tools bool) judgehttp.Param {
	var p judgehttp.Param
	if !j.opts.OmitTemperature && j.opts.ThinkingBudget == 0 {
		p |= paramTemperature
	}
	if tools && j.opts.Structured == StructuredAuto {
		p |= paramTools
	}
	return p
}

// request is the request of a Reply leaving out the parameters in omit.
func (j *Judge) request(prompt string, tools []tool, omit judgehttp.Param) request {
	o := j.opts
	r := request{MaxTokens: o.MaxTokens, System: o.System, Messages: []message{{Role: "user", Content: prompt}}}
	if o.ThinkingBudget > 0 {
		r.Thinking = &thinking{Type: "enabled", BudgetTokens: o.ThinkingBudget}
	} else if !o.OmitTemperature && omit&paramTemperature == 0 {
		r.Temperature = &o.Temperature
	}
	if tools != nil && omit&paramTools == 0 {
		r.Tools, r.ToolChoice = tools, &toolChoice{Type: "tool", Name: toolName}
	}
	return r
}

// refusal reads which learnable parameters a 400 refuses.
func (j *Judge) refusal(err error) judgehttp.Param {
	var se *StatusError
	if !errors.As(err, &se) {
		return 0
	}
	var p judgehttp.Param
	if se.Refuses("temperature") {
		p |= paramTemperature
	}
	if j.opts.Structured == StructuredAuto && se.Mentions("tool_choice", "tools", "tool use", "tool_use") {
		p |= paramTools
	}
	return p
}

// judgeReply reads a Messages reply as a judge's reply.
func (j *Judge) judgeReply(mr response, requests int) (proctor.JudgeReply, error) {
	u := mr.Usage
	in := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
	r := proctor.JudgeReply{Tokens: in + u.OutputTokens, CostUSD: j.cost(in, u.OutputTokens), Requests: requests}
	var text, thought []string
	var input json.RawMessage
	for _, b := range mr.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "thinking":
			thought = append(thought, b.Thinking)
		case "redacted_thinking":
			thought = append(thought, "[redacted thinking]")
		case "tool_use":
			if b.Name == toolName && input == nil && json.Valid(b.Input) {
				input = b.Input
			}
		}
	}
	r.Reasoning = strings.Join(thought, "\n")
	r.Text = strings.Join(text, "\n")
	if input != nil {
		r.Text = string(input)
	}
	switch {
	case mr.StopReason == "max_tokens":
		r.Text = ""
		return r, fmt.Errorf("anthropic: %w (stop_reason max_tokens after %d output tokens; max %d)", proctor.ErrReplyTruncated, u.OutputTokens, j.opts.MaxTokens)
	case strings.TrimSpace(r.Text) == "" && len(thought) > 0:
		return r, fmt.Errorf("anthropic: %w (no answer after the thinking; max %d tokens)", proctor.ErrReplyTruncated, j.opts.MaxTokens)
	case mr.StopReason == "refusal":
		r.Text = ""
		return r, errors.New("anthropic: the model declined to answer (stop_reason refusal)")
	case len(mr.Content) == 0:
		return r, errors.New("anthropic: reply has no content")
	}
	return r, nil
}
