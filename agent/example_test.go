package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor/agent"

	"github.com/proctorhq/proctor"
)

func ExampleNewToolCallValid() {
	tools := `[{"type":"function","function":{"name":"get_weather",
	  "parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`
	g, err := agent.NewToolCallValid(agent.ToolCallValidOptions{Tools: json.RawMessage(tools)})
	if err != nil {
		panic(err)
	}
	out := `{"tool_calls":[{"type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`
	fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: out}))
	// Output: passed: 1 tool call valid
}

func ExampleNewToolCallF1() {
	g, err := agent.NewToolCallF1([]string{"search", "book"}, agent.ToolCallF1Options{Threshold: proctor.Ptr(0.6)})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{ToolCalls: []proctor.ToolCall{{Name: "search"}}}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed (score 0.6667): tool call F1 0.6667 >= threshold 0.6000 (precision 1.0000, recall 0.5000; expected [search, book], called [search])
}

func ExampleNewToolSequence_anyOrder() {
	g, err := agent.NewToolSequence([]string{"get_*", "book"}, agent.ToolSequenceOptions{
		Mode: agent.SequenceAnyOrder,
		Max:  map[string]int{"get_*": 1},
	})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{ToolCalls: []proctor.ToolCall{{Name: "book"}, {Name: "get_price"}}}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: passed
}

func ExampleNewTrajectoryMatch() {
	expected := []proctor.ToolCall{
		{Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris"}`)},
		{Name: "book", Arguments: json.RawMessage(`{"day": "mon"}`)},
	}
	g, err := agent.NewTrajectoryMatch(expected, agent.TrajectoryMatchOptions{
		Mode:     agent.TrajectorySuperset,
		ToolArgs: map[string]agent.ArgsMatch{"book": {Mode: agent.ArgsIgnore}},
	})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{ToolCalls: []proctor.ToolCall{
		{Name: "get_weather", Arguments: json.RawMessage(`{"city": "Lyon"}`)},
		{Name: "book", Arguments: json.RawMessage(`{"day": "tue"}`)},
	}}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: failed: superset trajectory: expected call 1 get_weather({"city":"Paris"}) has no matching call
}

func ExampleNewToolStatus() {
	g, err := agent.NewToolStatus(agent.ToolStatusOptions{})
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{ToolCalls: []proctor.ToolCall{
		{Name: "search"},
		{Name: "charge", Result: json.RawMessage(`"card declined"`), IsError: true},
	}}
	fmt.Println(g.Grade(context.Background(), s))
	// Output: failed: call 2 (charge) errored: "card declined"
}

// A conversation judge can take one of the built-in rubrics by name. The
// stand-in judge here fails the thread when it sees the assistant ask for
// a name the user already gave.
func ExampleConversationRubric() {
	judge := func(_ context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "What is your name?") {
			return `{"criterion": "knowledge retention", "violations": "asks again for the name", "basis": "turn 3", "verdict": "fail", "confidence": "high"}`, nil
		}
		return `{"criterion": "knowledge retention", "violations": "none", "basis": "every turn", "verdict": "pass", "confidence": "high"}`, nil
	}
	judges := proctor.WithJudges(proctor.JudgeModel{Name: "j1", Family: "acme", Model: "acme-judge-1", Call: judge})
	rubric, _ := agent.ConversationRubric("knowledge_retention")
	g, err := agent.NewConversationJudge(rubric, proctor.JudgeOptions{}, judges)
	if err != nil {
		panic(err)
	}

	s := &proctor.Sample{Messages: []proctor.Message{
		{Role: "user", Content: "I am Sam. Book me a table."},
		{Role: "assistant", Content: "Booked for Sam at 8pm."},
		{Role: "user", Content: "Move it to 9pm."},
		{Role: "assistant", Content: "What is your name?"},
	}}
	gr := g.Grade(context.Background(), s)
	fmt.Println(gr.Status, "-", gr.Reason)
	// Output:
	// failed - judge j1: fail, high confidence: asks again for the name
}
