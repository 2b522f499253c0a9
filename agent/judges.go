package agent

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// pathJudge is the body the trajectory and conversation judges share: an
// ask of proctor's judges, quoted and read as llm_judge's.
type pathJudge struct {
	name     string
	severity proctor.Severity
	judging  *proctor.Judging
	ask      proctor.JudgeAsk
}

func newPathJudge(typ, task string, opts proctor.JudgeOptions, with []proctor.CompilerOption,
	material func(*proctor.Sample, func(string) string) ([]proctor.JudgeMaterial, string)) pathJudge {
	return pathJudge{name: cmp.Or(opts.Name, typ), severity: opts.Severity, judging: proctor.NewJudging(with...),
		ask: proctor.JudgeAsk{Task: task, Material: material}}
}

// Name returns the grader's name.
func (g *pathJudge) Name() string { return g.name }

// GraderKind returns [proctor.KindModel]: a judge model grades.
func (g *pathJudge) GraderKind() proctor.Kind { return proctor.KindModel }

// Grade asks the judges about s; see the grader type's doc.
func (g *pathJudge) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	return g.judging.Ask(ctx, s, g.severity, g.ask)
}

// TrajectoryJudge passes when the judges find the path the agent took
// meets a rubric. The judge is shown the rubric, the input and the
// sample's tool calls in order, each with its arguments, its result and
// whether it failed, every piece quoted in nonce tags as proctor's judges
// quote material. It is not graded when the sample made no tool call.
// Verdicts, panels (judges of the sample model's family refused), the
// cache, the budget and the counting are those of [proctor.LLMJudge].
// Immutable and safe for concurrent use.
type TrajectoryJudge struct{ pathJudge }

var (
	_ proctor.Grader = (*TrajectoryJudge)(nil)
	_ proctor.Kinded = (*TrajectoryJudge)(nil)
)

// NewTrajectoryJudge returns a grader that asks the judges configured by
// with ([proctor.WithJudges] or a [proctor.JudgePool], and the judge
// policy options; built without them, those of the Runner grading the
// sample) whether the agent's path meets rubric. It returns an error when
// rubric is empty or only white space.
func NewTrajectoryJudge(rubric string, opts proctor.JudgeOptions, with ...proctor.CompilerOption) (*TrajectoryJudge, error) {
	if err := checkRubric("trajectory_judge", rubric); err != nil {
		return nil, err
	}
	task := "Decide whether the path the AI agent took (its tool calls, in order) satisfies the criterion."
	return &TrajectoryJudge{newPathJudge("trajectory_judge", task, opts, with, func(s *proctor.Sample, red func(string) string) ([]proctor.JudgeMaterial, string) {
		if len(s.ToolCalls) == 0 {
			return nil, "no tool calls: this check judges the agent's path"
		}
		return append(criterionAndInput(rubric, s, red),
			proctor.JudgeMaterial{Tag: "trajectory", Title: "Tool calls the AI agent made, in order", Text: red(describeCalls(s.ToolCalls))}), ""
	})}, nil
}

// checkRubric refuses a rubric with nothing in it: the judges would be
// asked about no criterion.
func checkRubric(typ, rubric string) error {
	if strings.TrimSpace(rubric) == "" {
		return fmt.Errorf("agent: %s rubric %q: want a criterion to judge against", typ, rubric)
	}
	return nil
}

// ConversationJudge passes when the judges find a whole conversation (the
// sample's messages) meets a rubric. The judge is shown the rubric, the
// input and every turn, each quoted on its own in nonce tags with its role
// and the tool calls it made. It is not graded when the sample has no
// messages. Verdicts, panels, the cache, the budget and the counting are
// those of [proctor.LLMJudge]. Immutable and safe for concurrent use.
type ConversationJudge struct{ pathJudge }

var (
	_ proctor.Grader = (*ConversationJudge)(nil)
	_ proctor.Kinded = (*ConversationJudge)(nil)
)

// NewConversationJudge returns a grader that asks the judges configured by
// with whether the sample's conversation meets rubric (one of the
// built-in rubrics, [ConversationRubric], or your own). It returns an
// error when rubric is empty or only white space.
func NewConversationJudge(rubric string, opts proctor.JudgeOptions, with ...proctor.CompilerOption) (*ConversationJudge, error) {
	if err := checkRubric("conversation_judge", rubric); err != nil {
		return nil, err
	}
	task := "Decide whether the AI system's side of the conversation satisfies the criterion."
	return &ConversationJudge{newPathJudge("conversation_judge", task, opts, with, func(s *proctor.Sample, red func(string) string) ([]proctor.JudgeMaterial, string) {
		if len(s.Messages) == 0 {
			return nil, "no messages: this check judges a conversation"
		}
		m := criterionAndInput(rubric, s, red)
		for i, msg := range s.Messages {
			text := msg.Content
			if len(msg.ToolCalls) > 0 {
				text = strings.TrimSpace(text + "\n" + describeCalls(msg.ToolCalls))
			}
			m = append(m, proctor.JudgeMaterial{Tag: fmt.Sprintf("turn_%d", i+1), Title: fmt.Sprintf("Turn %d (%s)", i+1, msg.Role), Text: red(text)})
		}
		return m, ""
	})}, nil
}

// criterionAndInput is the material every path judge quotes first: the
// rubric, and the sample's input when it has one.
func criterionAndInput(rubric string, s *proctor.Sample, red func(string) string) []proctor.JudgeMaterial {
	m := []proctor.JudgeMaterial{{Tag: "criterion", Title: "Criterion", Text: red(rubric)}}
	if s.Input != "" {
		m = append(m, proctor.JudgeMaterial{Tag: "input", Title: "Input given to the AI system", Text: red(s.Input)})
	}
	return m
}

// describeCalls writes calls one a line: "1. name(arguments) -> result",
// with "[failed]" for a call that errored.
func describeCalls(calls []proctor.ToolCall) string {
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

// judgeSpec builds a judge spec: mk makes the judge from the rubric that
// rubric reads from the spec.
func judgeSpec[G proctor.Grader](mk func(string, proctor.JudgeOptions, ...proctor.CompilerOption) (G, error), rubric func(*proctor.SpecOptions) string) proctor.Builder {
	return func(o *proctor.SpecOptions) (proctor.Grader, error) {
		r := rubric(o)
		if err := o.Err(); err != nil {
			return nil, err
		}
		g, err := mk(r, proctor.JudgeOptions{Name: o.Name(), Severity: o.Severity()}, o.Injected())
		if err != nil {
			o.Wrap("rubric", "", err)
			return nil, o.Err()
		}
		return g, nil
	}
}

// trajectorySpecRubric reads trajectory_judge's rubric, which is required.
func trajectorySpecRubric(o *proctor.SpecOptions) string { return o.RequireString("rubric") }

// conversationSpecRubric reads conversation_judge's rubric: a built-in
// one named by criterion, followed by rubric when both are given, else
// rubric alone.
func conversationSpecRubric(o *proctor.SpecOptions) string {
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
