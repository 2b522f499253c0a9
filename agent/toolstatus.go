package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/proctorhq/proctor"
)

// ToolStatusOptions configure [NewToolStatus].
type ToolStatusOptions struct {
	// Names limits the check to these tools; empty means every tool.
	Names []string
	// Name is shown in results; default "tool_status".
	Name string
}

// ToolStatus passes when no tool call failed ([proctor.ToolCall].IsError),
// or, with Names, when no call to those tools failed. Its reason names the
// first failed call. It reads the sample's recorded tool calls only, since
// tool calls written in the output carry no status. Immutable and safe for
// concurrent use.
type ToolStatus struct {
	name  string
	tools []string
}

var _ proctor.Grader = (*ToolStatus)(nil)

// NewToolStatus returns a grader of the calls' status. It returns an
// error for an empty tool name among opts.Names.
func NewToolStatus(opts ToolStatusOptions) (*ToolStatus, error) {
	if slices.Contains(opts.Names, "") {
		return nil, errors.New("agent: tool_status: empty tool name")
	}
	return &ToolStatus{name: cmp.Or(opts.Name, "tool_status"), tools: slices.Clone(opts.Names)}, nil
}

// Name returns the grader's name.
func (g *ToolStatus) Name() string { return g.name }

// Grade looks for the first failed call among those checked.
func (g *ToolStatus) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	failed := 0
	first := -1
	for i, c := range s.ToolCalls {
		if c.IsError && (len(g.tools) == 0 || slices.Contains(g.tools, c.Name)) {
			failed++
			if first < 0 {
				first = i
			}
		}
	}
	ev := map[string]any{"tool_calls": toolCallNames(s), "errored": failed}
	if first < 0 {
		return proctor.Pass("").WithEvidence(ev)
	}
	c := s.ToolCalls[first]
	why := fmt.Sprintf("call %d (%s) errored", first+1, c.Name)
	if len(c.Result) > 0 {
		why += ": " + clipJSON(c.Result)
	}
	if failed > 1 {
		why += fmt.Sprintf(" (%d calls errored)", failed)
	}
	return proctor.Fail(why).WithEvidence(ev)
}

// toolStatusSpec builds a tool_status spec: names.
func toolStatusSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	names := o.Strings("names")
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewToolStatus(ToolStatusOptions{Names: names, Name: o.Name()})
	if err != nil {
		o.Wrap("names", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}
