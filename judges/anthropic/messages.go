package anthropic

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/judgehttp"
)

// DefaultBaseURL is the API root requests go to when Options.BaseURL is "".
const DefaultBaseURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header sent with every request.
const APIVersion = "2023-06-01"

// DefaultMaxTokens is max_tokens when Options.MaxTokens is 0 and thinking
// is off: the output limit of the smallest Claude models (Claude 3 Haiku),
// so that no model refuses it, and many times what a verdict takes. With
// a thinking budget the default is the budget plus DefaultMaxTokens, so
// that the verdict has room after the thinking.
const DefaultMaxTokens = 4096

// minThinkingBudget is the smallest budget_tokens the API takes.
const minThinkingBudget = 1024

// Structured says whether [Judge.Reply] forces the verdict through a tool
// call: StructuredAuto (the default, ""), StructuredOn ("on") or
// StructuredOff ("off").
type Structured = judgehttp.Structured

const (
	// StructuredAuto forces a tool call when the prompt lists its keys and
	// thinking is off, and asks for JSON in text, for this call and every
	// later one, when the endpoint refuses tools with a 400 (counted as a
	// request; while it is unknown, calls go one at a time).
	StructuredAuto = judgehttp.StructuredAuto
	// StructuredOn forces the tool call whenever the prompt lists its
	// keys and thinking is off; a refusal is an error.
	StructuredOn = judgehttp.StructuredOn
	// StructuredOff never sends tools: the reply is read from text.
	StructuredOff = judgehttp.StructuredOff
)

// StatusError is a reply with a status outside 2xx, the same type as
// judges/openai's: Vendor "anthropic", API "messages", StatusCode, Body,
// and Message and Type from the body's {"type": "error", "error": {...}}.
type StatusError = judgehttp.StatusError

// Options configure [New]. Model is required; the zero value of every
// other field is the default.
type Options struct {
	// BaseURL is the API root; "" means [DefaultBaseURL]. Requests go to
	// BaseURL + "/v1/messages".
	BaseURL string
	// Model is the model name sent with each request.
	Model string
	// APIKey is sent as the x-api-key header. APIKeyEnv, when set, names
	// the environment variable to read it from at construction instead
	// (it must be set). With neither, no key is sent.
	APIKey, APIKeyEnv string
	// System, when set, is sent as the system prompt.
	System string
	// MaxTokens is max_tokens, thinking included; 0 means
	// [DefaultMaxTokens] (plus ThinkingBudget with thinking on).
	MaxTokens int
	// ThinkingBudget, when above 0, enables extended thinking with this
	// budget_tokens: at least 1024 and below MaxTokens.
	ThinkingBudget int
	// Temperature is sent without thinking; the default is 0.
	// OmitTemperature sends none. Without it, an endpoint that refuses the
	// temperature with a 400 naming it is asked again without it, and
	// from then on.
	Temperature     float64
	OmitTemperature bool
	// ConfidenceThreshold is registered with [Judge.JudgeModel]; the
	// Messages API returns no log probabilities, so it applies only to
	// probabilities a wrapper adds.
	ConfidenceThreshold float64
	// Structured says whether the verdict is forced through a tool call.
	Structured Structured
	// Timeout bounds each request; 0 means 60s.
	Timeout time.Duration
	// Client is the HTTP client; nil means one that follows no redirects.
	Client *http.Client
	// InputPerMTok and OutputPerMTok are prices in USD per million input
	// and output tokens; zero means cost unknown. Cache reads and writes,
	// which a judge does not ask for, are priced as input.
	InputPerMTok, OutputPerMTok float64
}

// Judge is a client of the Messages API as a proctor judge. It is safe
// for concurrent use.
type Judge struct {
	ep    judgehttp.Endpoint
	opts  Options
	learn judgehttp.Learner
}

// maxReply caps how much of a reply body is read.
const maxReply = 16 << 20

// New returns a Judge, or an error when Model is missing, the base URL is
// not http(s), APIKeyEnv names an unset variable, or an option is out of
// range.
func New(opts Options) (*Judge, error) {
	if opts.Model == "" {
		return nil, errors.New("anthropic: model is required")
	}
	messagesURL, err := judgehttp.EndpointURL("anthropic", cmp.Or(opts.BaseURL, DefaultBaseURL), "/v1/messages")
	if err != nil {
		return nil, err
	}
	key, err := judgehttp.APIKey("anthropic", opts.APIKey, opts.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens + max(opts.ThinkingBudget, 0)
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	opts.Timeout = cmp.Or(opts.Timeout, 60*time.Second)
	h := http.Header{"Anthropic-Version": {APIVersion}}
	if key != "" {
		h.Set("X-Api-Key", key)
	}
	ep := judgehttp.Endpoint{Vendor: "anthropic", API: "messages", URL: messagesURL, Header: h,
		Client: opts.Client, Timeout: opts.Timeout, MaxBody: maxReply}
	return &Judge{ep: ep, opts: opts}, nil
}

// check refuses options out of range.
func (o Options) check() error {
	if _, err := judgehttp.ParseStructured(string(o.Structured)); err != nil {
		return fmt.Errorf("anthropic: %w", err)
	}
	switch {
	case o.ThinkingBudget < 0 || o.ThinkingBudget > 0 && o.ThinkingBudget < minThinkingBudget:
		return fmt.Errorf("anthropic: thinking budget %d: want at least %d (or 0 for no thinking)", o.ThinkingBudget, minThinkingBudget)
	case o.ThinkingBudget > 0 && o.ThinkingBudget >= o.MaxTokens:
		return fmt.Errorf("anthropic: thinking budget %d: want it below max_tokens %d", o.ThinkingBudget, o.MaxTokens)
	case !(o.Temperature >= 0 && o.Temperature <= 1):
		return fmt.Errorf("anthropic: temperature %v: want 0 to 1", o.Temperature)
	case !(o.ConfidenceThreshold >= 0 && o.ConfidenceThreshold <= 1):
		return fmt.Errorf("anthropic: confidence threshold %v: want 0 to 1", o.ConfidenceThreshold)
	case o.Timeout < 0:
		return fmt.Errorf("anthropic: timeout %v: want 0 or more", o.Timeout)
	}
	return nil
}

// JudgeModel returns j registered as a judge named name of the given
// family, with its confidence threshold, its prices (when either is set)
// and its MaxTokens, by which a [proctor.JudgeBudget] reserves each call
// before it is made.
func (j *Judge) JudgeModel(name, family string) proctor.JudgeModel {
	return judgehttp.JudgeModel(name, family, judgehttp.Registration{Model: j.opts.Model, Threshold: j.opts.ConfidenceThreshold,
		MaxTokens: j.opts.MaxTokens, InputPerMTok: j.opts.InputPerMTok, OutputPerMTok: j.opts.OutputPerMTok}, j.Reply)
}

// Judge returns j as a plain [proctor.Judge].
func (j *Judge) Judge() proctor.Judge { return judgehttp.PlainJudge(j.Reply) }

// cost is the price of in input and out output tokens.
func (j *Judge) cost(in, out int) float64 {
	return judgehttp.Cost(in, out, j.opts.InputPerMTok, j.opts.OutputPerMTok)
}

// post sends r and decodes the reply into mr.
func (j *Judge) post(ctx context.Context, r request, mr *response) error {
	r.Model = j.opts.Model
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("anthropic: %w", err)
	}
	*mr = response{}
	_, _, err = j.ep.Post(ctx, body, mr)
	return err
}
