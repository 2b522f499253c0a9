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
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
)

// StatusError is a reply an endpoint gave with a status outside 2xx, after
// any retries. A 429 or a 5xx comes wrapped in a [proctor.TransientError]
// (find it with errors.As).
type StatusError struct {
	// API is the endpoint's name: "chat" or "embeddings".
	API        string
	StatusCode int
	// Body is the start of the reply, for people.
	Body string
}

// Error reads "openai: API: HTTP 400: BODY".
func (e *StatusError) Error() string {
	return fmt.Sprintf("openai: %s: HTTP %d: %s", e.API, e.StatusCode, e.Body)
}

// HTTPStatus returns the reply's status, by which a [proctor.JudgePool]
// stops a run on a key or model no retry can fix (see
// [proctor.HTTPStatusError]).
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// EmbeddingsError is the [StatusError] an [Embedder] returns.
//
// Deprecated: use StatusError, which chat replies share.
type EmbeddingsError = StatusError

// errorBodyClip is how much of an error reply a StatusError keeps.
const errorBodyClip = 300

// endpoint is one OpenAI-compatible POST endpoint, the HTTP half that
// [Chat] and [Embedder] share: bearer key, per-attempt timeout, a cap on the
// reply, 429/5xx/transport errors marked transient and, when retries > 0,
// retried with full-jitter backoff or the server's Retry-After.
type endpoint struct {
	api     string // "chat" or "embeddings", for errors
	url     string
	key     string // "" sends no Authorization header
	client  *http.Client
	timeout time.Duration // per attempt
	maxBody int64         // longest 2xx reply read
	retries int           // extra attempts after a transient failure
	base    time.Duration // first backoff; doubled each retry, capped at 30s
}

// noRedirects is the default client: a POST is never replayed elsewhere.
func noRedirects() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// post sends body as JSON and unmarshals a 2xx reply into v, returning the
// status. A transport error, a 429 or a 5xx is retried up to e.retries
// times and, if it remains, returned wrapped in a [proctor.TransientError]
// (with the server's Retry-After) unless ctx itself ended. A status outside
// 2xx is a *[StatusError]; a reply over e.maxBody or not JSON is a plain
// error.
func (e *endpoint) post(ctx context.Context, body []byte, v any) (int, error) {
	for attempt := 0; ; attempt++ {
		status, err := e.try(ctx, body, v)
		var te *proctor.TransientError
		if err == nil || ctx.Err() != nil || !errors.As(err, &te) || attempt >= e.retries {
			return status, err
		}
		wait := te.RetryAfter
		if wait == 0 {
			wait = e.backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return status, fmt.Errorf("openai: %s: %w (after %v)", e.api, ctx.Err(), err)
		case <-t.C:
		}
	}
}

// backoff is the full-jitter exponential delay before retry attempt+1.
func (e *endpoint) backoff(attempt int) time.Duration {
	d := min(e.base<<min(attempt, 16), 30*time.Second)
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

// try makes one request.
func (e *endpoint) try(ctx context.Context, body []byte, v any) (int, error) {
	actx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("openai: %s: %w", e.api, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, e.transient(ctx, fmt.Errorf("openai: %s: %w", e.api, err), 0, 0)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 4*errorBodyClip))
		err := &StatusError{API: e.api, StatusCode: resp.StatusCode, Body: clip(snippet, errorBodyClip)}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return resp.StatusCode, e.transient(ctx, err, retryAfter(resp.Header.Get("Retry-After")), resp.StatusCode)
		}
		return resp.StatusCode, err
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, e.maxBody+1))
	if err != nil {
		return resp.StatusCode, e.transient(ctx, fmt.Errorf("openai: %s: reading the reply: %w", e.api, err), 0, 0)
	}
	if int64(len(raw)) > e.maxBody {
		return resp.StatusCode, fmt.Errorf("openai: %s: reply larger than %d bytes", e.api, e.maxBody)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return resp.StatusCode, fmt.Errorf("openai: %s: reply is not JSON: %w", e.api, err)
	}
	return resp.StatusCode, nil
}

// transient marks err as worth retrying unless the caller's ctx has ended
// (then the error is the caller's own doing), with the server's Retry-After
// and the reply's status (0 without a reply), by which a judge pool tells
// an overloaded endpoint (429, 503) from a failed call.
func (e *endpoint) transient(ctx context.Context, err error, after time.Duration, status int) error {
	if ctx.Err() != nil {
		return err
	}
	return &proctor.TransientError{Err: err, RetryAfter: after, StatusCode: status}
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), capped
// at a minute; 0 when absent or unreadable.
func retryAfter(h string) time.Duration {
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

// clip returns b trimmed, as valid UTF-8, cut to at most n bytes on a rune
// boundary with "…" when cut.
func clip(b []byte, n int) string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(b, []byte("?"))))
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
