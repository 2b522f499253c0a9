package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func calls(pairs ...string) []proctor.ToolCall {
	var out []proctor.ToolCall
	for i := 0; i < len(pairs); i += 2 {
		c := proctor.ToolCall{Name: pairs[i]}
		if pairs[i+1] != "" {
			c.Arguments = json.RawMessage(pairs[i+1])
		}
		out = append(out, c)
	}
	return out
}

func TestToolGraders(t *testing.T) {
	called := func(name string, min int) proctor.Grader {
		g, err := NewToolCalled(name, ToolCalledOptions{MinTimes: min})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	notCalled, _ := NewToolNotCalled("delete_user", ToolNotCalledOptions{})
	seq := func(mode SequenceMode, names ...string) proctor.Grader {
		g, err := NewToolSequence(names, ToolSequenceOptions{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	arg := func(tool, path string, want any) proctor.Grader {
		return MustToolArgumentAssertion(tool, path, want, ToolArgumentAssertionOptions{})
	}
	tests := []struct {
		name   string
		g      proctor.Grader
		calls  []proctor.ToolCall
		want   proctor.Status
		reason string
	}{
		{"called", called("search", 0), calls("lookup", "", "search", "{}"), proctor.StatusPassed, ""},
		{"not called shows sequence", called("search", 0), calls("lookup", "", "price", ""), proctor.StatusFailed, "calls: [lookup, price]"},
		{"no calls", called("search", 0), nil, proctor.StatusFailed, "no tool calls"},
		{"min times", called("search", 2), calls("search", "", "search", ""), proctor.StatusPassed, ""},
		{"min times short", called("search", 3), calls("search", "", "search", ""), proctor.StatusFailed, "2 times, want at least 3"},
		{"case matters", called("search", 0), calls("Search", ""), proctor.StatusFailed, ""},
		{"not called ok", notCalled, calls("search", ""), proctor.StatusPassed, ""},
		{"not called fails", notCalled, calls("delete_user", `{"id":1}`), proctor.StatusFailed, "calls: [delete_user]"},
		{"subsequence", seq(SequenceSubsequence, "search", "book"), calls("search", "", "price", "", "book", ""), proctor.StatusPassed, ""},
		{"exact with extra", seq(SequenceExact, "search", "book"), calls("search", "", "price", "", "book", ""), proctor.StatusFailed, "calls: [search, price, book]"},
		{"exact", seq(SequenceExact, "search", "book"), calls("search", "", "book", ""), proctor.StatusPassed, ""},
		{"wrong order", seq(SequenceSubsequence, "book", "search"), calls("search", "", "book", ""), proctor.StatusFailed, `matched up to "search"`},
		{"repeated names", seq(SequenceSubsequence, "a", "a"), calls("a", "", "b", ""), proctor.StatusFailed, ""},
		{"exact empty calls", seq(SequenceExact, "a"), nil, proctor.StatusFailed, "no tool calls"},
		{"arg equals", arg("book", "$.seats", 2), calls("book", `{"seats": 2}`), proctor.StatusPassed, ""},
		{"arg number by value", arg("book", "$.seats", 2), calls("book", `{"seats": 2.0}`), proctor.StatusPassed, ""},
		{"arg string", arg("search", "$.q", "paris"), calls("search", `{"q":"paris"}`), proctor.StatusPassed, ""},
		{"arg json string args", arg("search", "$.q", "paris"), calls("search", `"{\"q\":\"paris\"}"`), proctor.StatusPassed, ""},
		{"arg any call", arg("book", "$.seats", 2), calls("book", `{"seats":3}`, "book", `{"seats":2}`), proctor.StatusPassed, ""},
		{"arg no match", arg("book", "$.seats", 2), calls("book", `{"seats":3}`, "book", `{"seats":1}`), proctor.StatusFailed, "found 3; 1"},
		{"arg never called", arg("book", "$.seats", 2), calls("search", `{}`), proctor.StatusFailed, `"book" was not called; calls: [search]`},
		{"arg missing path", arg("book", "$.seats", 2), calls("book", `{}`), proctor.StatusFailed, "nothing at $.seats"},
		{"arg not json", arg("book", "$.seats", 2), calls("book", `{bad`), proctor.StatusFailed, "not JSON"},
		{"arg object", arg("book", "$.who", map[string]any{"b": 1, "a": "x"}), calls("book", `{"who":{"a":"x","b":1.0}}`), proctor.StatusPassed, ""},
		{"arg wildcard list", arg("book", "$.items[*].id", []any{1, 2}), calls("book", `{"items":[{"id":1},{"id":2}]}`), proctor.StatusPassed, ""},
		{"arg nested index", arg("book", "$.items[1].id", 2), calls("book", `{"items":[{"id":1},{"id":2}]}`), proctor.StatusPassed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.g.Grade(context.Background(), &proctor.Sample{ToolCalls: tt.calls})
			if got.Status != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("got %v (%q), want %v with %q", got.Status, got.Reason, tt.want, tt.reason)
			}
			if got.Status == proctor.StatusFailed && got.Evidence == nil {
				t.Errorf("a failed tool grade carries the observed calls as evidence")
			}
		})
	}
	if _, err := NewToolArgumentAssertion("book", "$[", 1, ToolArgumentAssertionOptions{}); err == nil {
		t.Errorf("bad path: got no error")
	}
	if _, err := NewToolCalled("", ToolCalledOptions{}); err == nil {
		t.Errorf("empty tool: got no error")
	}
	if _, err := NewToolSequence([]string{"a", ""}, ToolSequenceOptions{}); err == nil {
		t.Errorf("empty name in sequence: got no error")
	}
}

func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{`{"seats":2}`, `"{\"seats\":2}"`, `{bad`, `null`, `[]`, `"x"`, `{"seats":"2"}`, "\xff"} {
		f.Add(s)
	}
	g := MustToolArgumentAssertion("book", "$.seats", 2, ToolArgumentAssertionOptions{})
	f.Fuzz(func(t *testing.T, args string) {
		s := &proctor.Sample{ToolCalls: []proctor.ToolCall{{Name: "book", Arguments: json.RawMessage(args)}}}
		got := g.Grade(context.Background(), s)
		if got.Status != proctor.StatusPassed && got.Status != proctor.StatusFailed {
			t.Fatalf("arguments %q: status %v", args, got.Status)
		}
	})
}
