package anthropic

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

// fakeAPI answers as Anthropic documents the Messages API: POST
// /v1/messages with x-api-key and anthropic-version; a reply of content
// blocks (thinking, text, tool_use) with stop_reason and usage; errors as
// {"type":"error","error":{"type":...,"message":...}} with 429 for
// rate_limit_error and 529 for overloaded_error, with retry-after.
type fakeAPI struct {
	reply  func(req map[string]json.RawMessage, n int) (status int, header http.Header, body string)
	mu     sync.Mutex
	reqs   []map[string]json.RawMessage
	header []http.Header
	srv    *httptest.Server
}

func newFakeAPI(t *testing.T, reply func(req map[string]json.RawMessage, n int) (int, http.Header, string)) *fakeAPI {
	f := &fakeAPI{reply: reply}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}`))
			return
		}
		var req map[string]json.RawMessage
		json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.reqs = append(f.reqs, req)
		f.header = append(f.header, r.Header.Clone())
		n := len(f.reqs)
		f.mu.Unlock()
		status, h, body := f.reply(req, n)
		for k, v := range h {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) log() ([]map[string]json.RawMessage, []http.Header) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), f.reqs...), append([]http.Header(nil), f.header...)
}

const verdictInput = `{"criterion":"names the capital","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`

// replyBody is a reply with the given content blocks and stop reason.
func replyBody(stop string, blocks ...string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-x","content":[` + strings.Join(blocks, ",") +
		`],"stop_reason":"` + stop + `","stop_sequence":null,"usage":{"input_tokens":300,"output_tokens":120}}`
}

func textBlock(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}
func thinkingBlock(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"thinking","thinking":` + string(b) + `,"signature":"sig"}`
}
func toolBlock(input string) string {
	return `{"type":"tool_use","id":"toolu_01","name":"judge_reply","input":` + input + `}`
}

func ok(body string) func(map[string]json.RawMessage, int) (int, http.Header, string) {
	return func(map[string]json.RawMessage, int) (int, http.Header, string) { return 200, nil, body }
}

func apiError(typ, msg string) string {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}, "request_id": "req_01"})
	return string(b)
}

func newJudge(t *testing.T, f *fakeAPI, o Options) *Judge {
	t.Helper()
	o.BaseURL, o.Model = f.srv.URL, cmp.Or(o.Model, "claude-x")
	o.APIKey = "sk-ant-test"
	j, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// grade asks j, the only judge, one case and returns the grade and stats.
func grade(t *testing.T, j *Judge, retry int) (proctor.Grade, proctor.JudgeStats) {
	t.Helper()
	pool := proctor.NewJudgePool(j.JudgeModel("claude", "anthropic"))
	g := proctest.Must(proctor.NewLLMJudge("names the capital", proctor.JudgeOptions{}, pool,
		proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: retry, Base: time.Millisecond, Max: 2 * time.Millisecond}}))).
		Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: "Paris", Model: proctor.Model{Family: "openai"}})
	return g, pool.Stats()[0]
}

// A judge prompt forces the verdict through the judge_reply tool, whose
// schema requires the prompt's keys; headers, system prompt, max_tokens
// and temperature are as documented; usage and prices give the cost.
func TestReplyForcesToolAndCosts(t *testing.T) {
	f := newFakeAPI(t, ok(replyBody("tool_use", toolBlock(verdictInput))))
	j := newJudge(t, f, Options{System: "You grade answers.", InputPerMTok: 3, OutputPerMTok: 15})
	g, st := grade(t, j, 1)
	if g.Status != proctor.StatusPassed {
		t.Fatalf("got %v (%s), want passed", g.Status, g.Reason)
	}
	reqs, hs := f.log()
	req, h := reqs[0], hs[0]
	if h.Get("X-Api-Key") != "sk-ant-test" || h.Get("Anthropic-Version") != APIVersion || h.Get("Content-Type") != "application/json" || h.Get("Authorization") != "" {
		t.Errorf("headers %v: want x-api-key, anthropic-version %s, JSON, no bearer", h, APIVersion)
	}
	if string(req["max_tokens"]) != "4096" || string(req["temperature"]) != "0" || string(req["system"]) != `"You grade answers."` || req["thinking"] != nil {
		t.Errorf("request %s: want max_tokens 4096, temperature 0, the system prompt, no thinking", mustJSON(req))
	}
	var choice toolChoice
	var tools []tool
	json.Unmarshal(req["tool_choice"], &choice)
	json.Unmarshal(req["tools"], &tools)
	if choice != (toolChoice{Type: "tool", Name: toolName}) || len(tools) != 1 || tools[0].Name != toolName {
		t.Fatalf("tools %s, tool_choice %s: want judge_reply forced", req["tools"], req["tool_choice"])
	}
	if req, _ := tools[0].InputSchema["required"].([]any); len(req) != 5 {
		t.Errorf("input_schema requires %v, want the prompt's 5 keys", req)
	}
	if st.Calls != 1 || st.Tokens != 420 || st.CostUSD != (300*3+120*15)/1e6 {
		t.Errorf("stats %+v: want 1 call, 420 tokens, $%g", st, (300*3+120*15)/1e6)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// With a thinking budget: thinking enabled, no temperature and no forced
// tool (the API refuses both with thinking), max_tokens the budget plus
// room for the verdict; thinking blocks are the reasoning, never the
// verdict.
func TestThinkingKeptAsReasoning(t *testing.T) {
	f := newFakeAPI(t, ok(replyBody("end_turn", thinkingBlock("Is it Paris? If not, verdict: fail."), textBlock(`{"verdict":"pass","confidence":"high"}`))))
	j := newJudge(t, f, Options{ThinkingBudget: 2048})
	g, _ := grade(t, j, 1)
	ev, _ := g.Evidence.(*proctor.JudgeEvidence)
	if g.Status != proctor.StatusPassed || ev == nil || ev.Judges[0].Reasoning != "Is it Paris? If not, verdict: fail." {
		t.Fatalf("got %v (%s), evidence %+v: want passed with the thinking as reasoning", g.Status, g.Reason, ev)
	}
	reqs, _ := f.log()
	req := reqs[0]
	if string(req["thinking"]) != `{"type":"enabled","budget_tokens":2048}` || string(req["max_tokens"]) != strconv.Itoa(2048+DefaultMaxTokens) ||
		req["temperature"] != nil || req["tools"] != nil || req["tool_choice"] != nil {
		t.Errorf("request %s: want thinking 2048, max_tokens %d, no temperature, no tools", mustJSON(req), 2048+DefaultMaxTokens)
	}
}

// stop_reason max_tokens, or thinking with no answer after it, is not
// graded, "reply cut off at the token limit", and counted with its tokens.
func TestStopMaxTokensNotGraded(t *testing.T) {
	for name, body := range map[string]string{
		"stop_reason max_tokens": replyBody("max_tokens", textBlock(`{"criterion":"names the capital","verdict":"pa`)),
		"tool cut off":           replyBody("max_tokens", toolBlock(verdictInput)),
		"only thinking":          replyBody("end_turn", thinkingBlock("Let me think for a long")),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFakeAPI(t, ok(body))
			g, st := grade(t, newJudge(t, f, Options{}), 1)
			if g.Status != proctor.StatusNotGraded || !strings.Contains(g.Reason, "reply cut off at the token limit") {
				t.Errorf("got %v (%s), want not graded, cut off", g.Status, g.Reason)
			}
			if st.Calls != 1 || st.Errors != 1 || st.Tokens != 420 {
				t.Errorf("stats %+v: want 1 call, 1 error, 420 tokens", st)
			}
		})
	}
}

