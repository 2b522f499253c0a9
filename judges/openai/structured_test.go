package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/judgehttp"
	"github.com/proctorhq/proctor/internal/proctest"
)

const judgeReplyBody = `{"choices":[{"message":{"content":"{\"criterion\":\"x\",\"violations\":\"none\",\"basis\":\"answer\",\"verdict\":\"pass\",\"confidence\":\"high\"}"}}]}`

// formatServer is a chat endpoint that records the response_format of each
// request and, when refuse is set, answers a request carrying one with the
// 400 OpenAI-compatible servers give for an unsupported parameter.
type formatServer struct {
	mu      sync.Mutex
	formats []json.RawMessage // nil entries: no response_format
	srv     *httptest.Server
}

func newFormatServer(t *testing.T, refuse bool) *formatServer {
	fs := &formatServer{}
	fs.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ResponseFormat json.RawMessage `json:"response_format"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		fs.mu.Lock()
		fs.formats = append(fs.formats, req.ResponseFormat)
		fs.mu.Unlock()
		if refuse && req.ResponseFormat != nil {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error","param":"response_format"}}`))
			return
		}
		w.Write([]byte(judgeReplyBody))
	}))
	t.Cleanup(fs.srv.Close)
	return fs
}

func (fs *formatServer) requests() []json.RawMessage {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return slices.Clone(fs.formats)
}

// grade asks c, as the only judge, about a distinct output each call.
func grade(t *testing.T, c *Chat, output string) proctor.Grade {
	t.Helper()
	p := proctor.NewJudgePool(c.JudgeModel("j1", "fam-a"))
	return proctest.Must(proctor.NewLLMJudge("names the capital", proctor.JudgeOptions{}, p, proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 1}}))).
		Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: output, Model: proctor.Model{Family: "fam-z"}})
}

func TestReplyAsksForJSONSchema(t *testing.T) {
	fs := newFormatServer(t, false)
	c, err := NewChat(ChatOptions{BaseURL: fs.srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if g := grade(t, c, "Paris"); g.Status != proctor.StatusPassed {
		t.Fatalf("got %v (%s), want passed", g.Status, g.Reason)
	}
	reqs := fs.requests()
	if len(reqs) != 1 || reqs[0] == nil {
		t.Fatalf("requests %s: want one with a response_format", reqs)
	}
	var rf struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
			Schema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
				Additional *bool                      `json:"additionalProperties"`
			} `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(reqs[0], &rf); err != nil {
		t.Fatal(err)
	}
	s := rf.JSONSchema.Schema
	want := []string{"criterion", "violations", "basis", "verdict", "confidence"}
	if rf.Type != "json_schema" || !rf.JSONSchema.Strict || rf.JSONSchema.Name == "" || s.Type != "object" ||
		!slices.Equal(s.Required, want) || len(s.Properties) != len(want) || s.Additional == nil || *s.Additional {
		t.Errorf("response_format %s: want a strict json_schema object requiring %v and nothing else", reqs[0], want)
	}
	if !strings.Contains(string(s.Properties["verdict"]), `"abstain"`) {
		t.Errorf("verdict property %s does not allow abstain", s.Properties["verdict"])
	}
	// A prompt that lists no keys is sent without a schema.
	if _, err := c.Reply(context.Background(), "Say hello."); err != nil {
		t.Fatal(err)
	}
	if reqs := fs.requests(); reqs[len(reqs)-1] != nil {
		t.Errorf("a prompt with no key list was sent response_format %s", reqs[len(reqs)-1])
	}
}

func TestReplyFallsBackWhenFormatRefused(t *testing.T) {
	fs := newFormatServer(t, true)
	c, err := NewChat(ChatOptions{BaseURL: fs.srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if g := grade(t, c, "Paris"); g.Status != proctor.StatusPassed {
		t.Fatalf("auto, refused: got %v (%s), want passed in plain text", g.Status, g.Reason)
	}
	if g := grade(t, c, "Paris, France"); g.Status != proctor.StatusPassed {
		t.Fatalf("auto, second call: got %v (%s)", g.Status, g.Reason)
	}
	reqs := fs.requests()
	if len(reqs) != 3 || reqs[0] == nil || reqs[1] != nil || reqs[2] != nil {
		t.Errorf("requests %s: want one refused schema, then plain text only", reqs)
	}

	on, _ := NewChat(ChatOptions{BaseURL: fs.srv.URL, Model: "m", Structured: StructuredOn})
	_, err = on.Reply(context.Background(), proctorPrompt(t))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusBadRequest {
		t.Errorf("on, refused: got %v, want the 400 StatusError", err)
	}
}

func TestReplyStructuredOff(t *testing.T) {
	fs := newFormatServer(t, false)
	c, err := NewChat(ChatOptions{BaseURL: fs.srv.URL, Model: "m", Structured: StructuredOff})
	if err != nil {
		t.Fatal(err)
	}
	if g := grade(t, c, "Paris"); g.Status != proctor.StatusPassed {
		t.Fatalf("got %v (%s)", g.Status, g.Reason)
	}
	if reqs := fs.requests(); len(reqs) != 1 || reqs[0] != nil {
		t.Errorf("off: requests %s, want no response_format", reqs)
	}
	if _, err := NewChat(ChatOptions{BaseURL: fs.srv.URL, Model: "m", Structured: "sometimes"}); err == nil {
		t.Error("NewChat accepted structured \"sometimes\"")
	}
}

// A 400 that is not about the format is not a refusal: no fallback.
func TestReplyOtherBadRequestNotRetried(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"message":"context length exceeded"}}`))
	}))
	defer srv.Close()
	c, _ := NewChat(ChatOptions{BaseURL: srv.URL, Model: "m"})
	if _, err := c.Reply(context.Background(), proctorPrompt(t)); err == nil || n != 1 {
		t.Errorf("got %v after %d requests, want the error after 1", err, n)
	}
}

