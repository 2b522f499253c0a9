package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/proctorhq/proctor/agent"

	"github.com/proctorhq/proctor"
)

func calls(names ...string) []proctor.ToolCall {
	out := make([]proctor.ToolCall, len(names))
	for i, n := range names {
		out[i] = proctor.ToolCall{Name: n}
	}
	return out
}

func argCall(name, args string) proctor.ToolCall {
	return proctor.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// TestToolCallF1Reference checks the values of promptfoo's and ragas' own
// tests:
//
//	test/assertions/toolCallF1.test.ts promptfoo/promptfoo@12ac30a9bc86cb598c81e75e98f2426b31568ef2
//	tests/unit/test_tool_call_f1.py    explodinggradients/ragas@29601fff4700063d73dd43e5345ddf316b6148e2
//
// The output shapes are promptfoo's (OpenAI, Responses, Anthropic, Google).
func TestToolCallF1Reference(t *testing.T) {
	tests := []struct {
		name     string
		output   string
		expected []string
		score    float64
		pass     bool
	}{
		{"exact", `{"tool_calls":[{"function":{"name":"get_weather","arguments":"{}"}},{"function":{"name":"book_flight","arguments":"{}"}}]}`, []string{"get_weather", "book_flight"}, 1, true},
		{"no match", `{"tool_calls":[{"function":{"name":"search_web","arguments":"{}"}}]}`, []string{"get_weather", "book_flight"}, 0, false},
		{"over-calling", `{"tool_calls":[{"function":{"name":"get_weather"}},{"function":{"name":"book_flight"}},{"function":{"name":"extra_tool"}}]}`, []string{"get_weather", "book_flight"}, 0.8, false},
		{"under-calling", `{"tool_calls":[{"function":{"name":"get_weather"}}]}`, []string{"get_weather", "book_flight"}, 2.0 / 3, false},
		{"none called", `{"tool_calls":[]}`, []string{"get_weather"}, 0, false},
		{"null output", `null`, []string{"get_weather"}, 0, false},
		{"responses item", `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"NYC\"}"}`, []string{"get_weather"}, 1, true},
		{"responses lines", "Thinking about the request.\n" + `{"type":"function_call","name":"get_weather","arguments":"{}"}` + "\n" + `{"type":"function_call","name":"book_flight","arguments":"{}"}`, []string{"get_weather", "book_flight"}, 1, true},
		{"unrelated named object", `{"type":"response_metadata","name":"get_weather"}`, []string{"get_weather"}, 0, false},
		{"direct array", `[{"function":{"name":"get_weather","arguments":"{}"}},{"function":{"name":"book_flight","arguments":"{}"}}]`, []string{"get_weather", "book_flight"}, 1, true},
		{"simple array", `[{"name":"get_weather"},{"name":"book_flight"}]`, []string{"get_weather", "book_flight"}, 1, true},
		{"anthropic block", `{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"NYC"}}`, []string{"get_weather"}, 1, true},
		{"anthropic blocks", `[{"type":"text","text":"Let me check."},{"type":"tool_use","name":"get_weather","input":{}},{"type":"tool_use","name":"book_flight","input":{}}]`, []string{"get_weather", "book_flight"}, 1, true},
		{"google functionCall", `{"functionCall":{"name":"get_weather","args":{"city":"NYC"}}}`, []string{"get_weather"}, 1, true},
		{"google array", `[{"functionCall":{"name":"get_weather","args":{}}},{"functionCall":{"name":"book_flight","args":{}}}]`, []string{"get_weather", "book_flight"}, 1, true},
		{"google live", `{"toolCall":{"functionCalls":[{"name":"get_weather","args":{}},{"name":"book_flight"}]}}`, []string{"get_weather", "book_flight"}, 1, true},
		{"plain text", "This is just a text response with no tool calls", []string{"get_weather"}, 0, false},
		{"anthropic text then blocks", "Let me check the weather for you.\n\n" + `{"type":"tool_use","name":"get_weather","input":{"city":"NYC"}}` + "\n\n" + `{"type":"tool_use","name":"book_flight","input":{"dest":"LA"}}`, []string{"get_weather", "book_flight"}, 1, true},
		{"incomplete block", `Here is a partial call: {"type":"tool_use","name":"get_weather"`, []string{"get_weather"}, 0, false},
		// ragas: WeatherForecast/UVIndex partial 0.67, extra call 0.67.
		{"ragas partial", `[{"name":"WeatherForecast","arguments":{"location":"Paris"}}]`, []string{"WeatherForecast", "UVIndex"}, 2.0 / 3, false},
		{"ragas extra", `[{"name":"WeatherForecast","arguments":{}},{"name":"AirQuality","arguments":{}}]`, []string{"WeatherForecast"}, 2.0 / 3, false},
		{"ragas none", `[{"name":"AirQuality","arguments":{}}]`, []string{"WeatherForecast"}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := agent.NewToolCallF1(tt.expected, agent.ToolCallF1Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := g.Grade(context.Background(), &proctor.Sample{Output: tt.output})
			if math.Abs(got.Score-tt.score) > 1e-9 || (got.Status == proctor.StatusPassed) != tt.pass {
				t.Errorf("got %v, want score %.4f pass %v", got, tt.score, tt.pass)
			}
		})
	}
	// Recorded calls take precedence over the output text.
	g, _ := agent.NewToolCallF1([]string{"a"}, agent.ToolCallF1Options{Threshold: proctor.Ptr(0.5)})
	if got := g.Grade(context.Background(), &proctor.Sample{Output: `[{"name":"b"}]`, ToolCalls: calls("a")}); got.Status != proctor.StatusPassed {
		t.Errorf("recorded calls: got %v, want passed", got)
	}
	if _, err := agent.NewToolCallF1(nil, agent.ToolCallF1Options{}); err == nil {
		t.Error("no expected names: want an error")
	}
}

// TestToolSequenceCallsRagas grades ragas' own ToolCallAccuracy tests
// whose reference is not empty (metric/toolcalls_test.go has them all)
// with tool_sequence's calls:
//
//	tests/unit/test_tool_call_accuracy.py explodinggradients/ragas@5df03eeebef8e9546d54ac3a78132a6464f06488
//
// (its mocked argument comparisons are those of exact matching), and
// arguments written as a JSON string holding the object.
func TestToolSequenceCallsRagas(t *testing.T) {
	search := argCall("search", `{"query":"python"}`)
	filter := argCall("filter", `{"type":"recent"}`)
	tests := []struct {
		name      string
		pred, ref []proctor.ToolCall
		strict    bool
		want      float64
	}{
		{"perfect", []proctor.ToolCall{search, filter}, []proctor.ToolCall{search, filter}, true, 1},
		{"no predicted", nil, []proctor.ToolCall{search}, true, 0},
		{"misaligned", []proctor.ToolCall{filter, search}, []proctor.ToolCall{search, filter}, true, 0},
		{"misaligned, flexible", []proctor.ToolCall{filter, search}, []proctor.ToolCall{search, filter}, false, 1},
		{"more predicted", []proctor.ToolCall{search, filter}, []proctor.ToolCall{search}, true, 0},
		{"fewer predicted", []proctor.ToolCall{search}, []proctor.ToolCall{search, filter}, true, 0},
		{"partial arguments", []proctor.ToolCall{argCall("search", `{"query":"python","limit":5}`), filter},
			[]proctor.ToolCall{argCall("search", `{"query":"python","limit":10}`), filter}, true, 0.75},
		{"wrong name", []proctor.ToolCall{argCall("wrong_tool", `{"query":"python"}`)}, []proctor.ToolCall{search}, true, 0},
		{"string arguments", []proctor.ToolCall{argCall("search", `"{\"query\":\"python\"}"`)}, []proctor.ToolCall{search}, true, 1},
		{"arguments not an object", []proctor.ToolCall{argCall("search", `[1]`)}, []proctor.ToolCall{argCall("search", `"x"`)}, true, 1},
	}
	for _, tt := range tests {
		mode := agent.SequenceAnyOrder
		if tt.strict {
			mode = agent.SequenceExact
		}
		g, err := agent.NewToolSequence(nil, agent.ToolSequenceOptions{Mode: mode, Calls: tt.ref, Threshold: proctor.Ptr(0.0)})
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Grade(context.Background(), &proctor.Sample{ToolCalls: tt.pred}); !got.HasScore || math.Abs(got.Score-tt.want) > 1e-12 {
			t.Errorf("%s: got %v score %v, want %v", tt.name, got.Status, got.Score, tt.want)
		}
	}
}

func TestToolSequenceExtensions(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		names []string
		opts  agent.ToolSequenceOptions
		calls []proctor.ToolCall
		want  proctor.Status
	}{
		{"none expected, none made", []string{}, agent.ToolSequenceOptions{}, nil, proctor.StatusPassed},
		{"none expected, one made", nil, agent.ToolSequenceOptions{}, calls("search"), proctor.StatusFailed},
		{"any order", []string{"a", "b"}, agent.ToolSequenceOptions{Mode: agent.SequenceAnyOrder}, calls("b", "a"), proctor.StatusPassed},
		{"any order, extra call", []string{"a", "b"}, agent.ToolSequenceOptions{Mode: agent.SequenceAnyOrder}, calls("b", "a", "c"), proctor.StatusFailed},
		{"any order, glob needs matching", []string{"get_*", "get_user"}, agent.ToolSequenceOptions{Mode: agent.SequenceAnyOrder}, calls("get_user", "get_order"), proctor.StatusPassed},
		{"glob in order", []string{"search_*", "book"}, agent.ToolSequenceOptions{}, calls("search_flights", "price", "book"), proctor.StatusPassed},
		{"glob exact", []string{"search_?", "book"}, agent.ToolSequenceOptions{Mode: agent.SequenceExact}, calls("search_x", "book"), proctor.StatusPassed},
		{"glob no match", []string{"search_?"}, agent.ToolSequenceOptions{}, calls("search_xy"), proctor.StatusFailed},
		{"max respected", []string{"search"}, agent.ToolSequenceOptions{Max: map[string]int{"search": 2}}, calls("search", "search"), proctor.StatusPassed},
		{"max exceeded", []string{"search"}, agent.ToolSequenceOptions{Max: map[string]int{"search*": 1}}, calls("search", "search_web"), proctor.StatusFailed},
		{"calls exact", nil, agent.ToolSequenceOptions{Mode: agent.SequenceExact, Calls: []proctor.ToolCall{argCall("search", `{"q":"x","n":1}`)}},
			[]proctor.ToolCall{argCall("search", `{"q":"x","n":2}`)}, proctor.StatusFailed},
		{"calls partial credit passes threshold", nil, agent.ToolSequenceOptions{Mode: agent.SequenceExact, Threshold: proctor.Ptr(0.5), Calls: []proctor.ToolCall{argCall("search", `{"q":"x","n":1}`)}},
			[]proctor.ToolCall{argCall("search", `{"q":"x","n":2}`)}, proctor.StatusPassed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := agent.NewToolSequence(tt.names, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Grade(ctx, &proctor.Sample{ToolCalls: tt.calls}); got.Status != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	for _, bad := range []agent.ToolSequenceOptions{
		{Calls: []proctor.ToolCall{{Name: "a"}}},                   // subsequence with calls
		{Mode: agent.SequenceExact, Calls: []proctor.ToolCall{{}}}, // unnamed call
		{Max: map[string]int{"a": -1}},                             // negative max
	} {
		if _, err := agent.NewToolSequence(nil, bad); err == nil {
			t.Errorf("NewToolSequence(%+v): want an error", bad)
		}
	}
}

var weatherTools = `[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}},
 {"type":"function","function":{"name":"now"}}]`

func TestToolCallValid(t *testing.T) {
	g, err := agent.NewToolCallValid(agent.ToolCallValidOptions{Tools: json.RawMessage(weatherTools)})
	if err != nil {
		t.Fatal(err)
	}
	var itemTools any
	if err := json.Unmarshal([]byte(`[{"name":"get_weather","parameters":{"type":"object","required":["city"]}}]`), &itemTools); err != nil {
		t.Fatal(err)
	}
	fromItem, _ := agent.NewToolCallValid(agent.ToolCallValidOptions{})
	tests := []struct {
		name string
		g    proctor.Grader
		s    proctor.Sample
		want proctor.Status
	}{
		{"valid openai", g, proctor.Sample{Output: `{"tool_calls":[{"type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`}, proctor.StatusPassed},
		{"legacy function_call", g, proctor.Sample{Output: `{"function_call":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}`}, proctor.StatusPassed},
		{"no parameters, no arguments", g, proctor.Sample{Output: `{"tool_calls":[{"function":{"name":"now"}}]}`}, proctor.StatusPassed},
		{"missing required", g, proctor.Sample{Output: `{"tool_calls":[{"function":{"name":"get_weather","arguments":"{}"}}]}`}, proctor.StatusFailed},
		{"wrong type", g, proctor.Sample{Output: `{"function_call":{"name":"get_weather","arguments":"{\"city\":3}"}}`}, proctor.StatusFailed},
		{"arguments not JSON", g, proctor.Sample{Output: `{"function_call":{"name":"get_weather","arguments":"{city"}}`}, proctor.StatusFailed},
		{"undeclared tool", g, proctor.Sample{Output: `{"tool_calls":[{"function":{"name":"delete_all","arguments":"{}"}}]}`}, proctor.StatusFailed},
		{"no calls", g, proctor.Sample{Output: "It is sunny."}, proctor.StatusFailed},
		{"transcript", g, proctor.Sample{Output: `{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","tool_calls":[{"function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}]}`}, proctor.StatusPassed},
		{"recorded calls", g, proctor.Sample{ToolCalls: []proctor.ToolCall{argCall("get_weather", `{"city":"Rome"}`)}}, proctor.StatusPassed},
		{"tools from item", fromItem, proctor.Sample{Item: map[string]any{"tools": itemTools}, ToolCalls: []proctor.ToolCall{argCall("get_weather", `{}`)}}, proctor.StatusFailed},
		{"tools from item, compiled before", fromItem, proctor.Sample{Item: map[string]any{"tools": itemTools}, ToolCalls: []proctor.ToolCall{argCall("get_weather", `{"city":"Rome"}`)}}, proctor.StatusPassed},
		{"other tools from item", fromItem, proctor.Sample{Item: map[string]any{"tools": []any{map[string]any{"name": "now"}}}, ToolCalls: []proctor.ToolCall{argCall("get_weather", `{"city":"Rome"}`)}}, proctor.StatusFailed},
		{"no tools declared", fromItem, proctor.Sample{ToolCalls: calls("x")}, proctor.StatusNotGraded},
		{"item tools broken", fromItem, proctor.Sample{Item: map[string]any{"tools": "nope"}, ToolCalls: calls("x")}, proctor.StatusNotGraded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Grade(context.Background(), &tt.s); got.Status != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	// Item declarations are compiled once and shared: grade from several
	// goroutines (run with -race).
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := `{"city":"Rome"}`
			want := proctor.StatusPassed
			if i%2 == 1 {
				args, want = `{}`, proctor.StatusFailed
			}
			s := &proctor.Sample{Item: map[string]any{"tools": itemTools}, ToolCalls: []proctor.ToolCall{argCall("get_weather", args)}}
			if got := fromItem.Grade(context.Background(), s); got.Status != want {
				t.Errorf("concurrent grade %d: got %v, want %v", i, got, want)
			}
		}()
	}
	wg.Wait()
	for _, bad := range []string{`{}`, `[]`, `[{"function":{}}]`, `[{"name":"a"},{"name":"a"}]`, `[{"name":"a","parameters":{"type":7}}]`} {
		if _, err := agent.NewToolCallValid(agent.ToolCallValidOptions{Tools: json.RawMessage(bad)}); err == nil {
			t.Errorf("tools %s: want an error", bad)
		}
	}
}

func TestToolStepCount(t *testing.T) {
	ctx := context.Background()
	g, err := agent.NewToolStepCount(agent.ToolStepCountOptions{Min: proctor.Ptr(1), Max: proctor.Ptr(2)})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range []proctor.Status{proctor.StatusFailed, proctor.StatusPassed, proctor.StatusPassed, proctor.StatusFailed} {
		cs := make([]proctor.ToolCall, n)
		for i := range cs {
			cs[i].Name = "t"
		}
		if got := g.Grade(ctx, &proctor.Sample{ToolCalls: cs}); got.Status != want {
			t.Errorf("%d calls: got %v, want %v", n, got, want)
		}
	}
	for _, bad := range []agent.ToolStepCountOptions{{}, {Min: proctor.Ptr(-1)}, {Min: proctor.Ptr(3), Max: proctor.Ptr(2)}} {
		if _, err := agent.NewToolStepCount(bad); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

func TestToolCheckSpecs(t *testing.T) {
	s := &proctor.Sample{Output: "x", ToolCalls: []proctor.ToolCall{argCall("search", `{"q":"x"}`), argCall("book", `{"id":1}`)}}
	runSpecRows(t, s, []specRow{
		{Spec: `{"type":"tool_call_f1","expected":["search","book"]}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_call_f1","expected":["search"],"threshold":0.7}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_call_f1"}`, WantErr: true},
		{Spec: `{"type":"tool_call_valid","tools":[{"name":"search"},{"name":"book","parameters":{"type":"object","properties":{"id":{"type":"integer"}}}}]}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_call_valid","tools":[{"name":"search"}]}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_call_valid","tools":"search"}`, WantErr: true},
		{Spec: `{"type":"tool_step_count","min":1,"max":2}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_step_count","max":1}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_step_count"}`, WantErr: true},
		{Spec: `{"type":"tool_sequence","names":[]}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_sequence","names":["book","search"],"mode":"any_order"}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_sequence","names":["search","book"],"mode":"strict"}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_sequence","names":["s*"],"mode":"in_order","max":{"s*":1}}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_sequence","names":["s*"],"max":{"*":1}}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_sequence","calls":[{"name":"search","arguments":{"q":"x"}},{"name":"book","arguments":{"id":2}}],"mode":"strict","threshold":0.5}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_sequence","calls":[{"name":"search","arguments":{"q":"x"}},{"name":"book","arguments":{"id":2}}],"mode":"strict"}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_sequence","calls":[{"name":"search"}]}`, WantErr: true},
		{Spec: `{"type":"tool_sequence","calls":[{"name":"search","args":{}}],"mode":"strict"}`, WantErr: true},
		{Spec: `{"type":"tool_sequence","names":["a"],"max":{"a":-1}}`, WantErr: true},
	})
}

func FuzzExtractToolCalls(f *testing.F) {
	for _, s := range []string{
		`{"tool_calls":[{"function":{"name":"a","arguments":"{}"}}]}`,
		`{"function_call":{"name":"a","arguments":"{\"x\":1}"}}`,
		`[{"type":"tool_use","name":"a","input":{}}]`,
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"a"}}]}}]}`,
		"text\n{\"type\":\"function_call\",\"name\":\"a\"}\n[",
		`{"toolCall":{"functionCalls":[{"name":"a"}]}}`,
		`[[[[[[[[[[[[{"name":"deep"}]]]]]]]]]]]]`, `null`, "\xff", ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		cs, found := agent.ExtractToolCalls(out)
		if len(cs) > 0 && !found {
			t.Errorf("calls %v without found", cs)
		}
		for _, c := range cs {
			if c.Arguments != nil && !json.Valid(c.Arguments) {
				t.Errorf("call %q has arguments that are not JSON: %q", c.Name, c.Arguments)
			}
		}
		g, _ := agent.NewToolCallValid(agent.ToolCallValidOptions{Tools: json.RawMessage(weatherTools)})
		if st := g.Grade(context.Background(), &proctor.Sample{Output: out}).Status; st != proctor.StatusPassed && st != proctor.StatusFailed {
			t.Errorf("status %v, want passed or failed", st)
		}
	})
}

func FuzzToolDeclarations(f *testing.F) {
	for _, s := range []string{weatherTools, `[{"name":"a","input_schema":{"type":"object"}}]`, `[]`, `{}`, `[{"function":null}]`, `[{"name":"a","parameters":{"$ref":"http://x"}}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tools string) {
		g, err := agent.NewToolCallValid(agent.ToolCallValidOptions{Tools: json.RawMessage(tools)})
		if err != nil {
			return
		}
		st := g.Grade(context.Background(), &proctor.Sample{ToolCalls: []proctor.ToolCall{argCall("a", `{"x":1}`)}}).Status
		if st != proctor.StatusPassed && st != proctor.StatusFailed {
			t.Errorf("status %v, want passed or failed", st)
		}
	})
}

