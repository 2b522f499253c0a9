package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/proctorhq/proctor/internal/judgehttp"
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
	ep    judgehttp.Endpoint
	model string
	dims  int
	batch int
}

// maxEmbeddingsReply caps how much of an embeddings reply is read.
const maxEmbeddingsReply = 256 << 20

// NewEmbedder returns an Embedder. It returns an error when Model is empty
// or APIKeyEnv names a variable that is unset or empty.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	if cfg.Model == "" {
		return nil, errors.New("openai: embeddings: Model is required")
	}
	key := ""
	if cfg.APIKeyEnv != "" {
		key = os.Getenv(cfg.APIKeyEnv)
		if key == "" {
			return nil, fmt.Errorf("openai: embeddings: environment variable %s is unset or empty", cfg.APIKeyEnv)
		}
	}
	url, err := endpointURL("embeddings", embedOr(cfg.BaseURL, "https://api.openai.com/v1"), "/embeddings")
	if err != nil {
		return nil, err
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	e := &Embedder{
		ep:    newEndpoint("embeddings", url, key, client, cfg.Timeout, maxEmbeddingsReply),
		model: cfg.Model,
		dims:  cfg.Dimensions,
		batch: cfg.BatchSize,
	}
	e.ep.Retries, e.ep.Base = cfg.MaxRetries, cfg.RetryBaseDelay
	if e.ep.Timeout <= 0 {
		e.ep.Timeout = 30 * time.Second
	}
	if e.ep.Base <= 0 {
		e.ep.Base = 500 * time.Millisecond
	}
	if e.ep.Retries == 0 {
		e.ep.Retries = 3
	}
	e.ep.Retries = max(e.ep.Retries, 0)
	if e.batch <= 0 {
		e.batch = 256
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
	var r embeddingsReply
	if _, _, err := e.ep.Post(ctx, body, &r); err != nil {
		return nil, err
	}
	n := len(texts)
	if len(r.Data) != n {
		return nil, fmt.Errorf("openai: embeddings: reply has %d vectors for %d texts", len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("openai: embeddings: reply has a bad or repeated index %d", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