// proctorPrompt captures a real judge prompt.
func proctorPrompt(t *testing.T) string {
	t.Helper()
	var got string
	p := proctor.NewJudgePool(proctor.JudgeModel{Name: "cap", Call: func(_ context.Context, prompt string) (string, error) {
		got = prompt
		return "", errors.New("captured")
	}})
	proctest.Must(proctor.NewLLMJudge("r", proctor.JudgeOptions{}, p)).Grade(context.Background(), &proctor.Sample{Output: "x"})
	if got == "" {
		t.Fatal("no prompt captured")
	}
	return got
}

func TestPromptKeys(t *testing.T) {
	if got := judgehttp.PromptKeys(proctorPrompt(t)); !slices.Equal(got, []string{"criterion", "violations", "basis", "verdict", "confidence"}) {
		t.Errorf("keys of a proctor prompt: %q", got)
	}
	for _, p := range []string{
		"",
		"write one JSON object with these keys",
		"one JSON object with these keys:\n- \"a\": x\n- \"a\": y\n", // repeated: no schema
		"one JSON object with these keys:\nnothing listed\n",
	} {
		if got := judgehttp.PromptKeys(p); got != nil {
			t.Errorf("judgehttp.PromptKeys(%q) = %q, want none", p, got)
		}
	}
}

func FuzzPromptKeys(f *testing.F) {
	f.Add("Think and write your reply as one JSON object with these keys, in this order:\n- \"criterion\": x\n- \"verdict\": y\nWrite nothing after.")
	f.Add("one JSON object with these keys\n- \"\": \n- \"a\\\"b\": c")
	f.Fuzz(func(t *testing.T, p string) {
		keys := judgehttp.PromptKeys(p)
		if len(keys) > judgehttp.MaxSchemaKeys {
			t.Fatalf("%d keys", len(keys))
		}
		for i, k := range keys {
			if k == "" || strings.ContainsAny(k, "\"\\") || slices.Contains(keys[:i], k) {
				t.Fatalf("bad key %q in %q", k, keys)
			}
		}
		if len(keys) > 0 {
			if _, err := json.Marshal(schemaFor(keys)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// A 429 or 503 reaches the pool as a TransientError carrying the status and
// Retry-After, by which the pool lowers the judge's calls in flight.
func TestTransientErrorCarriesStatus(t *testing.T) {
	for _, status := range []int{429, 503} {
		srv := chatServer(t, status, `{"error":{"message":"slow down"}}`, nil, nil)
		c, _ := NewChat(ChatOptions{BaseURL: srv.URL + "/v1", Model: "m"})
		_, err := c.Reply(context.Background(), "p")
		var te *proctor.TransientError
		if !errors.As(err, &te) || te.StatusCode != status || te.RetryAfter.Seconds() != 2 {
			t.Errorf("HTTP %d: got %#v, want a TransientError with the status and Retry-After 2s", status, err)
		}
	}
}

// An endpoint that answers 429 above 3 requests in flight is backed off
// from: the run finishes with every case graded and few requests refused.
func TestPoolBacksOffRateLimitedEndpoint(t *testing.T) {
	var inflight, refused atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer inflight.Add(-1)
		if inflight.Add(1) > 3 {
			refused.Add(1)
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		time.Sleep(2 * time.Millisecond)
		w.Write([]byte(judgeReplyBody))
	}))
	defer srv.Close()
	c, _ := NewChat(ChatOptions{BaseURL: srv.URL, Model: "m"})
	pool := proctor.NewJudgePool(c.JudgeModel("j", "fam-a"))
	r := proctor.NewRunner(pool, proctor.WithConcurrency(16),
		proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 20, Base: time.Millisecond, Max: 5 * time.Millisecond}}),
		proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("r", proctor.JudgeOptions{}))}))
	cases := make([]proctor.Case, 100)
	for i := range cases {
		cases[i] = proctor.Case{ID: strconv.Itoa(i), Sample: proctor.Sample{Input: "q", Output: "answer " + strconv.Itoa(i)}}
	}
	rep, err := r.Run(context.Background(), cases)
	if err != nil || rep.Totals.Passed != len(cases) {
		t.Fatalf("%+v, %v", rep.Totals, err)
	}
	if n := refused.Load(); n > int64(len(cases)) {
		t.Errorf("%d requests refused for %d cases: the endpoint was hammered", n, len(cases))
	}
	t.Logf("%d requests refused for %d cases", refused.Load(), len(cases))
}
