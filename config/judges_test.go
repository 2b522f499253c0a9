package config

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// recorder is a loopback endpoint that keeps the last request body and
// answers with body.
func recorder(t *testing.T, body string) (*httptest.Server, func() map[string]json.RawMessage) {
	var mu sync.Mutex
	var last map[string]json.RawMessage
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		json.NewDecoder(r.Body).Decode(&last)
		mu.Unlock()
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]json.RawMessage { mu.Lock(); defer mu.Unlock(); return last }
}

// Each model judge's keys reach its requests.
func TestJudgeTypesBuild(t *testing.T) {
	oa, oaLast := recorder(t, `{"choices":[{"message":{"content":"{\"verdict\":\"pass\"}"},"finish_reason":"stop"}]}`)
	an, anLast := recorder(t, `{"type":"message","content":[{"type":"text","text":"{\"verdict\":\"pass\"}"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	tests := []struct {
		name, yaml string
		last       func() map[string]json.RawMessage
		want       map[string]string // request key: JSON value ("" = absent)
	}{
		{"openai reasoning", "{name: o, family: openai, model: o4, base_url: '" + oa.URL + "', reasoning_effort: high, temperature: omit, max_tokens: 20000, max_tokens_field: max_completion_tokens, logprobs: true, confidence_threshold: 0.8}",
			oaLast, map[string]string{"reasoning_effort": `"high"`, "temperature": "", "max_completion_tokens": "20000", "max_tokens": "", "logprobs": "true"}},
		{"openai temperature number", "{name: o, family: openai, model: m, base_url: '" + oa.URL + "', temperature: 0.3}",
			oaLast, map[string]string{"temperature": "0.3", "max_tokens": "16384"}},
		{"anthropic thinking", "{name: a, type: anthropic, family: anthropic, model: claude-x, base_url: '" + an.URL + "', thinking_budget: 2048, max_tokens: 8000, prices: {input_per_mtok: 3, output_per_mtok: 15}}",
			anLast, map[string]string{"thinking": `{"type":"enabled","budget_tokens":2048}`, "max_tokens": "8000", "temperature": ""}},
		{"anthropic plain", "{name: a, type: anthropic, family: anthropic, model: claude-x, base_url: '" + an.URL + "', temperature: 0.2}",
			anLast, map[string]string{"temperature": "0.2", "max_tokens": "4096"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc, err := parseConfig("c.yaml", []byte("judges: ["+tt.yaml+"]"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := buildConfig(fc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.pool.Judges()[0].CallWithUsage(context.Background(), "p"); err != nil {
				t.Fatal(err)
			}
			got := tt.last()
			for k, v := range tt.want {
				if string(got[k]) != v {
					t.Errorf("%s = %s, want %q", k, got[k], v)
				}
			}
		})
	}
}

// Keys a judge's type does not take, and values out of range, are errors.
func TestJudgeKeysRefused(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"{name: a, type: anthropic, family: f, model: m, logprobs: true}", "no log probabilities"},
		{"{name: a, type: anthropic, family: f, model: m, reasoning_effort: low}", "reasoning_effort is for type openai"},
		{"{name: a, type: anthropic, family: f, model: m, seed: 3}", "seed"},
		{"{name: a, type: anthropic, family: f, model: m, thinking_budget: 100}", "thinking budget 100"},
		{"{name: a, type: anthropic, family: f, model: m, thinking_budget: 4000, max_tokens: 3000}", "below max_tokens"},
		{"{name: o, family: f, model: m, base_url: 'http://127.0.0.1:1', thinking_budget: 2048}", "thinking_budget is for type anthropic"},
		{"{name: o, family: f, model: m, base_url: 'http://127.0.0.1:1', temperature: hot}", `temperature "hot"`},
		{"{name: o, family: f, model: m, base_url: 'http://127.0.0.1:1', temperature: [1]}", "want a number or omit"},
		{"{name: o, family: f, model: m, base_url: 'http://127.0.0.1:1', reasoning_effort: hgh}", "reasoning effort"},
		{"{name: o, family: f, model: m, base_url: 'http://127.0.0.1:1', max_tokens_field: max_length}", "tokens field"},
		{"{name: o, family: f, model: m, base_url: 'http://127.0.0.1:1', confidence_threshold: 2}", "confidence threshold"},
		{"{name: o, type: gemini, family: f, model: m}", `type "gemini"`},
		{"{name: s, type: scripted, family: f, temperature: 0, replies: [{reply: ok}]}", "samples nothing"},
		{"{name: a, type: anthropic, family: f, model: m, thinking: 5}", `unknown field "thinking"`},
	}
	for _, tt := range tests {
		fc, err := parseConfig("c.yaml", []byte("judges: ["+tt.yaml+"]"))
		if err == nil {
			_, err = buildConfig(fc)
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error naming %q", tt.yaml, err, tt.want)
		}
	}
}

// FuzzTemperature reads any temperature value: a number, omit, or an
// error; never a panic, never omit with a value.
func FuzzTemperature(f *testing.F) {
	for _, s := range []string{"0", "0.7", `"omit"`, `"hot"`, "null", "[1]", "1e400", " "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, omit, err := temperature(json.RawMessage(raw))
		if err == nil && omit && v != 0 {
			t.Errorf("%q: omit with temperature %v", raw, v)
		}
	})
}
