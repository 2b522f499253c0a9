package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// chatServer answers chat completions with status and body, recording the
// last request.
func chatServer(t *testing.T, status int, body string, got *chatRequest, auth *string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		if got != nil {
			json.NewDecoder(r.Body).Decode(got)
		}
		if auth != nil {
			*auth = r.Header.Get("Authorization")
		}
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

const okBody = `{"choices":[{"message":{"role":"assistant","content":"{\"verdict\":\"pass\"}"}}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`

func TestChatReply(t *testing.T) {
	var req chatRequest
	var auth string
	srv := chatServer(t, 200, okBody, &req, &auth)
	t.Setenv("TEST_JUDGE_KEY", "k-123")
	c, err := NewChat(ChatOptions{BaseURL: srv.URL + "/v1/", Model: "m1", APIKeyEnv: "TEST_JUDGE_KEY", InputPerMTok: 2, OutputPerMTok: 8})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Reply(context.Background(), "the prompt")
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != `{"verdict":"pass"}` || r.Tokens != 120 {
		t.Errorf("got %+v, want the content and 120 tokens", r)
	}
	if want := (100*2 + 20*8) / 1e6; r.CostUSD != want {
		t.Errorf("cost %v, want %v", r.CostUSD, want)
	}
	if req.Model != "m1" || req.Temperature != 0 || req.Seed != 7 || len(req.Messages) != 1 || req.Messages[0].Content != "the prompt" {
		t.Errorf("request %+v: want model m1, temperature 0, seed 7, the prompt as one message", req)
	}
	if auth != "Bearer k-123" {
		t.Errorf("Authorization %q, want the key from the named variable", auth)
	}
}

func TestChatErrors(t *testing.T) {
	tests := []struct {
		status    int
		body      string
		transient bool
		why       string
	}{
		{500, `{"error":{"message":"upstream"}}`, true, "5xx is transient"},
		{503, ``, true, "5xx is transient"},
		{429, `{"error":{"message":"slow down"}}`, true, "rate limits are transient"},
		{400, `{"error":{"message":"bad"}}`, false, "a bad request is not retried"},
		{401, `{"error":{"message":"key"}}`, false, "a bad key is not retried"},
		{200, `{"choices":[]}`, false, "no choices"},
		{200, `not json`, false, "not JSON"},
	}
	for _, tt := range tests {
		srv := chatServer(t, tt.status, tt.body, nil, nil)
		c, err := NewChat(ChatOptions{BaseURL: srv.URL + "/v1", Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Reply(context.Background(), "p")
		if err == nil || proctor.IsTransient(err) != tt.transient {
			t.Errorf("%d %s: err %v transient=%v, want transient=%v (%s)", tt.status, tt.body, err, proctor.IsTransient(err), tt.transient, tt.why)
		}
		var te *proctor.TransientError
		if tt.status == 429 && (!errors.As(err, &te) || te.RetryAfter.Seconds() != 2) {
			t.Errorf("429: want RetryAfter 2s from the header, got %v", err)
		}
	}
}

func TestNewChatErrors(t *testing.T) {
	tests := []struct {
		opts ChatOptions
		want string
	}{
		{ChatOptions{BaseURL: "http://127.0.0.1"}, "model"},
		{ChatOptions{BaseURL: "ftp://x", Model: "m"}, "base URL"},
		{ChatOptions{BaseURL: "http://127.0.0.1", Model: "m", APIKeyEnv: "PROCTOR_TEST_UNSET_KEY"}, "not set"},
	}
	for _, tt := range tests {
		if _, err := NewChat(tt.opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewChat(%+v) = %v, want an error about %s", tt.opts, err, tt.want)
		}
	}
}

func TestChatAsPoolJudge(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			w.WriteHeader(502)
			return
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"{\"criterion\":\"x\",\"violations\":\"none\",\"basis\":\"answer\",\"verdict\":\"pass\",\"confidence\":\"high\"}"}}],"usage":{"total_tokens":50}}`))
	}))
	defer srv.Close()
	c, err := NewChat(ChatOptions{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	p := proctor.NewJudgePool(c.JudgeModel("j1", "fam-a"))
	g := proctor.NewLLMJudge("r", proctor.JudgeOptions{}, p, proctor.WithJudgeRetry(proctor.JudgeRetry{Base: 1}))
	gr := g.Grade(context.Background(), &proctor.Sample{Output: "Paris", Model: proctor.Model{Family: "fam-z"}})
	if gr.Status != proctor.StatusPassed {
		t.Errorf("got %v (%s), want passed after one retry", gr.Status, gr.Reason)
	}
	st := p.Stats()[0]
	if st.Calls != 2 || st.Retries != 1 || st.Tokens != 50 {
		t.Errorf("stats %+v, want 2 calls, 1 retry, 50 tokens", st)
	}
}
