package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
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
	// Seed is sent with every request (endpoints that take a seed sample
	// deterministically with it); 0 means 7. Temperature is always 0.
	Seed int
	// MaxTokens caps the reply; 0 means 1024.
	MaxTokens int
	// Timeout bounds each request; 0 means 60s.
	Timeout time.Duration
	// Client is the HTTP client; nil means a client with no redirects
	// followed.
	Client *http.Client
	// InputPerMTok and OutputPerMTok are prices in USD per million prompt
	// and completion tokens, for the cost reported to [proctor.JudgeStats];
	// zero means cost unknown.
	InputPerMTok, OutputPerMTok float64
}

// Chat is a judge backed by an OpenAI-compatible chat-completions
// endpoint. It is safe for concurrent use.
type Chat struct {
	url    string
	key    string
	opts   ChatOptions
	client *http.Client
}

// NewChat returns a Chat, or an error when BaseURL or Model is missing, the
// base URL is not http(s), or APIKeyEnv names an unset variable.
func NewChat(opts ChatOptions) (*Chat, error) {
	if opts.Model == "" {
		return nil, errors.New("openai: chat: model is required")
	}
	base := strings.TrimRight(opts.BaseURL, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("openai: chat: base URL %q: want http:// or https://", opts.BaseURL)
	}
	key := opts.APIKey
	if opts.APIKeyEnv != "" {
		v, ok := os.LookupEnv(opts.APIKeyEnv)
		if !ok || v == "" {
			return nil, fmt.Errorf("openai: chat: API key variable %s is not set", opts.APIKeyEnv)
		}
		key = v
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
		client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return &Chat{url: base + "/chat/completions", key: key, opts: opts, client: client}, nil
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

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
	Seed        int           `json:"seed"`
	MaxTokens   int           `json:"max_tokens"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

// maxChatReply caps how much of a reply body is read.
const maxChatReply = 4 << 20

// Reply sends prompt as one user message and returns the first choice's
// text with the tokens it used. 429, 5xx and network errors are returned
// wrapped in [proctor.TransientError] (with the server's Retry-After, in
// seconds, when it gave one).
func (c *Chat) Reply(ctx context.Context, prompt string) (proctor.JudgeReply, error) {
	body, err := json.Marshal(chatRequest{
		Model:       c.opts.Model,
		Messages:    []chatMessage{{Role: "user", Content: prompt}},
		Temperature: 0,
		Seed:        c.opts.Seed,
		MaxTokens:   c.opts.MaxTokens,
	})
	if err != nil {
		return proctor.JudgeReply{}, fmt.Errorf("openai: chat: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return proctor.JudgeReply{}, fmt.Errorf("openai: chat: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		err = fmt.Errorf("openai: chat: %w", err)
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return proctor.JudgeReply{}, err
		}
		return proctor.JudgeReply{}, &proctor.TransientError{Err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxChatReply))
	if err != nil {
		return proctor.JudgeReply{}, &proctor.TransientError{Err: fmt.Errorf("openai: chat: reading reply: %w", err)}
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("openai: chat: %s: %s", resp.Status, chatClip(raw))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return proctor.JudgeReply{}, &proctor.TransientError{Err: err, RetryAfter: chatRetryAfter(resp.Header.Get("Retry-After"))}
		}
		return proctor.JudgeReply{}, err
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		return proctor.JudgeReply{}, fmt.Errorf("openai: chat: reply is not JSON: %w", err)
	}
	if len(cr.Choices) == 0 || cr.Choices[0].Message.Content == nil {
		return proctor.JudgeReply{}, errors.New("openai: chat: reply has no message content")
	}
	u := cr.Usage
	tokens := u.TotalTokens
	if tokens == 0 {
		tokens = u.PromptTokens + u.CompletionTokens
	}
	cost := (float64(u.PromptTokens)*c.opts.InputPerMTok + float64(u.CompletionTokens)*c.opts.OutputPerMTok) / 1e6
	return proctor.JudgeReply{Text: *cr.Choices[0].Message.Content, Tokens: tokens, CostUSD: cost}, nil
}

func chatRetryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

func chatClip(b []byte) string {
	const n = 200
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
