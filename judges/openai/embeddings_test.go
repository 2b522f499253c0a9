package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// embedServer answers like OpenAI's embeddings endpoint: vector i of a
// request is [len(text_i), i], returned in reverse order to check that
// Embed orders by index. fail holds the statuses of the first replies.
func embedServer(t *testing.T, fail []int, retryAfter string) (*httptest.Server, *atomic.Int32, *[]int) {
	t.Helper()
	var calls atomic.Int32
	var sizes []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1)) - 1
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.Error(w, "bad path", http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
			http.Error(w, "bad key "+got, http.StatusUnauthorized)
			return
		}
		if n < len(fail) {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			http.Error(w, "try later", fail[n])
			return
		}
		var req embeddingsRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m" || req.EncodingFormat != "float" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		sizes = append(sizes, len(req.Input))
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			data = append(data, item{i, []float32{float32(len(req.Input[i])), float32(i)}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls, &sizes
}

func newTestEmbedder(t *testing.T, url string, cfg EmbedderConfig) *Embedder {
	t.Helper()
	t.Setenv("PROCTOR_TEST_KEY", "sk-test")
	cfg.BaseURL, cfg.Model, cfg.APIKeyEnv = url+"/v1/", "m", "PROCTOR_TEST_KEY"
	if cfg.RetryBaseDelay == 0 {
		cfg.RetryBaseDelay = time.Millisecond
	}
	e, err := NewEmbedder(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEmbedBatchesAndOrders(t *testing.T) {
	srv, calls, sizes := embedServer(t, nil, "")
	e := newTestEmbedder(t, srv.URL, EmbedderConfig{BatchSize: 2})
	got, err := e.Embed(t.Context(), []string{"a", "bb", "ccc"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{1, 0}, {2, 1}, {3, 0}}
	for i := range want {
		if len(got[i]) != 2 || got[i][0] != want[i][0] || got[i][1] != want[i][1] {
			t.Errorf("vector %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if calls.Load() != 2 || len(*sizes) != 2 || (*sizes)[0] != 2 || (*sizes)[1] != 1 {
		t.Errorf("got %d calls of sizes %v, want 2 calls of sizes [2 1]", calls.Load(), *sizes)
	}
	if e.MaxBatch() != 2 {
		t.Errorf("MaxBatch: got %d, want 2", e.MaxBatch())
	}
}

func TestEmbedRetries(t *testing.T) {
	tests := []struct {
		name       string
		fail       []int
		retryAfter string
		retries    int
		wantCalls  int32
		wantStatus int // 0: success
	}{
		{"429 then success", []int{429}, "", 3, 2, 0},
		{"5xx twice then success, Retry-After honoured", []int{503, 500}, "0", 3, 3, 0},
		{"retries exhausted", []int{502, 502, 502}, "", 2, 3, 502},
		{"400 is not retried", []int{400}, "", 3, 1, 400},
		{"401 is not retried", []int{401}, "", 3, 1, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, calls, _ := embedServer(t, tt.fail, tt.retryAfter)
			e := newTestEmbedder(t, srv.URL, EmbedderConfig{MaxRetries: tt.retries})
			_, err := e.Embed(t.Context(), []string{"x"})
			if calls.Load() != tt.wantCalls {
				t.Errorf("calls: got %d, want %d", calls.Load(), tt.wantCalls)
			}
			var ee *EmbeddingsError
			switch {
			case tt.wantStatus == 0 && err != nil:
				t.Errorf("got error %v, want success", err)
			case tt.wantStatus != 0 && (!errors.As(err, &ee) || ee.StatusCode != tt.wantStatus):
				t.Errorf("got error %v, want HTTP %d", err, tt.wantStatus)
			}
		})
	}
}

func TestEmbedRetryAfterWaitsAndCancels(t *testing.T) {
	srv, calls, _ := embedServer(t, []int{429, 429}, "30")
	e := newTestEmbedder(t, srv.URL, EmbedderConfig{})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want context.DeadlineExceeded while waiting out Retry-After", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Embed returned after %v, want soon after the deadline", d)
	}
	if calls.Load() != 1 {
		t.Errorf("calls: got %d, want 1", calls.Load())
	}
}

func TestEmbedTimeout(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	e := newTestEmbedder(t, srv.URL, EmbedderConfig{Timeout: 20 * time.Millisecond, MaxRetries: -1})
	if _, err := e.Embed(t.Context(), []string{"x"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline error", err)
	}
}

func TestNewEmbedderErrors(t *testing.T) {
	if _, err := NewEmbedder(EmbedderConfig{}); err == nil {
		t.Error("no model: got nil error")
	}
	t.Setenv("PROCTOR_EMPTY_KEY", "")
	if _, err := NewEmbedder(EmbedderConfig{Model: "m", APIKeyEnv: "PROCTOR_EMPTY_KEY"}); err == nil {
		t.Error("empty key variable: got nil error")
	}
	if e, err := NewEmbedder(EmbedderConfig{Model: "m"}); err != nil || e.ep.Header.Get("Authorization") != "" {
		t.Errorf("no key variable: got %v, %v; want no key and no error", e, err)
	}
}

func TestEmbedBadReplies(t *testing.T) {
	for _, body := range []string{`{"data": []}`, `{"data": [{"index": 5, "embedding": [1]}]}`, `not json`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(body))
		}))
		e := newTestEmbedder(t, srv.URL, EmbedderConfig{})
		e.ep.Header.Del("Authorization")
		if _, err := e.Embed(t.Context(), []string{"x"}); err == nil {
			t.Errorf("reply %s: got nil error", body)
		}
		srv.Close()
	}
}
