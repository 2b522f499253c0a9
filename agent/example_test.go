package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

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
