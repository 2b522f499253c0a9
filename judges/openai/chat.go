package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/judgehttp"
)

// ChatOptions configure [NewChat]. BaseURL and Model are required; the
// zero value of every other field is the default.
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
	// sample deterministically with it); 0 means 7. [Chat.Complete] sends
	// only what its [Request] holds.
	Seed int
	// Temperature is sent with every [Chat.Reply]; the default is 0.
	// OmitTemperature sends none, for endpoints that take only their
	// default (reasoning models). Without it, an endpoint that refuses the
	// temperature (or the seed) with a 400 naming it is asked again
	// without it, and from then on: learned once per Chat.
	Temperature     float64
	OmitTemperature bool
	// MaxTokens caps a [Chat.Reply]'s completion, thinking included; 0
	// means [DefaultMaxTokens].
	MaxTokens int
	// TokensField is the request field MaxTokens is sent as; the default,
	// [TokensAuto], sends max_tokens and, when the endpoint refuses it with
	// a 400 naming it (as OpenAI's reasoning models do), switches to
	// max_completion_tokens for this call and every later one.
	TokensField TokensField
	// ReasoningEffort, when set, is sent as reasoning_effort: none,
	// minimal, low, medium, high or xhigh.
	ReasoningEffort string
	// Logprobs asks for the log probabilities of the reply's tokens
	// (logprobs: true); the probability of the token that starts the
	// reply's verdict is then reported as [proctor.JudgeReply]'s
	// VerdictProbability, and decides the vote's confidence against
	// ConfidenceThreshold. An endpoint that refuses logprobs is asked
	// again without them (learned once): confidence is then the judge's
	// own.
	Logprobs bool
	// ConfidenceThreshold is the verdict probability below which a vote
	// has low confidence; 0 means [proctor.DefaultConfidenceThreshold].
	ConfidenceThreshold float64
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

// DefaultMaxTokens is the completion cap of a [Chat.Reply] when
// [ChatOptions.MaxTokens] is 0. A reasoning model spends its thinking
// from the same cap before it writes the verdict, and a judge's thinking
// at medium effort runs to a few thousand tokens, so the old 1,024 cut
// replies off; 16,384 leaves room for that thinking several times over
// and is still within the output limit of common non-reasoning chat
// models (gpt-4o's is 16,384), which refuse a larger cap. Tokens are
// billed as used, not as capped.
const DefaultMaxTokens = 16384

// TokensField is the request field a completion cap is sent as.
type TokensField string

const (
	// TokensAuto sends max_tokens until the endpoint refuses it, then
	// max_completion_tokens.
	TokensAuto TokensField = ""
	// TokensMaxTokens always sends max_tokens.
	TokensMaxTokens TokensField = "max_tokens"
	// TokensMaxCompletionTokens always sends max_completion_tokens.
	TokensMaxCompletionTokens TokensField = "max_completion_tokens"
)

// reasoningEfforts are the values reasoning_effort takes.
var reasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

// Chat is a client of an OpenAI-compatible chat-completions endpoint: a
// judge through [Chat.Reply], or any chat call through [Chat.Complete]. It
// is safe for concurrent use.
type Chat struct {
	ep    judgehttp.Endpoint
	opts  ChatOptions
	learn judgehttp.Learner // parameters the endpoint refused
}

// maxChatReply caps how much of a reply body is read.
const maxChatReply = 16 << 20

// NewChat returns a Chat, or an error when BaseURL or Model is missing, the
// base URL is not http(s), APIKeyEnv names an unset variable, or an option
// is out of range.
func NewChat(opts ChatOptions) (*Chat, error) {
	if opts.Model == "" {
		return nil, errors.New("openai: chat: model is required")
	}
	chatURL, err := endpointURL("chat", opts.BaseURL, "/chat/completions")
	if err != nil {
		return nil, err
	}
	key, err := judgehttp.APIKey("openai: chat", opts.APIKey, opts.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	opts.Seed = cmp.Or(opts.Seed, 7)
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	client := opts.Client
	if client == nil {
		client = judgehttp.NoRedirects()
	}
	return &Chat{ep: newEndpoint("chat", chatURL, key, client, opts.Timeout, maxChatReply), opts: opts}, nil
}

// check refuses options out of range.
func (o ChatOptions) check() error {
	if _, err := ParseStructured(string(o.Structured)); err != nil {
		return err
	}
	switch {
	case o.TokensField != TokensAuto && o.TokensField != TokensMaxTokens && o.TokensField != TokensMaxCompletionTokens:
		return fmt.Errorf("openai: chat: tokens field %q: want max_tokens or max_completion_tokens", o.TokensField)
	case o.ReasoningEffort != "" && !slices.Contains(reasoningEfforts, o.ReasoningEffort):
		return fmt.Errorf("openai: chat: reasoning effort %q: want one of %s", o.ReasoningEffort, strings.Join(reasoningEfforts, ", "))
	case !(o.Temperature >= 0 && o.Temperature <= 2):
		return fmt.Errorf("openai: chat: temperature %v: want 0 to 2", o.Temperature)
	case !(o.ConfidenceThreshold >= 0 && o.ConfidenceThreshold <= 1):
		return fmt.Errorf("openai: chat: confidence threshold %v: want 0 to 1", o.ConfidenceThreshold)
	}
	return nil
}

// JudgeModel returns c registered as a judge named name of the given
// family, with its confidence threshold, its prices (when either is set)
// and its MaxTokens, by which a [proctor.JudgeBudget] reserves each call
// before it is made.
func (c *Chat) JudgeModel(name, family string) proctor.JudgeModel {
	return judgehttp.JudgeModel(name, family, judgehttp.Registration{Model: c.opts.Model, Threshold: c.opts.ConfidenceThreshold,
		MaxTokens: c.opts.MaxTokens, InputPerMTok: c.opts.InputPerMTok, OutputPerMTok: c.opts.OutputPerMTok}, c.Reply)
}

// Judge returns c as a plain [proctor.Judge].
func (c *Chat) Judge() proctor.Judge { return judgehttp.PlainJudge(c.Reply) }

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

// call sends r and decodes the reply into cr, returning its HTTP status,
// or an error when the reply has no choice.
func (c *Chat) call(ctx context.Context, r chatRequest, cr *chatResponse) (int, error) {
	r.Model = c.opts.Model
	body, err := json.Marshal(r)
	if err != nil {
		return 0, fmt.Errorf("openai: chat: %w", err)
	}
	*cr = chatResponse{}
	status, _, err := c.ep.Post(ctx, body, cr)
	if err != nil {
		return status, err
	}
	if len(cr.Choices) == 0 {
		return status, errors.New("openai: chat: reply has no choices")
	}
	return status, nil
}

// Complete sends r's messages and returns the first choice with its tool
// calls and usage. Unlike [Chat.Reply] it sends no seed and only the
// sampling settings r holds. Errors are as Reply's, except that a reply
// with tool calls and no content is a completion with empty Text.
func (c *Chat) Complete(ctx context.Context, r Request) (Completion, error) {
	req := chatRequest{Messages: r.Messages, Temperature: r.Temperature}
	if c.opts.TokensField == TokensMaxCompletionTokens {
		req.MaxCompletionTokens = r.MaxTokens
	} else {
		req.MaxTokens = r.MaxTokens
	}
	var cr chatResponse
	status, err := c.call(ctx, req, &cr)
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
	return judgehttp.Cost(in, out, c.opts.InputPerMTok, c.opts.OutputPerMTok)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