// 429 and 529 are transient with the retry-after the server sent; the
// pool retries them and counts every request.
func TestOverloadedRetried(t *testing.T) {
	for _, tt := range []struct {
		status int
		typ    string
	}{{429, "rate_limit_error"}, {529, "overloaded_error"}} {
		f := newFakeAPI(t, func(_ map[string]json.RawMessage, n int) (int, http.Header, string) {
			if n == 1 {
				return tt.status, http.Header{"Retry-After": {"0"}}, apiError(tt.typ, "Overloaded")
			}
			return 200, nil, replyBody("tool_use", toolBlock(verdictInput))
		})
		j := newJudge(t, f, Options{})
		g, st := grade(t, j, 3)
		if g.Status != proctor.StatusPassed || st.Calls != 2 || st.Retries != 1 || st.Errors != 1 {
			t.Errorf("%d: got %v (%s), stats %+v; want passed after 1 retry, 2 calls", tt.status, g.Status, g.Reason, st)
		}
		f2 := newFakeAPI(t, func(map[string]json.RawMessage, int) (int, http.Header, string) {
			return tt.status, http.Header{"Retry-After": {"3"}}, apiError(tt.typ, "Overloaded")
		})
		_, err := newJudge(t, f2, Options{}).Reply(context.Background(), "p")
		var te *proctor.TransientError
		var se *StatusError
		if !errors.As(err, &te) || te.StatusCode != tt.status || te.RetryAfter != 3*time.Second || !errors.As(err, &se) || se.Type != tt.typ {
			t.Errorf("%d: got %#v, want a TransientError with status, retry-after 3s and the error type", tt.status, err)
		}
	}
}

