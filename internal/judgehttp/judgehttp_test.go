package judgehttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

func TestEndpointCapsReply(t *testing.T) {
	tests := []struct {
		name, body string
		wantErr    string
	}{
		{"at the cap", `"12345678"`, ""},
		{"over the cap", `"123456789"`, "larger than 10 bytes"},
		{"not JSON", `"1234`, "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(tt.body)) }))
			defer srv.Close()
			ep := Endpoint{Vendor: "v", API: "x", URL: srv.URL, Client: srv.Client(), Timeout: time.Second, MaxBody: 10}
			var v string
			_, n, err := ep.Post(context.Background(), []byte(`{}`), &v)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("got %v, want error %q", err, tt.wantErr)
			}
			if n != 1 {
				t.Errorf("got %d requests, want 1", n)
			}
		})
	}
}

// Post counts every attempt it makes, retries included, and sends the
// endpoint's headers.
func TestEndpointCountsRetries(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Key") != "k" {
			t.Errorf("X-Key %q, want the endpoint's header", r.Header.Get("X-Key"))
		}
		if hits.Add(1) < 3 {
			w.WriteHeader(529)
			w.Write([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	ep := Endpoint{Vendor: "v", API: "x", URL: srv.URL, Header: http.Header{"X-Key": {"k"}}, Timeout: time.Second, MaxBody: 100, Retries: 3, Base: time.Millisecond}
	var v struct{}
	status, n, err := ep.Post(context.Background(), []byte(`{}`), &v)
	if err != nil || status != 200 || n != 3 {
		t.Errorf("got status %d, %d requests, %v; want 200 after 3 requests", status, n, err)
	}
}

func TestStatusErrorReadsVendorBodies(t *testing.T) {
	tests := []struct {
		name, body                 string
		status                     int
		msg, typ, param, code      string
		refuses                    string // a parameter it refuses
		notFound, transientOverall bool
	}{
		{name: "openai max_tokens", status: 400,
			body: `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`,
			msg:  "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
			typ:  "invalid_request_error", param: "max_tokens", code: "unsupported_parameter", refuses: "max_tokens"},
		{name: "openai temperature", status: 400,
			body: `{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`,
			msg:  "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
			typ:  "invalid_request_error", param: "temperature", code: "unsupported_value", refuses: "temperature"},
		{name: "proxy without param", status: 400,
			body: `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model.","code":"invalid_request_body"}}`,
			msg:  "Unsupported parameter: 'max_tokens' is not supported with this model.", code: "invalid_request_body", refuses: "max_tokens"},
		{name: "openai model not found", status: 404,
			body: `{"error":{"message":"The model 'gpt-4.2' does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
			msg:  "The model 'gpt-4.2' does not exist or you do not have access to it.", typ: "invalid_request_error", code: "model_not_found", notFound: true},
		{name: "anthropic model not found", status: 404,
			body: `{"type":"error","error":{"type":"not_found_error","message":"model: claude-sonet-4"},"request_id":"req_1"}`,
			msg:  "model: claude-sonet-4", typ: "not_found_error", notFound: true},
		{name: "compatible server 400 model", status: 400,
			body: `{"error":"model 'llama9' not found"}`, msg: "model 'llama9' not found", notFound: true},
		{name: "too large is not a refusal", status: 400,
			body: `{"error":{"message":"max_tokens is too large: 99999. This model supports at most 16384 completion tokens.","type":"invalid_request_error","param":"max_tokens","code":"invalid_value"}}`,
			msg:  "max_tokens is too large: 99999. This model supports at most 16384 completion tokens.", typ: "invalid_request_error", param: "max_tokens", code: "invalid_value"},
		{name: "not JSON", status: 502, body: `<html>bad gateway</html>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newStatusError("v", "x", tt.status, []byte(tt.body))
			if e.Message != tt.msg || e.Type != tt.typ || e.Param != tt.param || e.Code != tt.code {
				t.Errorf("got message %q type %q param %q code %q; want %q %q %q %q", e.Message, e.Type, e.Param, e.Code, tt.msg, tt.typ, tt.param, tt.code)
			}
			for _, p := range []string{"max_tokens", "temperature", "seed"} {
				if got := e.Refuses(p); got != (p == tt.refuses) {
					t.Errorf("Refuses(%q) = %v, want %v", p, got, p == tt.refuses)
				}
			}
			if e.ModelNotFound() != tt.notFound {
				t.Errorf("ModelNotFound() = %v, want %v", e.ModelNotFound(), tt.notFound)
			}
			if e.HTTPStatus() != tt.status {
				t.Errorf("HTTPStatus() = %d, want %d", e.HTTPStatus(), tt.status)
			}
		})
	}
}

var errRefused = errors.New("refused")

// Under concurrency, one request at most gets the 400 of a parameter the
// endpoint refuses; every later request leaves it out.
func TestLearnerOneRefusalUnderConcurrency(t *testing.T) {
	const a, b Param = 1, 2
	var l Learner
	var refusals, sent atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			n, err := l.Do(context.Background(), a|b, func(omit Param) error {
				sent.Add(1)
				time.Sleep(time.Millisecond)
				if omit&a == 0 {
					refusals.Add(1)
					return errRefused
				}
				return nil
			}, func(err error) Param {
				if errors.Is(err, errRefused) {
					return a
				}
				return 0
			})
			if err != nil || n < 1 || n > 2 {
				t.Errorf("Do: %d requests, %v; want 1 or 2 and no error", n, err)
			}
		})
	}
	wg.Wait()
	if refusals.Load() != 1 || sent.Load() != 51 {
		t.Errorf("%d refusals in %d requests, want 1 in 51", refusals.Load(), sent.Load())
	}
	if l.Refused() != a {
		t.Errorf("Refused() = %b, want %b", l.Refused(), a)
	}
}

