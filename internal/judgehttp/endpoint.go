// Package judgehttp is the HTTP half the vendor judge clients share
// (judges/openai, judges/anthropic): one JSON POST endpoint with a
// per-attempt timeout, a cap on the reply, 429/5xx/transport errors marked
// as [proctor.TransientError], optional retries with full-jitter backoff or
// the server's Retry-After, a typed *[StatusError] for a status outside
// 2xx, and a [Learner] that finds out, once per judge and race-safely,
// which optional request parameters an endpoint refuses.
package judgehttp

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

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

// Endpoint is one JSON POST endpoint. The zero Retries makes one attempt:
// judges leave retrying to proctor's judge pool.
type Endpoint struct {
	Vendor  string // "openai", "anthropic": the prefix of errors
	API     string // "chat", "messages", "embeddings": for errors
	URL     string
	Header  http.Header   // set on every request, Content-Type included by Post
	Client  *http.Client  // nil means NoRedirects()
	Timeout time.Duration // per attempt
	MaxBody int64         // longest 2xx reply read
	Retries int           // extra attempts after a transient failure
	Base    time.Duration // first backoff; doubled each retry, capped at 30s
}

// errorBodyClip is how much of an error reply a StatusError keeps.
const errorBodyClip = 300

// NoRedirects is the default client: a POST is never replayed elsewhere.
func NoRedirects() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Post sends body as JSON and unmarshals a 2xx reply into v, returning the
// status and the requests made (1 plus the retries). A transport error, a
// 429 or a 5xx is retried up to e.Retries times and, if it remains,
// returned wrapped in a [proctor.TransientError] (with the server's
// Retry-After) unless ctx itself ended. A status outside 2xx is a
// *[StatusError]; a reply over e.MaxBody or not JSON is a plain error.
func (e *Endpoint) Post(ctx context.Context, body []byte, v any) (status, requests int, err error) {
	for attempt := 0; ; attempt++ {
		status, err := e.try(ctx, body, v)
		var te *proctor.TransientError
		if err == nil || ctx.Err() != nil || !errors.As(err, &te) || attempt >= e.Retries {
			return status, attempt + 1, err
		}
		wait := te.RetryAfter
		if wait == 0 {
			wait = e.backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return status, attempt + 1, fmt.Errorf("%s: %s: %w (after %v)", e.Vendor, e.API, ctx.Err(), err)
		case <-t.C:
		}
	}
}

// backoff is the full-jitter exponential delay before retry attempt+1.
func (e *Endpoint) backoff(attempt int) time.Duration {
	d := min(max(e.Base, time.Millisecond)<<min(attempt, 16), 30*time.Second)
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

// try makes one request.
func (e *Endpoint) try(ctx context.Context, body []byte, v any) (int, error) {
	actx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %w", e.Vendor, e.API, err)
	}
	for k, vs := range e.Header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	client := e.Client
	if client == nil {
		client = NoRedirects()
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, transient(ctx, fmt.Errorf("%s: %s: %w", e.Vendor, e.API, err), 0, 0)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 4*errorBodyClip))
		err := newStatusError(e.Vendor, e.API, resp.StatusCode, snippet)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return resp.StatusCode, transient(ctx, err, RetryAfter(resp.Header.Get("Retry-After")), resp.StatusCode)
		}
		return resp.StatusCode, err
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, e.MaxBody+1))
	if err != nil {
		return resp.StatusCode, transient(ctx, fmt.Errorf("%s: %s: reading the reply: %w", e.Vendor, e.API, err), 0, 0)
	}
	if int64(len(raw)) > e.MaxBody {
		return resp.StatusCode, fmt.Errorf("%s: %s: reply larger than %d bytes", e.Vendor, e.API, e.MaxBody)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return resp.StatusCode, fmt.Errorf("%s: %s: reply is not JSON: %w", e.Vendor, e.API, err)
	}
	return resp.StatusCode, nil
}

// transient marks err as worth retrying unless the caller's ctx has ended
// (then the error is the caller's own doing), with the server's Retry-After
// and the reply's status (0 without a reply), by which a judge pool tells
// an overloaded endpoint (429, 503, 529) from a failed call.
func transient(ctx context.Context, err error, after time.Duration, status int) error {
	if ctx.Err() != nil {
		return err
	}
	return &proctor.TransientError{Err: err, RetryAfter: after, StatusCode: status}
}

// RetryAfter reads a Retry-After header (seconds or an HTTP date), capped
// at a minute; 0 when absent or unreadable.
func RetryAfter(h string) time.Duration {
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

// Clip returns b trimmed, as valid UTF-8, cut to at most n bytes on a rune
// boundary with "…" when cut.
func Clip(b []byte, n int) string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(b, []byte("?"))))
	if c, cut := kit.CutBytes(s, n); cut {
		return c + "…"
	}
	return s
}
