package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// EmbedderConfig configures [NewEmbedder]. Only Model is required.
type EmbedderConfig struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1 (the
	// default); the request goes to BaseURL + "/embeddings".
	BaseURL string
	// Model names the embedding model, e.g. text-embedding-3-small.
	Model string
	// APIKeyEnv names the environment variable holding the API key, read
	// once by NewEmbedder. Empty means no Authorization header (local
	// servers).
	APIKeyEnv string
	// Dimensions, when positive, asks the model for vectors of that size.
	Dimensions int
	// Timeout bounds each HTTP attempt; default 30s.
	Timeout time.Duration
	// MaxRetries is how many times a 429, a 5xx or a transport error is
	// retried; default 3, negative means none.
	MaxRetries int
	// RetryBaseDelay is the first backoff, doubled each retry with full
	// jitter and capped at 30s; default 500ms. A Retry-After header is
	// honoured instead, up to 60s.
	RetryBaseDelay time.Duration
	// BatchSize is the most texts sent in one request (reported by
	// MaxBatch); default 256.
	BatchSize int
	// HTTPClient sends the requests; default a client with no timeout of
	// its own (Timeout applies per attempt).
	HTTPClient *http.Client
}

// Embedder is an embeddings client for OpenAI-compatible HTTP endpoints
// (POST {base}/embeddings). It satisfies proctor.EmbeddingProvider and
// proctor.BatchEmbedder and is safe for concurrent use.
type Embedder struct {
	url, model, key string
	dims            int
	timeout, base   time.Duration
	retries, batch  int
	client          *http.Client
}

// EmbeddingsError is a reply the endpoint gave with a status other than
// 200, after any retries.
type EmbeddingsError struct {
	StatusCode int
	// Body is the start of the reply, for people.
	Body string
}

// Error reads "openai: embeddings: HTTP 400: BODY".
func (e *EmbeddingsError) Error() string {
	return fmt.Sprintf("openai: embeddings: HTTP %d: %s", e.StatusCode, e.Body)
}

// NewEmbedder returns an Embedder. It returns an error when Model is empty
// or APIKeyEnv names a variable that is unset or empty.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	if cfg.Model == "" {
		return nil, errors.New("openai: embeddings: Model is required")
	}
	e := &Embedder{
		url:     strings.TrimRight(embedOr(cfg.BaseURL, "https://api.openai.com/v1"), "/") + "/embeddings",
		model:   cfg.Model,
		dims:    cfg.Dimensions,
		timeout: cfg.Timeout,
		base:    cfg.RetryBaseDelay,
		retries: cfg.MaxRetries,
		batch:   cfg.BatchSize,
		client:  cfg.HTTPClient,
	}
	if cfg.APIKeyEnv != "" {
		e.key = os.Getenv(cfg.APIKeyEnv)
		if e.key == "" {
			return nil, fmt.Errorf("openai: embeddings: environment variable %s is unset or empty", cfg.APIKeyEnv)
		}
	}
	if e.timeout <= 0 {
		e.timeout = 30 * time.Second
	}
	if e.base <= 0 {
		e.base = 500 * time.Millisecond
	}
	if e.retries == 0 {
		e.retries = 3
	}
	e.retries = max(e.retries, 0)
	if e.batch <= 0 {
		e.batch = 256
	}
	if e.client == nil {
		e.client = &http.Client{}
	}
	return e, nil
}

func embedOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// MaxBatch returns the most texts Embed sends per request.
func (e *Embedder) MaxBatch() int { return e.batch }

type embeddingsRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type embeddingsReply struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed returns one vector per text, in order, sending at most MaxBatch
// texts per request.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for i := 0; i < len(texts); i += e.batch {
		v, err := e.embedBatch(ctx, texts[i:min(i+e.batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
	}
	return out, nil
}

func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(embeddingsRequest{Model: e.model, Input: texts, EncodingFormat: "float", Dimensions: e.dims})
	if err != nil {
		return nil, fmt.Errorf("openai: embeddings: %w", err)
	}
	for attempt := 0; ; attempt++ {
		vecs, wait, err := e.try(ctx, body, len(texts))
		if err == nil {
			return vecs, nil
		}
		if wait < 0 || attempt >= e.retries || ctx.Err() != nil {
			return nil, err
		}
		if wait == 0 {
			wait = e.backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("openai: embeddings: %w (after %v)", ctx.Err(), err)
		case <-t.C:
		}
	}
}

// backoff is the full-jitter exponential delay before retry attempt+1.
func (e *Embedder) backoff(attempt int) time.Duration {
	d := e.base << min(attempt, 16)
	d = min(d, 30*time.Second)
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

// try makes one request. wait < 0 means the error is final; wait > 0 is
// the server's Retry-After; 0 means retry with backoff.
func (e *Embedder) try(ctx context.Context, body []byte, n int) ([][]float32, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return nil, -1, fmt.Errorf("openai: embeddings: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("openai: embeddings: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		err := &EmbeddingsError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(snippet))}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return nil, embedRetryAfter(resp.Header.Get("Retry-After")), err
		}
		return nil, -1, err
	}
	var r embeddingsReply
	if err := json.NewDecoder(io.LimitReader(resp.Body, 256<<20)).Decode(&r); err != nil {
		return nil, -1, fmt.Errorf("openai: embeddings: reply: %w", err)
	}
	if len(r.Data) != n {
		return nil, -1, fmt.Errorf("openai: embeddings: reply has %d vectors for %d texts", len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, -1, fmt.Errorf("openai: embeddings: reply has a bad or repeated index %d", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, 0, nil
}

// embedRetryAfter reads a Retry-After header (seconds or an HTTP date), capped
// at a minute; 0 when absent or unreadable.
func embedRetryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	var d time.Duration
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = time.Until(t)
	}
	if d <= 0 {
		return 0
	}
	return min(d, time.Minute)
}