// A failure that is no refusal leaves the parameter unsettled: the next
// request probes again; a waiting request gives up with its context.
func TestLearnerOtherErrorsAndCancel(t *testing.T) {
	var l Learner
	boom := &proctor.TransientError{Err: errors.New("503")}
	none := func(error) Param { return 0 }
	if n, err := l.Do(context.Background(), 1, func(Param) error { return boom }, none); n != 1 || !errors.Is(err, boom) {
		t.Fatalf("got %d, %v; want the error after 1 request", n, err)
	}
	hold := make(chan struct{})
	go l.Do(context.Background(), 1, func(Param) error { <-hold; return nil }, none)
	time.Sleep(10 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if n, err := l.Do(ctx, 1, func(Param) error { return nil }, none); n != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting behind a probe: got %d, %v; want 0 requests and the deadline", n, err)
	}
	close(hold)
}

func TestRetryAfter(t *testing.T) {
	for h, want := range map[string]time.Duration{"": 0, "2": 2 * time.Second, "600": time.Minute, "soon": 0, "-1": 0} {
		if got := RetryAfter(h); got != want {
			t.Errorf("RetryAfter(%q) = %v, want %v", h, got, want)
		}
	}
}

func FuzzStatusError(f *testing.F) {
	f.Add(400, `{"error":{"message":"Unsupported parameter: 'max_tokens'","param":"max_tokens","code":"unsupported_parameter"}}`)
	f.Add(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	f.Add(404, `{"error":"model not found"}`)
	f.Add(400, `{"error":{"code":12,"param":[1]}}`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		e := newStatusError("v", "x", status, []byte(body))
		if len(e.Body) > errorBodyClip+len("…") {
			t.Errorf("body kept %d bytes, want at most %d", len(e.Body), errorBodyClip)
		}
		_ = e.Refuses("max_tokens") || e.ModelNotFound() || e.Mentions("response_format")
		if status != 400 && e.Refuses("max_tokens") {
			t.Errorf("status %d read as a refusal", status)
		}
	})
}
