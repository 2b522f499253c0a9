package proctor

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSampleJSON(t *testing.T) {
	tests := []struct {
		name, in string
		want     Sample
		wantErr  bool
	}{
		{"minimal", `{"output":"x"}`, Sample{Output: "x"}, false},
		{"expected string", `{"output":"x","expected":"y"}`, Sample{Output: "x", Expected: Ptr("y")}, false},
		{"expected empty is kept", `{"output":"x","expected":""}`, Sample{Output: "x", Expected: Ptr("")}, false},
		{"expected null is none", `{"output":"x","expected":null}`, Sample{Output: "x"}, false},
		{"expected object as compact JSON", `{"output":"x","expected":{ "a" : [1, 2] }}`, Sample{Output: "x", Expected: Ptr(`{"a":[1,2]}`), ExpectedJSON: true}, false},
		{"expected number", `{"output":"x","expected":42}`, Sample{Output: "x", Expected: Ptr("42"), ExpectedJSON: true}, false},
		{"references with ids", `{"output":"x","references":["a",{"id":"d1"},{"id":7,"text":"t"}]}`,
			Sample{Output: "x", References: []string{"a", "t"}, ReferenceIDs: []string{"d1", "7"}}, false},
		{"context", `{"output":"x","context":["c1",{"id":"k"}]}`, Sample{Output: "x", Context: []string{"c1"}, ContextIDs: []string{"k"}}, false},
		{"metrics absent stay nil", `{"output":"x","metrics":{"latency_ms":12.5}}`, Sample{Output: "x", Metrics: Metrics{LatencyMS: Ptr(12.5)}}, false},
		{"tool calls", `{"output":"x","tool_calls":[{"name":"s","arguments":{"q":1}}]}`, Sample{Output: "x", ToolCalls: []ToolCall{{Name: "s", Arguments: json.RawMessage(`{"q":1}`)}}}, false},
		{"extra keys ignored", `{"output":"x","grader":{"type":"contains"},"kind":"prose"}`, Sample{Output: "x"}, false},
		{"keys fold", `{"Output":"x","ID":"a"}`, Sample{Output: "x", ID: "a"}, false},
		{"null", `null`, Sample{}, true},
		{"array", `[]`, Sample{}, true},
		{"bad reference", `{"output":"x","references":[5]}`, Sample{}, true},
		{"reference object without id or text", `{"output":"x","references":[{}]}`, Sample{}, true},
		{"id of the wrong type", `{"output":"x","references":[{"id":true}]}`, Sample{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Sample
			err := json.Unmarshal([]byte(tt.in), &got)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestSampleMessages(t *testing.T) {
	var s Sample
	in := `{"messages": [{"role": "user", "content": "hi"},
	  {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}}]},
	  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "boom", "is_error": true}]},
	  {"role": "assistant", "content": "Sorry."}]}`
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if s.Output != "Sorry." || len(s.Messages) != 4 || len(s.ToolCalls) != 1 || !s.ToolCalls[0].IsError || string(s.ToolCalls[0].Result) != `"boom"` {
		t.Errorf("decoded %+v", s)
	}
	if err := json.Unmarshal([]byte(`{"output": "mine", "tool_calls": [{"name": "a"}], "messages": [{"role": "assistant", "content": "theirs", "tool_calls": [{"name": "b"}]}]}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Output != "mine" || len(s.ToolCalls) != 1 || s.ToolCalls[0].Name != "a" {
		t.Errorf("given output and tool_calls must win: %+v", s)
	}
	if err := json.Unmarshal([]byte(`{"messages": [{"content": "no role"}]}`), &s); err == nil {
		t.Error("a message without a role: nil error")
	}
	var back Sample
	b, _ := json.Marshal(Sample{Messages: []Message{{Role: "assistant", Content: "ok", ToolCalls: []ToolCall{{Name: "a", IsError: true}}}}})
	if err := json.Unmarshal(b, &back); err != nil || back.Output != "ok" || len(back.ToolCalls) != 1 || !back.ToolCalls[0].IsError {
		t.Errorf("the JSON form does not round-trip: %s -> %+v, %v", b, back, err)
	}
}
