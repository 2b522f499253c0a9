package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// An arena-hard pairwise prompt, brought as it stands: the judge answers
// in its format ([[A>>B]] … [[B>>A]]), asked in both orders.
func ExampleLLMPairwiseOptions_prompt() {
	const arena = "Please act as an impartial judge and evaluate the two answers to the user prompt.\n\n" +
		"<|User Prompt|>\n{{input}}\n\n" +
		"<|The Start of Assistant A's Answer|>\n{{answer_a}}\n<|The End of Assistant A's Answer|>\n\n" +
		"<|The Start of Assistant B's Answer|>\n{{answer_b}}\n<|The End of Assistant B's Answer|>\n\n" +
		"Output your final verdict: [[A>>B]], [[A>B]], [[A=B]], [[B>A]] or [[B>>A]]."
	// This judge prefers whichever answer names Paris.
	judge := func(_ context.Context, prompt string) (string, error) {
		a, _, _ := strings.Cut(prompt, "<|The End of Assistant A's Answer|>")
		if strings.HasSuffix(strings.TrimSpace(a), "Paris.") {
			return "Assistant A is right.\n\nMy final verdict is: [[A>>B]]", nil
		}
		return "Assistant B is right.\n\nMy final verdict is: [[B>>A]]", nil
	}
	judges := proctor.WithJudges(proctor.JudgeModel{Name: "j1", Family: "acme", Model: "acme-judge-1", Call: judge})
	g, err := proctor.NewLLMPairwise("Lyon.", proctor.LLMPairwiseOptions{Prompt: arena}, judges)
	if err != nil {
		panic(err)
	}
	gr := g.Grade(context.Background(), &proctor.Sample{Input: "What is the capital of France?", Output: "Paris."})
	fmt.Println(gr.Status, "-", gr.Reason)
	// Output:
	// passed - judge j1: pass, low confidence, no panel judge available (the first judge's confidence was low)
}

// An MT-Bench single-answer prompt on its 1 to 10 scale: the judge's
// "Rating: [[8.5]]" is read, half point included.
func ExampleLLMScoreOptions_prompt() {
	const mtBench = "[Instruction]\nPlease act as an impartial judge and evaluate the quality of the response. " +
		"Rate the response on a scale of 1 to 10 by strictly following this format: \"[[rating]]\".\n\n" +
		"[Question]\n{{input}}\n\n[The Start of Assistant's Answer]\n{{output}}\n[The End of Assistant's Answer]"
	judge := func(context.Context, string) (string, error) {
		return "The answer is correct and concise. Rating: [[8.5]]", nil
	}
	judges := proctor.WithJudges(proctor.JudgeModel{Name: "j1", Family: "acme", Model: "acme-judge-1", Call: judge})
	g, err := proctor.NewLLMScore("", proctor.LLMScoreOptions{Prompt: mtBench, Scale: [2]int{1, 10}, PassAt: 7}, judges)
	if err != nil {
		fmt.Println(err)
		return
	}
	gr := g.Grade(context.Background(), &proctor.Sample{Input: "What is the capital of France?", Output: "Paris."})
	fmt.Println(gr.Status, gr.Reason)
	// Output:
	// passed judge j1: pass, low confidence, no panel judge available (the first judge's confidence was low)
}
