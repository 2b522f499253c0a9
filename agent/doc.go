// Package agent grades what an agent did: which tools it called, in what
// order, with which arguments, and how many steps it took. Its graders read
// the sample's tool calls ([proctor.Sample].ToolCalls), or tool calls written
// in the output text in the common vendor formats. Two of them ask judges:
// [TrajectoryJudge] reads the path of tool calls and [ConversationJudge]
// the sample's messages, each against a rubric.
//
// The package is one of proctor's families built on the root package's
// public API (the judges on [proctor.Judging]). Its spec types
// (tool_called, tool_not_called, tool_sequence, tool_argument_assertion,
// tool_call_valid, tool_call_f1, tool_step_count, trajectory_match,
// tool_status, trace_spans, trajectory_judge, conversation_judge)
// reach a [proctor.Compiler] through [Types], or with every other family
// through builtin.Types:
//
//	c := proctor.NewCompiler(agent.Types())
//	check, err := c.Compile([]byte(`{"type": "tool_called", "name": "search"}`))
//
// Package agent/otlp reads OpenTelemetry traces into samples these graders
// grade; see docs/agents.md.
package agent