// TestToolCallF1WithArguments checks ragas' ToolCallF1, which compares
// (name, arguments) pairs: tests/unit/test_tool_call_f1.py,
// explodinggradients/ragas@29601fff4700063d73dd43e5345ddf316b6148e2, plus a
// call whose arguments differ (not a match there either).
func TestToolCallF1WithArguments(t *testing.T) {
	wf := argCall("WeatherForecast", `{"location":"Paris"}`)
	uv := argCall("UVIndex", `{"location":"Paris"}`)
	aq := argCall("AirQuality", `{"location":"Paris"}`)
	tests := []struct {
		expected, predicted []proctor.ToolCall
		want                float64
	}{
		{[]proctor.ToolCall{wf}, []proctor.ToolCall{wf}, 1},
		{[]proctor.ToolCall{wf, uv}, []proctor.ToolCall{wf}, 0.6667},
		{[]proctor.ToolCall{wf}, []proctor.ToolCall{aq}, 0},
		{[]proctor.ToolCall{wf}, []proctor.ToolCall{wf, aq}, 0.6667},
		{[]proctor.ToolCall{wf}, []proctor.ToolCall{argCall("WeatherForecast", `"{\"location\":\"Lyon\"}"`)}, 0},
		{[]proctor.ToolCall{wf}, []proctor.ToolCall{argCall("WeatherForecast", `"{\"location\": \"Paris\"}"`)}, 1},
	}
	for i, tt := range tests {
		g, err := agent.NewToolCallF1(nil, agent.ToolCallF1Options{Calls: tt.expected})
		if err != nil {
			t.Fatal(err)
		}
		got := g.Grade(context.Background(), &proctor.Sample{ToolCalls: tt.predicted})
		if math.Abs(got.Score-tt.want) > 1e-4 {
			t.Errorf("case %d: got %v, want %v (ragas)", i, got, tt.want)
		}
	}
	if _, err := agent.NewToolCallF1([]string{"a"}, agent.ToolCallF1Options{Calls: []proctor.ToolCall{{Name: "a"}}}); err == nil {
		t.Error("names and calls: want an error")
	}
	runSpecRows(t, &proctor.Sample{ToolCalls: []proctor.ToolCall{wf}}, []specRow{
		{Spec: `{"type":"tool_call_f1","expected_calls":[{"name":"WeatherForecast","arguments":{"location":"Paris"}}]}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_call_f1","expected_calls":[{"name":"WeatherForecast","arguments":{"location":"Oslo"}}]}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_call_f1","expected_calls":[]}`, WantErr: true},
	})
}

