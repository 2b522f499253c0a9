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
func NewTrajectoryJudge(rubric string, opts JudgeOptions, with ...CompilerOption) *LLMJudge {
	t := judgeTask{rubric: rubric, material: trajectoryMaterial,
		materialTask: "Decide whether the path the AI agent took (its tool calls, in order) satisfies the criterion."}
	return &LLMJudge{newJudgeGrader("trajectory_judge", opts, t, with)}
}

// NewConversationJudge returns an [LLMJudge] that asks whether a whole
// conversation (the sample's messages) meets rubric: each turn is quoted
// on its own, with its role and the tool calls it made. It is not graded
// when the sample has no messages. Verdicts, panels and counting are those
// of [NewLLMJudge].
func NewConversationJudge(rubric string, opts JudgeOptions, with ...CompilerOption) *LLMJudge {
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

// Built-in rubrics for [NewConversationJudge], the criteria a
// conversation_judge spec names with its criterion option.
const (
	// RubricKnowledgeRetention asks whether the assistant keeps what the
	// user said in earlier turns.
	RubricKnowledgeRetention = "Across the whole conversation the assistant keeps and uses what the user told it in earlier turns: it does not ask again for information the user already gave, and no later turn forgets or contradicts a fact, preference or constraint the user stated. Fail if any assistant turn forgets or contradicts something the user said before it."
	// RubricRoleAdherence asks whether the assistant stays in the role its
	// instructions set.
	RubricRoleAdherence = "Every assistant turn stays within the role, persona and instructions set for the assistant (by the system turn, or as stated below): it keeps the persona, tone and scope it was given, declines what lies outside them as the role requires, and does not drop the role when a user asks it to. Fail if any assistant turn breaks the role."
	// RubricCompleteness asks whether every user request was dealt with.
	RubricCompleteness = "By the end of the conversation the assistant has dealt with everything the user asked for across all turns: each request is answered, carried out, or declined with a reason. Fail if any user request is left unanswered or forgotten."
)

// ConversationRubric returns the built-in rubric a criterion names:
// knowledge_retention, role_adherence or completeness; false for any
// other name.
func ConversationRubric(criterion string) (string, bool) {
	switch criterion {
	case "knowledge_retention":
		return RubricKnowledgeRetention, true
	case "role_adherence":
		return RubricRoleAdherence, true
	case "completeness":
		return RubricCompleteness, true
	}
	return "", false
}

// pathJudgeSpecs registers trajectory_judge and conversation_judge.
func pathJudgeSpecs(m map[string]Builder) {
	build := func(mk func(string, JudgeOptions, ...CompilerOption) *LLMJudge, rubric func(*SpecOptions) string) Builder {
		return func(o *SpecOptions) (Grader, error) {
			r := rubric(o)
			if err := o.Err(); err != nil {
				return nil, err
			}
			return mk(r, JudgeOptions{Name: o.Name(), Severity: o.Severity()}, configOption(o.config())), nil
		}
	}
	m["trajectory_judge"] = build(NewTrajectoryJudge, func(o *SpecOptions) string { return o.RequireString("rubric") })
	m["conversation_judge"] = build(NewConversationJudge, conversationSpecRubric)
}

// conversationSpecRubric reads conversation_judge's rubric: a built-in
// one named by criterion, followed by rubric when both are given, else
// rubric alone.
func conversationSpecRubric(o *SpecOptions) string {
	name, ok := o.OptString("criterion")
	if !ok {
		return o.RequireString("rubric")
	}
	text, known := ConversationRubric(name)
	if !known {
		o.Errorf("criterion", "want knowledge_retention, role_adherence or completeness, got %q", name)
		return ""
	}
	if extra, ok := o.OptString("rubric"); ok && extra != "" {
		text += "\nAlso: " + extra
	}
	return text
}
