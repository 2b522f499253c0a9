package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/spectest"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
)

// TestSpecs runs each spec type of the family through a Compiler given
// agent.Types(), as proctor grade does.
func TestSpecs(t *testing.T) {
	spectest.Grade(t, proctor.NewCompiler(agent.Types()), []spectest.Graded{
		{Spec: `{"type":"tool_called","name":"search","min_times":2}`, Sample: `{"output":"x","tool_calls":[{"name":"search"}]}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"tool_not_called","name":"delete_user"}`, Sample: `{"output":"x"}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_sequence","names":["a","b"],"mode":"exact"}`, Sample: `{"output":"x","tool_calls":[{"name":"a"},{"name":"b"}]}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"tool_argument_assertion","name":"book","path":"$.seats","equals":2}`, Sample: `{"output":"x","tool_calls":[{"name":"book","arguments":{"seats":2}}]}`, Want: proctor.StatusPassed},
	})
}

// TestSpecErrors checks that loading is fail-closed: each bad spec is a
// *SpecError naming the option at fault.
func TestSpecErrors(t *testing.T) {
	spectest.Refuse(t, proctor.NewCompiler(agent.Types()), []spectest.Refused{
		{Spec: `{"type":"tool_called"}`, Option: "name"},
		{Spec: `{"type":"tool_called","name":"x","min_times":0}`, Option: "min_times"},
		{Spec: `{"type":"tool_sequence"}`, Option: "names"},
		{Spec: `{"type":"tool_sequence","names":["a"],"mode":"sideways"}`, Option: "mode"},
		{Spec: `{"type":"tool_argument_assertion","name":"b","path":"$.x"}`, Option: "equals"},
		{Spec: `{"type":"tool_argument_assertion","name":"b","path":"$[","equals":1}`, Option: "path"},
	})
}

func TestToolSpecName(t *testing.T) {
	ch, err := proctor.NewCompiler(agent.Types()).Compile([]byte(`{"type":"tool_called","name":"search"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := ch.Name(); !strings.Contains(got, "search") || !strings.Contains(got, "tool_called") {
		t.Errorf("Name() = %q, want the type and the tool", got)
	}
}

// TestUnknownWithoutFamily checks that a Compiler without the family
// refuses its types and says where they come from.
func TestUnknownWithoutFamily(t *testing.T) {
	_, err := proctor.NewCompiler().Compile([]byte(`{"type":"tool_called","name":"search"}`))
	var se *proctor.SpecError
	if !errors.As(err, &se) || se.Option != "type" || !strings.Contains(err.Error(), "builtin.Types()") {
		t.Errorf("got %v, want an unknown-type error that names builtin.Types()", err)
	}
}

func TestTrajectorySpecs(t *testing.T) {
	s := &proctor.Sample{ToolCalls: []proctor.ToolCall{
		{Name: "get_weather", Arguments: []byte(`{"city": "San Francisco"}`)},
		{Name: "charge", Arguments: []byte(`{}`), IsError: true},
	}}
	runSpecRows(t, s, []specRow{
		{Spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "San Francisco"}}, {"name": "charge"}]}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "mode": "superset"}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "mode": "superset", "tool_args": {"get_weather": "ignore"}}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "mode": "superset", "tool_args": {"get_weather": ["region"]}}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather"}], "mode": "superset", "args": "subset"}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather"}], "mode": "superset", "args": "superset"}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "trajectory_match", "expected": []}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "trajectory_match"}`, WantErr: true},
		{Spec: `{"type": "trajectory_match", "expected": [], "mode": "loose"}`, WantErr: true},
		{Spec: `{"type": "trajectory_match", "expected": [], "tool_args": {"a": "fuzzy"}}`, WantErr: true},
		{Spec: `{"type": "trajectory_match", "expected": [], "tool_args": {"a": []}}`, WantErr: true},
		{Spec: `{"type": "trajectory_match", "expected": [{"arguments": {}}]}`, WantErr: true},
		{Spec: `{"type": "tool_status"}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "tool_status", "names": ["get_weather"]}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "tool_status", "names": [""]}`, WantErr: true},
	})
}

// FuzzTrajectorySpec compiles trajectory_match specs from arbitrary text
// and grades arbitrary tool calls with them: an error or a grade, never a
// panic.
func FuzzTrajectorySpec(f *testing.F) {
	f.Add(`{"type": "trajectory_match", "mode": "unordered", "expected": [{"name": "a", "arguments": {"x": 1}}], "tool_args": {"a": ["x.y"]}}`, `[{"name": "a", "arguments": "{\"x\": 1}"}]`)
	f.Add(`{"type": "trajectory_match", "expected": [], "args": "subset"}`, `[{"name": "a", "arguments": [1]}]`)
	c := proctor.NewCompiler(agent.Types())
	f.Fuzz(func(t *testing.T, spec, toolCalls string) {
		ch, err := c.Compile([]byte(spec))
		if err != nil {
			return
		}
		var s proctor.Sample
		if json.Unmarshal([]byte(`{"output": "", "tool_calls": `+toolCalls+`}`), &s) != nil {
			return
		}
		ch.Grade(context.Background(), &s)
	})
}

func TestTraceSpansSpec(t *testing.T) {
	s := &proctor.Sample{Item: map[string]any{"trace": map[string]any{"span_count": 6, "duration_ms": 1250.5, "error_count": 1.0}}}
	runSpecRows(t, s, []specRow{
		{Spec: `{"type": "trace_spans", "max_count": 6}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "trace_spans", "max_count": 5}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "trace_spans", "max_duration_ms": 1250}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "trace_spans", "max_duration_ms": 1300, "max_errors": 1}`, Want: proctor.StatusPassed},
		{Spec: `{"type": "trace_spans", "max_errors": 0}`, Want: proctor.StatusFailed},
		{Spec: `{"type": "trace_spans"}`, WantErr: true},
		{Spec: `{"type": "trace_spans", "max_count": -1}`, WantErr: true},
	})
	runSpecRows(t, &proctor.Sample{}, []specRow{{Spec: `{"type": "trace_spans", "max_count": 5}`, Want: proctor.StatusNotGraded}})
	runSpecRows(t, &proctor.Sample{Item: map[string]any{"trace": map[string]any{"span_count": "6"}}},
		[]specRow{{Spec: `{"type": "trace_spans", "max_count": 5}`, Want: proctor.StatusNotGraded}})
}
