package proctor

import (
	"fmt"
	"strings"
)

// NewTrajectoryJudge returns an [LLMJudge] that asks whether the path the
// agent took meets rubric: the judge is shown the rubric, the input and the
// sample's tool calls in order, each with its arguments, its result and
// whether it failed, quoted like any other material. It is not graded when
// the sample made no tool call. Verdicts, panels and counting are those of
// [NewLLMJudge].
func NewTrajectoryJudge(rubric string, opts JudgeOptions, with ...Option) *LLMJudge {
	t := judgeTask{rubric: rubric, material: trajectoryMaterial,
		materialTask: "Decide whether the path the AI agent took (its tool calls, in order) satisfies the criterion."}
	return &LLMJudge{newJudgeGrader("trajectory_judge", opts, t, with)}
}

// NewConversationJudge returns an [LLMJudge] that asks whether a whole
// conversation (the sample's messages) meets rubric: each turn is quoted
// on its own, with its role and the tool calls it made. It is not graded
// when the sample has no messages. Verdicts, panels and counting are those
// of [NewLLMJudge].
func NewConversationJudge(rubric string, opts JudgeOptions, with ...Option) *LLMJudge {
	t := judgeTask{rubric: rubric, material: conversationMaterial,
		materialTask: "Decide whether the AI system's side of the conversation satisfies the criterion."}
	return &LLMJudge{newJudgeGrader("conversation_judge", opts, t, with)}
}

func trajectoryMaterial(s *Sample, red func(string) string) ([]promptField, string) {
	if len(s.ToolCalls) == 0 {
		return nil, "no tool calls: this check judges the agent's path"
	}
	return []promptField{{"trajectory", "Tool calls the AI agent made, in order", red(describeCalls(s.ToolCalls))}}, ""
}

func conversationMaterial(s *Sample, red func(string) string) ([]promptField, string) {
	if len(s.Messages) == 0 {
		return nil, "no messages: this check judges a conversation"
	}
	fields := make([]promptField, 0, len(s.Messages))
	for i, m := range s.Messages {
		text := m.Content
		if len(m.ToolCalls) > 0 {
			text = strings.TrimSpace(text + "\n" + describeCalls(m.ToolCalls))
		}
		fields = append(fields, promptField{fmt.Sprintf("turn_%d", i+1), fmt.Sprintf("Turn %d (%s)", i+1, m.Role), red(text)})
	}
	return fields, ""
}

// describeCalls writes calls one a line: "1. name(arguments) -> result",
// with "[failed]" for a call that errored.
func describeCalls(calls []ToolCall) string {
	var b strings.Builder
	for i, c := range calls {
		fmt.Fprintf(&b, "%d. %s(%s)", i+1, c.Name, strings.TrimSpace(string(c.Arguments)))
		if len(c.Result) > 0 {
			fmt.Fprintf(&b, " -> %s", c.Result)
		}
		if c.IsError {
			b.WriteString(" [failed]")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// pathJudgeSpecs registers trajectory_judge and conversation_judge.
func pathJudgeSpecs(m map[string]Builder) {
	for typ, mk := range map[string]func(string, JudgeOptions, ...Option) *LLMJudge{
		"trajectory_judge": NewTrajectoryJudge, "conversation_judge": NewConversationJudge,
	} {
		m[typ] = func(o *SpecOptions) (Grader, error) {
			rubric := o.RequireString("rubric")
			if err := o.Err(); err != nil {
				return nil, err
			}
			return mk(rubric, JudgeOptions{Name: o.Name(), Severity: o.Severity()}, configOption(o.config())), nil
		}
	}
}
