package proctor

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// turnsModes are the words of the turns option every spec takes.
var turnsModes = []string{"all", "assistant", "last"}

// turnsGrader grades a conversation turn by turn (the turns option): each
// selected message becomes a sample whose output is the turn's text and
// whose tool calls are the turn's. The grade is the conjunction of the
// turns graded: failed when one failed, passed when none failed and one
// passed, not graded when none was graded; each turn's verdict is in the
// evidence. It is as safe for concurrent use as the grader it wraps.
type turnsGrader struct {
	g    Grader
	mode string
}

// Name returns the wrapped grader's name.
func (t turnsGrader) Name() string { return t.g.Name() }

// GraderKind is the wrapped grader's kind.
func (t turnsGrader) GraderKind() Kind { return KindOf(t.g) }

// Close closes the wrapped grader when it holds resources.
func (t turnsGrader) Close() error {
	if c, ok := t.g.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// turnVerdict is one turn's entry in the evidence.
type turnVerdict struct {
	Turn   int    `json:"turn"`
	Role   string `json:"role"`
	Status Status `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// Grade grades each selected turn of s.Messages.
func (t turnsGrader) Grade(ctx context.Context, s *Sample) Grade {
	turns := t.selected(s.Messages)
	if len(turns) == 0 {
		return NotGradedf("turns %s: the sample has no such turns (messages)", t.mode)
	}
	var verdicts []turnVerdict
	var failed, passed, notGraded int
	first := -1
	for _, i := range turns {
		if err := ctx.Err(); err != nil {
			return NotGradedf("turns: %v", err)
		}
		m := s.Messages[i]
		ts := *s
		ts.Output, ts.ToolCalls = m.Content, m.ToolCalls
		g := Check{Grader: t.g}.Grade(ctx, &ts)
		verdicts = append(verdicts, turnVerdict{Turn: i + 1, Role: m.Role, Status: g.Status, Reason: g.Reason})
		switch g.Status {
		case StatusFailed:
			failed++
			if first < 0 {
				first = len(verdicts) - 1
			}
		case StatusPassed:
			passed++
		default:
			notGraded++
		}
	}
	ev := map[string]any{"turns": verdicts}
	tally := fmt.Sprintf("%d of %d turns passed", passed, len(turns))
	if notGraded > 0 {
		tally += fmt.Sprintf(", %d not graded", notGraded)
	}
	switch {
	case failed > 0:
		v := verdicts[first]
		return Failf("turn %d (%s) failed: %s; %s", v.Turn, v.Role, v.Reason, tally).WithEvidence(ev)
	case passed > 0:
		return Pass(tally).WithEvidence(ev)
	}
	return NotGraded(tally).WithEvidence(ev)
}

// selected returns the indexes of the turns the mode grades.
func (t turnsGrader) selected(msgs []Message) []int {
	var out []int
	for i, m := range msgs {
		if t.mode == "all" || m.Role == "assistant" {
			out = append(out, i)
		}
	}
	if t.mode == "last" && len(out) > 0 {
		out = out[len(out)-1:]
	}
	return out
}

// withTurns wraps g for the spec's turns option, when it is given.
func withTurns(o *SpecOptions, g Grader) Grader {
	mode, ok := o.OptString("turns")
	if !ok {
		return g
	}
	if !slices.Contains(turnsModes, mode) {
		o.Errorf("turns", "want all, assistant or last, got %q", mode)
		return g
	}
	return turnsGrader{g: g, mode: mode}
}
