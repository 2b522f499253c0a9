package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/judgehttp"
)

// The optional parameters of a [Chat.Reply] an endpoint may refuse; each
// is learned once per Chat (see judgehttp.Learner).
const (
	paramMaxTokens   judgehttp.Param = 1 << iota // refused: send max_completion_tokens
	paramTemperature                             // refused: send none
	paramSeed                                    // refused: send none
	paramLogprobs                                // refused: ask for none
	paramFormat                                  // refused: ask in plain text
)

type chatRequest struct {
	Model               string    `json:"model"`
	Messages            []Message `json:"messages"`
	Temperature         *float64  `json:"temperature,omitempty"`
	Seed                *int      `json:"seed,omitempty"`
	MaxTokens           int       `json:"max_tokens,omitempty"`
	MaxCompletionTokens int       `json:"max_completion_tokens,omitempty"`
	ReasoningEffort     string    `json:"reasoning_effort,omitempty"`
	Logprobs            bool      `json:"logprobs,omitempty"`
	// ResponseFormat asks for a JSON schema; nil sends none.
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			// ReasoningContent (DeepSeek, vLLM) and Reasoning (OpenRouter,
			// Ollama) hold a reasoning model's thinking, apart from the
			// answer.
			ReasoningContent string          `json:"reasoning_content"`
			Reasoning        json.RawMessage `json:"reasoning"`
			ToolCalls        []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
		Logprobs     *struct {
			Content []tokenLogprob `json:"content"`
		} `json:"logprobs"`
	} `json:"choices"`
	Usage struct {
		PromptTokens            *int `json:"prompt_tokens"`
		CompletionTokens        *int `json:"completion_tokens"`
		TotalTokens             *int `json:"total_tokens"`
		CompletionTokensDetails struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// Reply sends prompt as one user message with the temperature, seed,
// completion cap, reasoning effort and logprobs of [ChatOptions], and
// returns the first choice's text with the tokens and requests it used.
// When the prompt lists the keys of the JSON object it wants (proctor's
// judge prompts do), the request asks for that object as a strict JSON
// schema, as [ChatOptions.Structured] says. A parameter the endpoint
// refuses with a 400 naming it is learned once and left out (or, for
// max_tokens, sent as max_completion_tokens); the refused request counts
// in the reply's Requests, and while a parameter is still unknown calls
// go one at a time, so one request at most gets its 400.
//
// Thinking the endpoint returns apart from the answer (reasoning_content
// or reasoning) is the reply's Reasoning, never read for the verdict. A
// reply cut off at the token limit (finish_reason "length", or no content
// after thinking) is an error wrapping [proctor.ErrReplyTruncated], with
// the tokens it used. 429, 5xx and network errors are returned wrapped in
// [proctor.TransientError] (with the server's Retry-After and the status);
// a status outside 2xx is a *[StatusError]; a reply without message
// content is an error.
func (c *Chat) Reply(ctx context.Context, prompt string) (proctor.JudgeReply, error) {
	var format *responseFormat
	if mode := c.opts.Structured; mode != StructuredOff {
		if keys := judgehttp.PromptKeys(prompt); len(keys) > 0 {
			format = schemaFor(keys)
		}
	}
	var cr chatResponse
	n, err := c.learn.Do(ctx, c.learnable(format != nil), func(omit judgehttp.Param) error {
		_, err := c.call(ctx, c.replyRequest(prompt, format, omit), &cr)
		return err
	}, c.refusal)
	if err != nil {
		return proctor.JudgeReply{Requests: n}, err
	}
	return c.judgeReply(cr, n)
}

// learnable is the parameters of a Reply that may be learned refused.
func (c *Chat) learnable(format bool) judgehttp.Param {
	p := paramSeed
	if c.opts.TokensField == TokensAuto {
		p |= paramMaxTokens
	}
	if !c.opts.OmitTemperature {
		p |= paramTemperature
	}
	if c.opts.Logprobs {
		p |= paramLogprobs
	}
	if format && c.opts.Structured == StructuredAuto {
		p |= paramFormat
	}
	return p
}

// replyRequest is the request of a Reply leaving out (or replacing) the
// parameters in omit.
func (c *Chat) replyRequest(prompt string, format *responseFormat, omit judgehttp.Param) chatRequest {
	o := c.opts
	req := chatRequest{Messages: []Message{{Role: "user", Content: prompt}}, ReasoningEffort: o.ReasoningEffort}
	if omit&paramSeed == 0 {
		req.Seed = &o.Seed
	}
	if !o.OmitTemperature && omit&paramTemperature == 0 {
		req.Temperature = &o.Temperature
	}
	if o.TokensField == TokensMaxCompletionTokens || omit&paramMaxTokens != 0 {
		req.MaxCompletionTokens = o.MaxTokens
	} else {
		req.MaxTokens = o.MaxTokens
	}
	req.Logprobs = o.Logprobs && omit&paramLogprobs == 0
	if omit&paramFormat == 0 {
		req.ResponseFormat = format
	}
	return req
}

// refusal reads which learnable parameters a 400 refuses.
func (c *Chat) refusal(err error) judgehttp.Param {
	var se *StatusError
	if !errors.As(err, &se) {
		return 0
	}
	var p judgehttp.Param
	for _, r := range []struct {
		param judgehttp.Param
		name  string
	}{{paramMaxTokens, "max_tokens"}, {paramTemperature, "temperature"}, {paramSeed, "seed"}, {paramLogprobs, "logprobs"}} {
		if se.Refuses(r.name) {
			p |= r.param
		}
	}
	if c.opts.Structured == StructuredAuto && se.Mentions("response_format", "json_schema") {
		p |= paramFormat
	}
	return p
}

// judgeReply reads the first choice of cr as a judge's reply.
func (c *Chat) judgeReply(cr chatResponse, requests int) (proctor.JudgeReply, error) {
	ch, u := cr.Choices[0], cr.Usage
	in, out := deref(u.PromptTokens), deref(u.CompletionTokens)
	r := proctor.JudgeReply{Tokens: deref(u.TotalTokens), CostUSD: c.cost(in, out), Requests: requests,
		Reasoning: reasoningOf(ch.Message.ReasoningContent, ch.Message.Reasoning)}
	if r.Tokens == 0 {
		r.Tokens = in + out
	}
	content := ch.Message.Content
	empty := content == nil || strings.TrimSpace(*content) == ""
	thought := r.Reasoning != "" || u.CompletionTokensDetails.ReasoningTokens > 0
	switch {
	case ch.FinishReason == "length":
		return r, fmt.Errorf("openai: chat: %w (finish_reason length after %d completion tokens; max %d)", proctor.ErrReplyTruncated, out, c.opts.MaxTokens)
	case empty && thought:
		return r, fmt.Errorf("openai: chat: %w (no answer after the thinking; max %d tokens)", proctor.ErrReplyTruncated, c.opts.MaxTokens)
	case content == nil:
		return r, errors.New("openai: chat: reply has no message content")
	}
	r.Text = *content
	if lp := ch.Logprobs; lp != nil {
		r.VerdictProbability, _ = verdictProbability(r.Text, lp.Content)
	}
	return r, nil
}

// reasoningOf is the thinking a reply gave apart from its answer:
// reasoning_content, else a reasoning string.
func reasoningOf(content string, raw json.RawMessage) string {
	if content != "" {
		return content
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}
