package metric_test

import (
	"math"
	"slices"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// TestToolCallAccuracyRagas checks ragas' own ToolCallAccuracy tests:
//
//	tests/unit/test_tool_call_accuracy.py explodinggradients/ragas@5df03eeebef8e9546d54ac3a78132a6464f06488
//
// (its mocked argument comparisons are those of exact matching).
func TestToolCallAccuracyRagas(t *testing.T) {
	call := func(name string, args map[string]any) metric.ToolCall { return metric.ToolCall{Name: name, Args: args} }
	search := call("search", map[string]any{"query": "python"})
	filter := call("filter", map[string]any{"type": "recent"})
	tests := []struct {
		name      string
		pred, ref []metric.ToolCall
		strict    bool
		want      float64
	}{
		{"perfect", []metric.ToolCall{search, filter}, []metric.ToolCall{search, filter}, true, 1},
		{"no predicted", nil, []metric.ToolCall{search}, true, 0},
		{"misaligned", []metric.ToolCall{filter, search}, []metric.ToolCall{search, filter}, true, 0},
		{"misaligned, flexible", []metric.ToolCall{filter, search}, []metric.ToolCall{search, filter}, false, 1},
		{"more predicted", []metric.ToolCall{search, filter}, []metric.ToolCall{search}, true, 0},
		{"fewer predicted", []metric.ToolCall{search}, []metric.ToolCall{search, filter}, true, 0},
		{"partial arguments", []metric.ToolCall{call("search", map[string]any{"query": "python", "limit": 5.0}), filter},
			[]metric.ToolCall{call("search", map[string]any{"query": "python", "limit": 10.0}), filter}, true, 0.75},
		{"wrong name", []metric.ToolCall{call("wrong_tool", map[string]any{"query": "python"})}, []metric.ToolCall{search}, true, 0},
		{"both empty", nil, nil, true, 1},
		{"empty reference", []metric.ToolCall{call("unexpected", map[string]any{})}, nil, true, 0},
	}
	for _, tt := range tests {
		pred, ref := slices.Clone(tt.pred), slices.Clone(tt.ref)
		if got := metric.ToolCallAccuracy(pred, ref, tt.strict); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for i := range pred {
			if pred[i].Name != tt.pred[i].Name {
				t.Errorf("%s: ToolCallAccuracy reordered its input", tt.name)
			}
		}
	}
}

// TestToolNameF1Reference checks the F1 of ragas' and promptfoo's own
// tool-call F1 tests (agent/toolcheck_test.go grades them all):
//
//	test/assertions/toolCallF1.test.ts promptfoo/promptfoo@12ac30a9bc86cb598c81e75e98f2426b31568ef2
//	tests/unit/test_tool_call_f1.py    explodinggradients/ragas@29601fff4700063d73dd43e5345ddf316b6148e2
func TestToolNameF1Reference(t *testing.T) {
	tests := []struct {
		called, expected []string
		p, r, f1         float64
	}{
		{[]string{"get_weather", "book_flight"}, []string{"get_weather", "book_flight"}, 1, 1, 1},
		{[]string{"search_web"}, []string{"get_weather", "book_flight"}, 0, 0, 0},
		{[]string{"get_weather", "book_flight", "extra_tool"}, []string{"get_weather", "book_flight"}, 2.0 / 3, 1, 0.8},
		{[]string{"get_weather"}, []string{"get_weather", "book_flight"}, 1, 0.5, 2.0 / 3},
		{nil, []string{"get_weather"}, 0, 0, 0},
		{[]string{"WeatherForecast", "AirQuality"}, []string{"WeatherForecast"}, 0.5, 1, 2.0 / 3},
		// Repeated names count once.
		{[]string{"a", "a", "b"}, []string{"a", "a"}, 0.5, 1, 2.0 / 3},
	}
	for _, tt := range tests {
		p, r, f1 := metric.ToolNameF1(tt.called, tt.expected)
		if math.Abs(p-tt.p) > 1e-12 || math.Abs(r-tt.r) > 1e-12 || math.Abs(f1-tt.f1) > 1e-12 {
			t.Errorf("ToolNameF1(%q, %q) = %v, %v, %v; want %v, %v, %v", tt.called, tt.expected, p, r, f1, tt.p, tt.r, tt.f1)
		}
	}
}
