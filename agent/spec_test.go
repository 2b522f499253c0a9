package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
)

// TestSpecs runs each spec type of the family through a Compiler given
// agent.Types(), as proctor grade does.
func TestSpecs(t *testing.T) {
	tests := []struct {
		spec, sample string
		want         proctor.Status
	}{
		{`{"type":"tool_called","name":"search","min_times":2}`, `{"output":"x","tool_calls":[{"name":"search"}]}`, proctor.StatusFailed},
		{`{"type":"tool_not_called","name":"delete_user"}`, `{"output":"x"}`, proctor.StatusPassed},
		{`{"type":"tool_sequence","names":["a","b"],"mode":"exact"}`, `{"output":"x","tool_calls":[{"name":"a"},{"name":"b"}]}`, proctor.StatusPassed},
		{`{"type":"tool_argument_assertion","name":"book","path":"$.seats","equals":2}`, `{"output":"x","tool_calls":[{"name":"book","arguments":{"seats":2}}]}`, proctor.StatusPassed},
	}
	c := proctor.NewCompiler(agent.Types())
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			var s proctor.Sample
			if err := json.Unmarshal([]byte(tt.sample), &s); err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), &s); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
}

// TestSpecErrors checks that loading is fail-closed: each bad spec is a
// *SpecError naming the option at fault.
func TestSpecErrors(t *testing.T) {
	tests := []struct {
		spec, option string
	}{
		{`{"type":"tool_called"}`, "name"},
		{`{"type":"tool_called","name":"x","min_times":0}`, "min_times"},
		{`{"type":"tool_sequence"}`, "names"},
		{`{"type":"tool_sequence","names":["a"],"mode":"sideways"}`, "mode"},
		{`{"type":"tool_argument_assertion","name":"b","path":"$.x"}`, "equals"},
		{`{"type":"tool_argument_assertion","name":"b","path":"$[","equals":1}`, "path"},
	}
	c := proctor.NewCompiler(agent.Types())
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := c.Compile([]byte(tt.spec))
			var se *proctor.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.option {
				t.Errorf("error %q names option %q, want %q", err, se.Option, tt.option)
			}
		})
	}
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
		{spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "San Francisco"}}, {"name": "charge"}]}`, want: proctor.StatusPassed},
		{spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "mode": "superset"}`, want: proctor.StatusFailed},
		{spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "mode": "superset", "tool_args": {"get_weather": "ignore"}}`, want: proctor.StatusPassed},
		{spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "mode": "superset", "tool_args": {"get_weather": ["region"]}}`, want: proctor.StatusPassed},
		{spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather"}], "mode": "superset", "args": "subset"}`, want: proctor.StatusFailed},
		{spec: `{"type": "trajectory_match", "expected": [{"name": "get_weather"}], "mode": "superset", "args": "superset"}`, want: proctor.StatusPassed},
		{spec: `{"type": "trajectory_match", "expected": []}`, want: proctor.StatusFailed},
		{spec: `{"type": "trajectory_match"}`, wantErr: true},
		{spec: `{"type": "trajectory_match", "expected": [], "mode": "loose"}`, wantErr: true},
		{spec: `{"type": "trajectory_match", "expected": [], "tool_args": {"a": "fuzzy"}}`, wantErr: true},
		{spec: `{"type": "trajectory_match", "expected": [], "tool_args": {"a": []}}`, wantErr: true},
		{spec: `{"type": "trajectory_match", "expected": [{"arguments": {}}]}`, wantErr: true},
		{spec: `{"type": "tool_status"}`, want: proctor.StatusFailed},
		{spec: `{"type": "tool_status", "names": ["get_weather"]}`, want: proctor.StatusPassed},
		{spec: `{"type": "tool_status", "names": [""]}`, wantErr: true},
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
		{spec: `{"type": "trace_spans", "max_count": 6}`, want: proctor.StatusPassed},
		{spec: `{"type": "trace_spans", "max_count": 5}`, want: proctor.StatusFailed},
		{spec: `{"type": "trace_spans", "max_duration_ms": 1250}`, want: proctor.StatusFailed},
		{spec: `{"type": "trace_spans", "max_duration_ms": 1300, "max_errors": 1}`, want: proctor.StatusPassed},
		{spec: `{"type": "trace_spans", "max_errors": 0}`, want: proctor.StatusFailed},
		{spec: `{"type": "trace_spans"}`, wantErr: true},
		{spec: `{"type": "trace_spans", "max_count": -1}`, wantErr: true},
	})
	runSpecRows(t, &proctor.Sample{}, []specRow{{spec: `{"type": "trace_spans", "max_count": 5}`, want: proctor.StatusNotGraded}})
	runSpecRows(t, &proctor.Sample{Item: map[string]any{"trace": map[string]any{"span_count": "6"}}},
		[]specRow{{spec: `{"type": "trace_spans", "max_count": 5}`, want: proctor.StatusNotGraded}})
}