// Other statuses are *StatusError, not retried, classifiable by status
// and by "model not found".
func TestStatusErrors(t *testing.T) {
	tests := []struct {
		status   int
		typ, msg string
		notFound bool
	}{
		{401, "authentication_error", "invalid x-api-key", false},
		{403, "permission_error", "Your API key does not have permission to use the specified resource.", false},
		{404, "not_found_error", "model: claude-sonet-4", true},
		{400, "invalid_request_error", "messages: at least one message is required", false},
	}
	for _, tt := range tests {
		f := newFakeAPI(t, func(map[string]json.RawMessage, int) (int, http.Header, string) {
			return tt.status, nil, apiError(tt.typ, tt.msg)
		})
		r, err := newJudge(t, f, Options{}).Reply(context.Background(), "p")
		var se *StatusError
		if !errors.As(err, &se) || se.HTTPStatus() != tt.status || se.Type != tt.typ || se.Message != tt.msg || proctor.IsTransient(err) {
			t.Errorf("%d: got %v, want a non-transient StatusError with the type and message", tt.status, err)
			continue
		}
		if se.ModelNotFound() != tt.notFound || r.Requests != 1 {
			t.Errorf("%d: ModelNotFound %v, %d requests; want %v, 1", tt.status, se.ModelNotFound(), r.Requests, tt.notFound)
		}
	}
}

// An endpoint that refuses tools (or temperature) is asked without them:
// under 8 calls in flight, one request is refused for each, and counted.
func TestRefusedParametersLearnedOnce(t *testing.T) {
	var mu sync.Mutex
	refused := map[string]int{}
	f := newFakeAPI(t, func(req map[string]json.RawMessage, _ int) (int, http.Header, string) {
		mu.Lock()
		defer mu.Unlock()
		if req["tools"] != nil {
			refused["tools"]++
			return 400, nil, apiError("invalid_request_error", "tools: Extra inputs are not permitted")
		}
		if req["temperature"] != nil {
			refused["temperature"]++
			return 400, nil, apiError("invalid_request_error", "temperature: Extra inputs are not permitted")
		}
		return 200, nil, replyBody("end_turn", textBlock(verdictInput))
	})
	j := newJudge(t, f, Options{})
	pool := proctor.NewJudgePool(j.JudgeModel("claude", "anthropic"))
	r := proctor.NewRunner(pool, proctor.WithConcurrency(8), proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 1}}),
		proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("names the capital", proctor.JudgeOptions{}))}))
	cases := make([]proctor.Case, 20)
	for i := range cases {
		cases[i] = proctor.Case{ID: strconv.Itoa(i), Sample: proctor.Sample{Input: "Capital of France?", Output: "Paris " + strconv.Itoa(i)}}
	}
	rep, err := r.Run(context.Background(), cases)
	if err != nil || rep.Totals.Passed != 20 {
		t.Fatalf("%+v, %v: want all passed", rep.Totals, err)
	}
	reqs, _ := f.log()
	st := pool.Stats()[0]
	if refused["tools"] != 1 || refused["temperature"] != 1 || len(reqs) != 22 || st.Calls != 22 || st.Errors != 2 {
		t.Errorf("refused %v, %d requests, stats %d calls %d errors: want each once, 22, 22, 2", refused, len(reqs), st.Calls, st.Errors)
	}
}

func TestNewErrors(t *testing.T) {
	for _, o := range []Options{
		{},
		{Model: "m", BaseURL: "ftp://x"},
		{Model: "m", ThinkingBudget: 500},
		{Model: "m", ThinkingBudget: 4096, MaxTokens: 4096},
		{Model: "m", Temperature: 1.5},
		{Model: "m", Structured: "always"},
		{Model: "m", APIKeyEnv: "PROCTOR_TEST_UNSET_KEY"},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) accepted it", o)
		}
	}
	j, err := New(Options{Model: "m"})
	if err != nil || j.ep.URL != DefaultBaseURL+"/v1/messages" {
		t.Errorf("default base URL: got %v, %v", j, err)
	}
}

// FuzzReply reads any Messages reply body: never a panic, a text or an
// error, and the truncation error only with no text.
func FuzzReply(f *testing.F) {
	f.Add(replyBody("end_turn", textBlock(verdictInput)))
	f.Add(replyBody("tool_use", toolBlock(verdictInput)))
	f.Add(replyBody("max_tokens", thinkingBlock("x")))
	f.Add(replyBody("refusal"))
	f.Add(`{"content":[{"type":"tool_use","name":"judge_reply","input":"x"},{"type":"redacted_thinking","data":"abc"}]}`)
	j, _ := New(Options{Model: "m", BaseURL: "http://127.0.0.1:1"})
	f.Fuzz(func(t *testing.T, body string) {
		var mr response
		if json.Unmarshal([]byte(body), &mr) != nil {
			return
		}
		r, err := j.judgeReply(mr, 1)
		if errors.Is(err, proctor.ErrReplyTruncated) && strings.TrimSpace(r.Text) != "" && mr.StopReason == "max_tokens" {
			t.Errorf("truncated reply kept text %q", r.Text)
		}
		if err == nil && len(mr.Content) == 0 {
			t.Error("empty content read without error")
		}
		if r.Tokens < 0 && mr.Usage.InputTokens >= 0 && mr.Usage.OutputTokens >= 0 && mr.Usage.CacheReadInputTokens >= 0 && mr.Usage.CacheCreationInputTokens >= 0 {
			t.Errorf("tokens %d", r.Tokens)
		}
	})
}
