package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/proctorhq/proctor"
)

// ChatOptions configure [NewChat]. BaseURL and Model are required.
type ChatOptions struct {
	// BaseURL is the API root, such as "https://api.openai.com/v1"; the
	// request goes to BaseURL + "/chat/completions".
	BaseURL string
	// Model is the model name sent with each request.
	Model string
	// APIKey is sent as a bearer token. APIKeyEnv, when set, names the
	// environment variable to read it from at construction instead (it
	// must be set). With neither, no Authorization header is sent.
	APIKey    string
	APIKeyEnv string
	// Seed is sent with every [Chat.Reply] (endpoints that take a seed
	// sample deterministically with it); 0 means 7. Reply's temperature is
	// always 0. [Chat.Complete] sends only what its [Request] holds.
	Seed int
	// MaxTokens caps a [Chat.Reply]; 0 means 1024.
	MaxTokens int
	// Timeout bounds each request; 0 means 60s.
	Timeout time.Duration
	// Client is the HTTP client; nil means a client with no redirects
	// followed.
	Client *http.Client
	// Structured says whether [Chat.Reply] asks for the reply as a strict
	// JSON schema built from the keys the prompt lists; the default,
	// StructuredAuto, asks and falls back to plain text when the endpoint
	// refuses. Replies are read the same either way: many endpoints ignore
	// the format, and a judge must be read from text.
	Structured Structured
	// InputPerMTok and OutputPerMTok are prices in USD per million prompt
	// and completion tokens, for the cost reported to [proctor.JudgeStats]
	// and in [Completion.CostUSD]; zero means cost unknown.
	InputPerMTok, OutputPerMTok float64
}

// Chat is a client of an OpenAI-compatible chat-completions endpoint: a
// judge through [Chat.Reply], or any chat call through [Chat.Complete]. It
// is safe for concurrent use.
type Chat struct {
	ep      endpoint
	opts    ChatOptions
	refused atomic.Bool // the endpoint refused response_format (StructuredAuto)
}

// maxChatReply caps how much of a reply body is read.
const maxChatReply = 16 << 20

// NewChat returns a Chat, or an error when BaseURL or Model is missing, the
// base URL is not http(s), or APIKeyEnv names an unset variable.
func NewChat(opts ChatOptions) (*Chat, error) {
	if opts.Model == "" {
		return nil, errors.New("openai: chat: model is required")
	}
	chatURL, err := endpointURL("chat", opts.BaseURL, "/chat/completions")
	if err != nil {
		return nil, err
	}
	key := opts.APIKey
	if opts.APIKeyEnv != "" {
		v, ok := os.LookupEnv(opts.APIKeyEnv)
		if !ok || v == "" {
			return nil, fmt.Errorf("openai: chat: API key variable %s is not set", opts.APIKeyEnv)
		}
		key = v
	}
	if _, err := ParseStructured(string(opts.Structured)); err != nil {
		return nil, err
	}
	if opts.Seed == 0 {
		opts.Seed = 7
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = 1024
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	client := opts.Client
	if client == nil {
		client = noRedirects()
	}
	ep := endpoint{api: "chat", url: chatURL, key: key, client: client, timeout: opts.Timeout, maxBody: maxChatReply}
	return &Chat{ep: ep, opts: opts}, nil
}

// JudgeModel returns c registered as a judge named name of the given family.
func (c *Chat) JudgeModel(name, family string) proctor.JudgeModel {
	return proctor.JudgeModel{Name: name, Family: family, Model: c.opts.Model, CallWithUsage: c.Reply}
}

// Judge returns c as a plain [proctor.Judge].
func (c *Chat) Judge() proctor.Judge {
	return func(ctx context.Context, prompt string) (string, error) {
		r, err := c.Reply(ctx, prompt)
		return r.Text, err
	}
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

// Request is one call made by [Chat.Complete]. Nil Temperature and zero
// MaxTokens are left out of the request, to the server's defaults.
type Request struct {
	Messages    []Message
	Temperature *float64
	MaxTokens   int
}

// Completion is the first choice of a chat reply, with what it used.
type Completion struct {
	// Text is the message's content; "" when it had none (a reply of tool
	// calls only).
	Text string
	// ToolCalls are the function calls the message asked for; arguments
	// that are not valid JSON are kept as a JSON string.
	ToolCalls []proctor.ToolCall
	// Status is the HTTP status of the reply (2xx).
	Status int
	// InputTokens, OutputTokens and TotalTokens are the reply's usage;
	// nil when the reply left a count out. TotalTokens is the sum of the
	// other two when the reply gave those but not it.
	InputTokens, OutputTokens, TotalTokens *int
	// CostUSD is the cost at ChatOptions' prices; 0 when they are not set
	// or either token count is missing.
	CostUSD float64
}

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	Seed        *int      `json:"seed,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	// ResponseFormat asks for a JSON schema; nil sends none.
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content   *string `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     *int `json:"prompt_tokens"`
		CompletionTokens *int `json:"completion_tokens"`
		TotalTokens      *int `json:"total_tokens"`
	} `json:"usage"`
}

