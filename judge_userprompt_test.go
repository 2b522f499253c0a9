package proctor

import (
	"context"
	"strings"
	"testing"
)

// TestUserPromptPairwise: an arena-style prompt is sent as written, in
// both orders, with the answers in its slots; the reply's [[A>>B]] form
// is read, and a verdict that flips with the order abstains.
func TestUserPromptPairwise(t *testing.T) {
	const prompt = "Q: {{input}}\n[A]\n{{answer_a}}\n[B]\n{{answer_b}}\nVerdict as [[A>B]] etc."
	prefersParis := &fakeJudge{name: "j", family: "fam-a", reply: func(_ context.Context, p string) (string, error) {
		a, _, _ := strings.Cut(p, "[B]")
		if strings.Contains(a, "Paris") {
			return "A names the capital.\n\nMy final verdict is: [[A>B]]", nil
		}
		return "B names the capital.\n\nMy final verdict is: [[B>>A]]", nil
	}}
	g := must(NewLLMPairwise("Lyon.", LLMPairwiseOptions{Prompt: prompt}, judgePoolOf(prefersParis)))
	gr := g.Grade(context.Background(), judgeSample())
	if gr.Status != StatusPassed {
		t.Fatalf("got %v (%s), want passed", gr.Status, gr.Reason)
	}
	if len(prefersParis.prompts) != 2 {
		t.Fatalf("%d prompts, want 2 (both orders)", len(prefersParis.prompts))
	}
	want := []string{"Q: What is the capital of France?\n[A]\nParis.\n[B]\nLyon.\n", "Q: What is the capital of France?\n[A]\nLyon.\n[B]\nParis.\n"}
	for i, p := range prefersParis.prompts {
		if !strings.HasPrefix(p, want[i]) {
			t.Errorf("prompt %d = %q, want it to start %q", i, p, want[i])
		}
	}
	ev := judgeEvidence(gr)
	if ev == nil || !strings.Contains(ev.Judges[0].Reasoning, "names the capital") {
		t.Errorf("the prose reasoning is not in the evidence: %+v", ev)
	}
	alwaysA := replies("j", "fam-a", "My final verdict is: [[A>>B]]")
	if gr := must(NewLLMPairwise("Lyon.", LLMPairwiseOptions{Prompt: prompt}, judgePoolOf(alwaysA))).Grade(context.Background(), judgeSample()); gr.Status != StatusNotGraded {
		t.Errorf("a judge preferring whichever answer comes first: got %v, want not graded", gr.Status)
	}
	if bad, err := NewLLMPairwise("Lyon.", LLMPairwiseOptions{Prompt: "only {{answer_a}}"}, judgePoolOf(alwaysA)); err == nil || !strings.Contains(err.Error(), "answer_b") {
		t.Errorf("a prompt without {{answer_b}}: got %v, %v; want an error naming it", bad, err)
	}
}

// TestUserPromptScore: an MT-Bench prompt on llm_score, and the spec
// options that carry user prompts.
func TestUserPromptScore(t *testing.T) {
	j := replies("j", "fam-a", "Correct and concise.\n\nRating: [[4]]")
	g, err := NewLLMScore("", LLMScoreOptions{Prompt: "Rate 1-10 as [[N]]: {{output}}", Scale: [2]int{1, 10}, PassAt: 7}, judgePoolOf(j))
	if err != nil {
		t.Fatal(err)
	}
	if gr := g.Grade(context.Background(), judgeSample()); gr.Status != StatusFailed {
		t.Errorf("got %v (%s), want failed at 4 of 10", gr.Status, gr.Reason)
	}
	if got := j.prompts[0]; got != "Rate 1-10 as [[N]]: Paris." {
		t.Errorf("prompt %q, want the template rendered as written", got)
	}
	if _, err := NewLLMScore("", LLMScoreOptions{Prompt: "{{answer_a}}"}); err == nil {
		t.Error("llm_score took {{answer_a}}")
	}
	c := NewCompiler()
	for spec, ok := range map[string]bool{
		`{"type": "llm_score", "prompt": "Rate {{output}} as [[N]]", "scale": [1, 10]}`: true,
		`{"type": "llm_score", "prompt": "Rate {{nope}}", "scale": [1, 10]}`:            false,
		`{"type": "llm_score"}`: false,
		`{"type": "llm_score", "rubric": "r", "whole_scores": true}`:                                       true,
		`{"type": "llm_pairwise", "baseline": "b", "prompt": "A: {{answer_a}} B: {{answer_b}}"}`:           true,
		`{"type": "llm_pairwise", "baseline": "b", "prompt": "A: {{answer_a}} only"}`:                      false,
		`{"type": "llm_pairwise", "baseline": "b", "prompt": "A: {{answer_a}} B: {{answer_b}} {{missing"}`: false,
	} {
		if _, err := c.Compile([]byte(spec)); (err == nil) != ok {
			t.Errorf("Compile(%s): error %v, want ok %v", spec, err, ok)
		}
	}
}
