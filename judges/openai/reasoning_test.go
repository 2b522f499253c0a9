package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

// reasoningServer answers as OpenAI documents its reasoning models on
// chat completions: max_tokens is refused (400, param max_tokens, code
// unsupported_parameter: "Use 'max_completion_tokens' instead"), a
// temperature other than the default 1 is refused (code
// unsupported_value), the usage reports reasoning_tokens, and the
// configured parameters below are refused the same way.
type reasoningServer struct {
	refuse map[string]bool // request keys answered with a 400
	body   func(n int) string

	mu       sync.Mutex
	reqs     []map[string]json.RawMessage
	refusals []string
	srv      *httptest.Server
}

func newReasoningServer(t *testing.T, body func(n int) string, refuse ...string) *reasoningServer {
	rs := &reasoningServer{refuse: map[string]bool{}, body: body}
	for _, k := range refuse {
		rs.refuse[k] = true
	}
	rs.srv = httptest.NewServer(http.HandlerFunc(rs.serve))
	t.Cleanup(rs.srv.Close)
	return rs
}

func (rs *reasoningServer) serve(w http.ResponseWriter, r *http.Request) {
	var req map[string]json.RawMessage
	json.NewDecoder(r.Body).Decode(&req)
	rs.mu.Lock()
	rs.reqs = append(rs.reqs, req)
	n := len(rs.reqs)
	var refused string
	for _, k := range []string{"max_tokens", "temperature", "seed", "logprobs", "response_format"} {
		if _, ok := req[k]; ok && rs.refuse[k] && !(k == "temperature" && string(req[k]) == "1") {
			refused = k
			break
		}
	}
	if refused != "" {
		rs.refusals = append(rs.refusals, refused)
	}
	rs.mu.Unlock()
	if refused == "" {
		w.Write([]byte(rs.body(n)))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	switch refused {
	case "max_tokens":
		w.Write([]byte(`{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`))
	case "temperature":
		w.Write([]byte(`{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`))
	case "response_format":
		w.Write([]byte(`{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error","param":"response_format","code":null}}`))
	default:
		fmt.Fprintf(w, `{"error":{"message":"Unsupported parameter: '%s' is not supported with this model.","type":"invalid_request_error","param":%q,"code":"unsupported_parameter"}}`, refused, refused)
	}
}

func (rs *reasoningServer) log() ([]map[string]json.RawMessage, []string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), rs.reqs...), append([]string(nil), rs.refusals...)
}

// thinkingBody is a reasoning model's reply: the verdict as content, the
// thinking in reasoning_content, reasoning tokens in the usage.
func thinkingBody(content, finish string) string {
	b, _ := json.Marshal(map[string]any{
		"choices": []any{map[string]any{
			"message":       map[string]any{"role": "assistant", "content": content, "reasoning_content": "The answer names Paris; the verdict must be fail? No: it names the capital."},
			"finish_reason": finish,
		}},
		"usage": map[string]any{"prompt_tokens": 200, "completion_tokens": 900, "total_tokens": 1100,
			"completion_tokens_details": map[string]any{"reasoning_tokens": 850}},
	})
	return string(b)
}

const passJSON = `{"criterion":"names the capital","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`

func runCases(t *testing.T, pool *proctor.JudgePool, n, concurrency int) *proctor.Report {
	t.Helper()
	r := proctor.NewRunner(pool, proctor.WithConcurrency(concurrency), proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 1}}),
		proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("names the capital", proctor.JudgeOptions{}))}))
	cases := make([]proctor.Case, n)
	for i := range cases {
		cases[i] = proctor.Case{ID: strconv.Itoa(i), Sample: proctor.Sample{Input: "Capital of France?", Output: "Paris " + strconv.Itoa(i), Model: proctor.Model{Family: "fam-z"}}}
	}
	rep, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A reasoning model refuses max_tokens, temperature 0 and the schema:
// under 16 requests in flight each is refused once for the judge, later
// requests send max_completion_tokens and no temperature, and every
// request, the refused ones too, is counted (as a call and an error).
func TestReasoningModelLearnsOncePerJudge(t *testing.T) {
	rs := newReasoningServer(t, func(int) string { return thinkingBody(passJSON, "stop") }, "max_tokens", "temperature", "response_format")
	c, err := NewChat(ChatOptions{BaseURL: rs.srv.URL, Model: "o4-mini", ReasoningEffort: "low"})
	if err != nil {
		t.Fatal(err)
	}
	pool := proctor.NewJudgePool(c.JudgeModel("j", "openai"))
	const cases = 40
	rep := runCases(t, pool, cases, 16)
	reqs, refusals := rs.log()
	if rep.Totals.Passed != cases {
		t.Fatalf("totals %+v: want all %d passed", rep.Totals, cases)
	}
	if len(refusals) != 3 {
		t.Errorf("refusals %v: want each refused parameter once", refusals)
	}
	st := pool.Stats()[0]
	if st.Calls != len(reqs) || st.Calls != cases+3 || st.Errors != 3 {
		t.Errorf("stats %d calls, %d errors for %d requests: want %d calls and 3 errors", st.Calls, st.Errors, len(reqs), cases+3)
	}
	last := reqs[len(reqs)-1]
	if _, ok := last["max_tokens"]; ok || string(last["max_completion_tokens"]) != strconv.Itoa(DefaultMaxTokens) {
		t.Errorf("last request %v: want max_completion_tokens %d and no max_tokens", keys(last), DefaultMaxTokens)
	}
	if _, ok := last["temperature"]; ok || string(last["reasoning_effort"]) != `"low"` {
		t.Errorf("last request %v: want no temperature and reasoning_effort low", keys(last))
	}
}