// call sends r and returns the decoded reply and its HTTP status, or an
// error when the reply has no choice.
func (c *Chat) call(ctx context.Context, r chatRequest) (chatResponse, int, error) {
	r.Model = c.opts.Model
	body, err := json.Marshal(r)
	if err != nil {
		return chatResponse{}, 0, fmt.Errorf("openai: chat: %w", err)
	}
	var cr chatResponse
	status, err := c.ep.post(ctx, body, &cr)
	if err != nil {
		return cr, status, err
	}
	if len(cr.Choices) == 0 {
		return cr, status, errors.New("openai: chat: reply has no choices")
	}
	return cr, status, nil
}

// Reply sends prompt as one user message at temperature 0 with the seed
// and MaxTokens of [ChatOptions], and returns the first choice's text with
// the tokens it used. When the prompt lists the keys of the JSON object it
// wants (proctor's judge prompts do), the request asks for that object as
// a strict JSON schema, as [ChatOptions.Structured] says. 429, 5xx and
// network errors are returned wrapped in [proctor.TransientError] (with the
// server's Retry-After and the status); a status outside 2xx is a
// *[StatusError]; a reply without message content is an error.
func (c *Chat) Reply(ctx context.Context, prompt string) (proctor.JudgeReply, error) {
	req := chatRequest{
		Messages:    []Message{{Role: "user", Content: prompt}},
		Temperature: new(float64),
		Seed:        &c.opts.Seed,
		MaxTokens:   c.opts.MaxTokens,
	}
	mode := c.opts.Structured
	if mode != StructuredOff && !(mode == StructuredAuto && c.refused.Load()) {
		if keys := promptKeys(prompt); len(keys) > 0 {
			req.ResponseFormat = schemaFor(keys)
		}
	}
	cr, _, err := c.call(ctx, req)
	if err != nil && req.ResponseFormat != nil && mode == StructuredAuto && refusedFormat(err) {
		// The endpoint does not take a schema: ask in plain text, now
		// and from now on.
		c.refused.Store(true)
		req.ResponseFormat = nil
		cr, _, err = c.call(ctx, req)
	}
	if err != nil {
		return proctor.JudgeReply{}, err
	}
	if cr.Choices[0].Message.Content == nil {
		return proctor.JudgeReply{}, errors.New("openai: chat: reply has no message content")
	}
	u := cr.Usage
	in, out := deref(u.PromptTokens), deref(u.CompletionTokens)
	tokens := deref(u.TotalTokens)
	if tokens == 0 {
		tokens = in + out
	}
	return proctor.JudgeReply{Text: *cr.Choices[0].Message.Content, Tokens: tokens, CostUSD: c.cost(in, out)}, nil
}

// Complete sends r's messages and returns the first choice with its tool
// calls and usage. Unlike [Chat.Reply] it sends no seed and only the
// sampling settings r holds. Errors are as Reply's, except that a reply
// with tool calls and no content is a completion with empty Text.
func (c *Chat) Complete(ctx context.Context, r Request) (Completion, error) {
	cr, status, err := c.call(ctx, chatRequest{Messages: r.Messages, Temperature: r.Temperature, MaxTokens: r.MaxTokens})
	if err != nil {
		return Completion{}, err
	}
	return c.completion(cr, status), nil
}

func (c *Chat) completion(cr chatResponse, status int) Completion {
	m, u := cr.Choices[0].Message, cr.Usage
	out := Completion{Status: status, InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if m.Content != nil {
		out.Text = *m.Content
	}
	for _, tc := range m.ToolCalls {
		call := proctor.ToolCall{Name: tc.Function.Name}
		if json.Valid([]byte(tc.Function.Arguments)) {
			call.Arguments = json.RawMessage(tc.Function.Arguments)
		} else if tc.Function.Arguments != "" {
			call.Arguments, _ = json.Marshal(tc.Function.Arguments)
		}
		out.ToolCalls = append(out.ToolCalls, call)
	}
	if in, o := u.PromptTokens, u.CompletionTokens; in != nil && o != nil {
		if out.TotalTokens == nil {
			out.TotalTokens = proctor.Ptr(*in + *o)
		}
		out.CostUSD = c.cost(*in, *o)
	}
	return out
}

// cost is the price of in prompt and out completion tokens.
func (c *Chat) cost(in, out int) float64 {
	return (float64(in)*c.opts.InputPerMTok + float64(out)*c.opts.OutputPerMTok) / 1e6
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
