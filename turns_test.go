package proctor

import (
	"context"
	"strings"
	"testing"
)

func TestTurns(t *testing.T) {
	s := &Sample{Output: "Bye, Sam.", Messages: []Message{
		{Role: "user", Content: "Hi, I am Sam."},
		{Role: "assistant", Content: "Hello Sam!"},
		{Role: "user", Content: "Bye."},
		{Role: "assistant", Content: "Bye, friend."},
	}}
	c := NewCompiler()
	tests := []struct {
		spec   string
		want   Status
		reason string
		why    string
	}{
		{`{"type": "contains", "value": "Sam", "turns": "assistant"}`, StatusFailed, "turn 4 (assistant) failed", "the second assistant turn lacks the name"},
		{`{"type": "contains", "value": "Sam", "turns": "all"}`, StatusFailed, "2 of 4 turns passed", "two turns of four name Sam"},
		{`{"type": "contains", "value": "Bye", "turns": "last"}`, StatusPassed, "1 of 1 turns passed", "the last assistant turn, not the output"},
		{`{"type": "contains", "value": "Sam", "turns": "last"}`, StatusFailed, "turn 4", "the output names Sam, the last turn does not"},
		{`{"type": "not", "grader": {"type": "contains", "value": "x", "turns": "assistant"}}`, StatusPassed, "0 of 2 turns passed", "nested specs take turns too"},
	}
	for _, tt := range tests {
		ch, err := c.Compile([]byte(tt.spec))
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		g := ch.Grade(context.Background(), s)
		if g.Status != tt.want || !strings.Contains(g.Reason, tt.reason) {
			t.Errorf("%s: %v, want %v with %q (%s)", tt.spec, g, tt.want, tt.reason, tt.why)
		}
	}
	ch, _ := c.Compile([]byte(`{"type": "contains", "value": "Sam", "turns": "assistant"}`))
	g := ch.Grade(context.Background(), s)
	ev, _ := g.Evidence.(map[string]any)
	if v, _ := ev["turns"].([]turnVerdict); len(v) != 2 || v[0].Status != StatusPassed || v[1].Status != StatusFailed || v[1].Turn != 4 {
		t.Errorf("evidence %+v, want each assistant turn's verdict", g.Evidence)
	}
	if g := ch.Grade(context.Background(), &Sample{Output: "Sam"}); g.Status != StatusNotGraded {
		t.Errorf("a sample without messages: %v, want not graded", g)
	}
	if _, err := c.Compile([]byte(`{"type": "contains", "value": "a", "turns": "every"}`)); err == nil {
		t.Error("turns every: nil error")
	}
}
