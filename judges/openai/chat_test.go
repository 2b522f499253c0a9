package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
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
	if req.Model != "m1" || req.Temperature == nil || *req.Temperature != 0 || req.Seed == nil || *req.Seed != 7 || req.MaxTokens != DefaultMaxTokens || len(req.Messages) != 1 || req.Messages[0].Content != "the prompt" {
		t.Errorf("request %+v: want model m1, temperature 0, seed 7, max_tokens DefaultMaxTokens, the prompt as one message", req)
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
	g := proctest.Must(proctor.NewLLMJudge("r", proctor.JudgeOptions{}, p, proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Base: 1}})))
	gr := g.Grade(context.Background(), &proctor.Sample{Output: "Paris", Model: proctor.Model{Family: "fam-z"}})
	if gr.Status != proctor.StatusPassed {
		t.Errorf("got %v (%s), want passed after one retry", gr.Status, gr.Reason)
	}
	st := p.Stats()[0]
	if st.Calls != 2 || st.Retries != 1 || st.Tokens != 50 {
		t.Errorf("stats %+v, want 2 calls, 1 retry, 50 tokens", st)
	}
}

func TestChatComplete(t *testing.T) {
	temp := 0.5
	tests := []struct {
		name      string
		req       Request
		reply     string
		wantBody  string // the request as the server decoded it, re-encoded
		wantText  string
		wantCalls string // tool calls as JSON
		wantTotal int    // -1: nil
		wantCost  float64
		why       string
	}{
		{
			name:      "server defaults",
			req:       Request{Messages: []Message{{"system", "be brief"}, {"user", "hi"}}},
			reply:     `{"choices":[{"message":{"content":"hello"}}],"usage":{"prompt_tokens":1000,"completion_tokens":500}}`,
			wantBody:  `{"messages":[{"content":"be brief","role":"system"},{"content":"hi","role":"user"}],"model":"m"}`,
			wantText:  "hello",
			wantCalls: `null`,
			wantTotal: 1500,
			wantCost:  0.006,
			why:       "no seed, temperature or max_tokens unless asked; total is the sum when the reply omits it",
		},
		{
			name:      "settings and tool calls",
			req:       Request{Messages: []Message{{"user", "hi"}}, Temperature: &temp, MaxTokens: 9},
			reply:     `{"choices":[{"message":{"content":null,"tool_calls":[{"function":{"name":"f","arguments":"{\"a\":1}"}},{"function":{"name":"g","arguments":"not json"}}]}}]}`,
			wantBody:  `{"max_tokens":9,"messages":[{"content":"hi","role":"user"}],"model":"m","temperature":0.5}`,
			wantText:  "",
			wantCalls: `[{"name":"f","arguments":{"a":1}},{"name":"g","arguments":"not json"}]`,
			wantTotal: -1,
			why:       "a tool-only reply is a completion; arguments that are not JSON are kept as a string; no usage, no cost",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				json.NewDecoder(r.Body).Decode(&got)
				w.Write([]byte(tt.reply))
			}))
			defer srv.Close()
			c, err := NewChat(ChatOptions{BaseURL: srv.URL, Model: "m", InputPerMTok: 2, OutputPerMTok: 8})
			if err != nil {
				t.Fatal(err)
			}
			comp, err := c.Complete(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(got); string(b) != tt.wantBody {
				t.Errorf("request body: got %s, want %s (%s)", b, tt.wantBody, tt.why)
			}
			calls, _ := json.Marshal(comp.ToolCalls)
			if comp.Text != tt.wantText || string(calls) != tt.wantCalls || comp.Status != 200 {
				t.Errorf("got text %q, calls %s, status %d; want %q, %s, 200 (%s)", comp.Text, calls, comp.Status, tt.wantText, tt.wantCalls, tt.why)
			}
			total := -1
			if comp.TotalTokens != nil {
				total = *comp.TotalTokens
			}
			if total != tt.wantTotal || comp.CostUSD != tt.wantCost {
				t.Errorf("got total %d, cost %v; want %d, %v (%s)", total, comp.CostUSD, tt.wantTotal, tt.wantCost, tt.why)
			}
		})
	}
}

func TestChatStatusError(t *testing.T) {
	srv := chatServer(t, 400, "  "+strings.Repeat("é", 400), nil, nil)
	c, err := NewChat(ChatOptions{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), Request{Messages: []Message{{"user", "p"}}})
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 400 || se.API != "chat" {
		t.Fatalf("got %v, want a *StatusError for HTTP 400", err)
	}
	if !strings.HasPrefix(se.Body, "é") || !strings.HasSuffix(se.Body, "…") || len(se.Body) > 300+len("…") || !utf8.ValidString(se.Body) {
		t.Errorf("body %q: want the trimmed start of the reply, cut on a rune boundary", se.Body)
	}
}