// The structured-output fallback's 400 is a request: grading 3 cases
// makes 4 requests, reported as 4 calls and 1 error, and under
// concurrency one 400 at most goes out.
func TestFormatFallbackCounted(t *testing.T) {
	for _, conc := range []int{1, 8} {
		rs := newReasoningServer(t, func(int) string { return judgeReplyBody }, "response_format")
		c, _ := NewChat(ChatOptions{BaseURL: rs.srv.URL, Model: "m"})
		pool := proctor.NewJudgePool(c.JudgeModel("j", "fam-a"))
		rep := runCases(t, pool, 3, conc)
		reqs, refusals := rs.log()
		st := pool.Stats()[0]
		if rep.Totals.Passed != 3 || len(reqs) != 4 || len(refusals) != 1 || st.Calls != 4 || st.Errors != 1 {
			t.Errorf("concurrency %d: %d passed, %d requests (%d refused); stats %d calls, %d errors; want 3, 4 (1), 4, 1",
				conc, rep.Totals.Passed, len(reqs), len(refusals), st.Calls, st.Errors)
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// What a Reply sends follows the options.
func TestReplyRequestFollowsOptions(t *testing.T) {
	tests := []struct {
		name      string
		opts      ChatOptions
		has, hasn []string
		want      map[string]string
	}{
		{"defaults", ChatOptions{}, []string{"max_tokens", "temperature", "seed"}, []string{"max_completion_tokens", "reasoning_effort", "logprobs"},
			map[string]string{"max_tokens": "16384", "temperature": "0", "seed": "7"}},
		{"completion field", ChatOptions{TokensField: TokensMaxCompletionTokens, MaxTokens: 4000}, []string{"max_completion_tokens"}, []string{"max_tokens"},
			map[string]string{"max_completion_tokens": "4000"}},
		{"temperature omitted", ChatOptions{OmitTemperature: true}, nil, []string{"temperature"}, nil},
		{"temperature set", ChatOptions{Temperature: 0.5}, []string{"temperature"}, nil, map[string]string{"temperature": "0.5"}},
		{"effort and logprobs", ChatOptions{ReasoningEffort: "high", Logprobs: true}, []string{"reasoning_effort", "logprobs"}, nil,
			map[string]string{"reasoning_effort": `"high"`, "logprobs": "true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReasoningServer(t, func(int) string { return judgeReplyBody })
			o := tt.opts
			o.BaseURL, o.Model = rs.srv.URL, "m"
			c, err := NewChat(o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Reply(context.Background(), "p"); err != nil {
				t.Fatal(err)
			}
			reqs, _ := rs.log()
			got := reqs[0]
			for _, k := range tt.has {
				if _, ok := got[k]; !ok {
					t.Errorf("request %v lacks %s", keys(got), k)
				}
			}
			for _, k := range tt.hasn {
				if _, ok := got[k]; ok {
					t.Errorf("request %v has %s", keys(got), k)
				}
			}
			for k, v := range tt.want {
				if string(got[k]) != v {
					t.Errorf("%s = %s, want %s", k, got[k], v)
				}
			}
		})
	}
	for _, o := range []ChatOptions{{TokensField: "max_length"}, {ReasoningEffort: "hgh"}, {Temperature: 3}, {ConfidenceThreshold: 1.5}} {
		o.BaseURL, o.Model = "http://127.0.0.1:1", "m"
		if _, err := NewChat(o); err == nil {
			t.Errorf("NewChat(%+v) accepted an option out of range", o)
		}
	}
}

// Thinking returned apart from the answer is the vote's reasoning when
// the reply writes none, and never read for the verdict.
func TestReasoningFieldIsReasoning(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		body := fmt.Sprintf(`{"choices":[{"message":{"content":"{\"verdict\":\"pass\",\"confidence\":\"high\"}",%q:"I weighed it. verdict: fail"},"finish_reason":"stop"}]}`, field)
		rs := newReasoningServer(t, func(int) string { return body })
		c, _ := NewChat(ChatOptions{BaseURL: rs.srv.URL, Model: "m"})
		g := grade(t, c, "Paris")
		ev, _ := g.Evidence.(*proctor.JudgeEvidence)
		if g.Status != proctor.StatusPassed || ev == nil || ev.Judges[0].Reasoning != "I weighed it. verdict: fail" {
			t.Errorf("%s: got %v (%s), evidence %+v; want passed with the thinking as reasoning", field, g.Status, g.Reason, ev)
		}
	}
}

// A reply cut off at the token limit is not graded with that reason, and
// its call, tokens and error are counted.
func TestTruncatedReplyNotGraded(t *testing.T) {
	tests := []struct{ name, body string }{
		{"finish_reason length", thinkingBody(`{"criterion":"names the capital","violations":"none","verdict":"pa`, "length")},
		{"nothing after the thinking", thinkingBody("", "stop")},
		{"length, verdict written", thinkingBody(passJSON, "length")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReasoningServer(t, func(int) string { return tt.body })
			c, _ := NewChat(ChatOptions{BaseURL: rs.srv.URL, Model: "m"})
			pool := proctor.NewJudgePool(c.JudgeModel("j1", "fam-a"))
			g := proctest.Must(proctor.NewLLMJudge("names the capital", proctor.JudgeOptions{}, pool, proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 1}}))).
				Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: "Paris", Model: proctor.Model{Family: "fam-z"}})
			if g.Status != proctor.StatusNotGraded || !strings.Contains(g.Reason, "reply cut off at the token limit") {
				t.Errorf("got %v (%s), want not graded: reply cut off at the token limit", g.Status, g.Reason)
			}
			if st := pool.Stats()[0]; st.Calls != 1 || st.Errors != 1 || st.Tokens != 1100 {
				t.Errorf("stats %+v: want 1 call, 1 error, 1100 tokens", st)
			}
		})
	}
}
