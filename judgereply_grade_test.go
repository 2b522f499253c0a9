package proctor

import (
	"context"
	"testing"
)

// TestLooseReplyConvenesPanel: a reply in the shape the prompt asks for,
// at high confidence, stands alone; the same verdict in a looser form is
// read at low confidence, so the pool convenes its panel.
func TestLooseReplyConvenesPanel(t *testing.T) {
	tests := []struct {
		reply string
		panel bool
	}{
		{verdictJSON("pass", "high"), false},
		{"Verdict: pass\nConfidence: high", false},
		{"Verdict - pass\nConfidence: high", true},
		{"## Verdict\npass\nConfidence: high", true},
		{"PASS ✅", true},
		{`{"verdict": "yes", "confidence": "high"}`, true},
		{`{"reason": "ok", "score": 1, "pass": true}`, true},
		{"The submission is right.\nY", true},
		{"<verdict>pass</verdict>\nConfidence: high", true},
	}
	for _, tt := range tests {
		first := replies("first", "fam-a", tt.reply)
		p1, p2 := says("p1", "fam-b", "pass", "high"), says("p2", "fam-c", "pass", "high")
		gr := must(NewLLMJudge("r", JudgeOptions{}, judgePoolOf(first, p1, p2))).Grade(context.Background(), judgeSample())
		ev := judgeEvidence(gr)
		if gr.Status != StatusPassed || ev == nil {
			t.Errorf("%q: got %v (%s), want passed", tt.reply, gr.Status, gr.Reason)
			continue
		}
		if ev.Panel != tt.panel {
			t.Errorf("%q: panel %v, want %v (first vote %+v)", tt.reply, ev.Panel, tt.panel, ev.Judges[0])
		}
	}
}

// TestScoreOnTheScale: N/M counts only when M is the scale's top, and a
// percentage only on [0, 1] (or a scale topped by 100).
func TestScoreOnTheScale(t *testing.T) {
	tests := []struct {
		opts  LLMScoreOptions
		reply string
		want  Status
	}{
		{LLMScoreOptions{}, "Score: 4/4", StatusPassed},
		{LLMScoreOptions{}, "Score: 3/5", StatusNotGraded},
		{LLMScoreOptions{}, "Score: 75%", StatusNotGraded},
		{LLMScoreOptions{Scale: [2]int{0, 100}, PassAt: 70}, "Score: 75%", StatusPassed},
		{LLMScoreOptions{Range: true, Threshold: 0.7}, "Score: 75%", StatusPassed},
		{LLMScoreOptions{Range: true, Threshold: 0.7}, "Score: 0.6 out of 1", StatusFailed},
		{LLMScoreOptions{Range: true, Threshold: 0.7}, "Score: 6 out of 10", StatusNotGraded},
		{LLMScoreOptions{Scale: [2]int{1, 10}, PassAt: 7}, "Good.\n8/10", StatusPassed},
		{LLMScoreOptions{Scale: [2]int{1, 10}, PassAt: 7}, "3 reasons it falls short.", StatusNotGraded},
	}
	for _, tt := range tests {
		g, err := NewLLMScore("r", tt.opts, judgePoolOf(replies("j", "fam-a", tt.reply)))
		if err != nil {
			t.Fatal(err)
		}
		if gr := g.Grade(context.Background(), judgeSample()); gr.Status != tt.want {
			t.Errorf("%+v %q: got %v (%s), want %v", tt.opts, tt.reply, gr.Status, gr.Reason, tt.want)
		}
	}
}

// TestReasoningInEvidence: the judge's reasoning reaches its vote
// whatever shape it came in: prose before a verdict line, a reasoning
// block, an MT-Bench paragraph ending in its rating.
func TestReasoningInEvidence(t *testing.T) {
	tests := []struct {
		reply, want string
		grader      func(*JudgePool) Grader
	}{
		{"Let me think… the answer says 1968, the landing was 1969.\n\nVerdict: FAIL", "Let me think… the answer says 1968, the landing was 1969.",
			func(p *JudgePool) Grader { return must(NewLLMJudge("r", JudgeOptions{}, p)) }},
		{"<think>1968 is not 1969</think>\nVerdict: FAIL", "1968 is not 1969",
			func(p *JudgePool) Grader { return must(NewLLMJudge("r", JudgeOptions{}, p)) }},
		{"The response is accurate and well organised. Rating: [[9]]", "The response is accurate and well organised. Rating: [[9]]",
			func(p *JudgePool) Grader {
				g, _ := NewLLMScore("r", LLMScoreOptions{Scale: [2]int{1, 10}}, p)
				return g
			}},
	}
	for _, tt := range tests {
		gr := tt.grader(judgePoolOf(replies("j", "fam-a", tt.reply))).Grade(context.Background(), judgeSample())
		ev := judgeEvidence(gr)
		if ev == nil || len(ev.Judges) == 0 || ev.Judges[0].Reasoning != tt.want {
			t.Errorf("%q: reasoning %+v, want %q", tt.reply, ev, tt.want)
		}
	}
}

// TestHalfPointConfidence: a half point answers proctor's prompt, which
// asks for a whole number, loosely (low confidence); a user's prompt that
// allows it is read at the stated confidence.
func TestHalfPointConfidence(t *testing.T) {
	const reply = `{"criterion": "c", "violations": "none", "basis": "answer", "score": 3.5, "verdict": "pass", "confidence": "high"}`
	for _, tt := range []struct {
		opts LLMScoreOptions
		want Confidence
	}{
		{LLMScoreOptions{}, ConfidenceLow},
		{LLMScoreOptions{Prompt: "Rate {{output}} from 1 to 4, half points allowed, as JSON."}, ConfidenceHigh},
		{LLMScoreOptions{Scale: [2]int{1, 4}}, ConfidenceLow},
	} {
		g, err := NewLLMScore("r", tt.opts, judgePoolOf(replies("j", "fam-a", reply)))
		if err != nil {
			t.Fatal(err)
		}
		gr := g.Grade(context.Background(), judgeSample())
		ev := judgeEvidence(gr)
		if gr.Status != StatusPassed || ev == nil || ev.Judges[0].Confidence != tt.want {
			t.Errorf("%+v: got %v (%s), want passed at %v", tt.opts, gr.Status, gr.Reason, tt.want)
		}
	}
}