// TestToolGradersRefuseBadThreshold: tool_call_f1 and tool_sequence (with
// calls) refuse a threshold outside [0, 1] or NaN when built; a negative
// one passed an agent that called nothing it was meant to.
func TestToolGradersRefuseBadThreshold(t *testing.T) {
	calls := []proctor.ToolCall{{Name: "get_weather", Arguments: json.RawMessage(`{}`)}}
	for _, bad := range []float64{-0.5, 1.5, math.NaN()} {
		_, err := agent.NewToolCallF1([]string{"get_weather"}, agent.ToolCallF1Options{Threshold: &bad})
		if want := fmt.Sprintf("agent: tool_call_f1 threshold %v: want 0 to 1", bad); err == nil || err.Error() != want {
			t.Errorf("tool_call_f1 threshold %v: got %v, want %q", bad, err, want)
		}
		_, err = agent.NewToolSequence(nil, agent.ToolSequenceOptions{Calls: calls, Mode: agent.SequenceExact, Threshold: &bad})
		if want := fmt.Sprintf("agent: tool_sequence threshold %v: want 0 to 1", bad); err == nil || err.Error() != want {
			t.Errorf("tool_sequence threshold %v: got %v, want %q", bad, err, want)
		}
	}
	g, err := agent.NewToolCallF1([]string{"get_weather"}, agent.ToolCallF1Options{})
	if err != nil {
		t.Fatal(err)
	}
	if gr := g.Grade(context.Background(), &proctor.Sample{Output: `{"tool_calls":[]}`}); gr.Status != proctor.StatusFailed {
		t.Errorf("default threshold, nothing called: got %v, want failed", gr)
	}
}
