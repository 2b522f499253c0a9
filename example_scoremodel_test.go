package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// An OpenAI-evals testing_criteria list runs as it stands: string_check,
// score_model and label_model here. The model graders ask the configured
// judge named after the list's model; this judge is scripted, where a real
// one would call gpt-4.1 at temperature 0.
func Example_testingCriteria() {
	judge := func(_ context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "exactly one of these labels") {
			return `{"label": "on_topic"}`, nil
		}
		return `{"steps": [{"description": "names the capital", "conclusion": "correct"}], "result": 9}`, nil
	}
	judges := proctor.WithJudges(proctor.JudgeModel{Name: "gpt-4.1", Family: "openai", Model: "gpt-4.1-2025-04-14", Call: judge})

	list := []byte(`[
	  {"type": "string_check", "name": "mentions_city", "operation": "ilike",
	   "input": "{{sample.output_text}}", "reference": "{{item.city}}"},
	  {"type": "score_model", "name": "quality", "model": "gpt-4.1", "range": [0, 10], "pass_threshold": 7,
	   "input": [{"role": "system", "content": "Rate the answer from 0 to 10."},
	             {"role": "user", "content": "Question: {{item.question}}\nAnswer: {{sample.output_text}}"}]},
	  {"type": "label_model", "name": "topic", "model": "gpt-4.1",
	   "labels": ["on_topic", "off_topic"], "passing_labels": ["on_topic"],
	   "input": [{"role": "user", "content": [{"type": "input_text", "text": "Is this on topic? {{sample.output_text}}"}]}]}
	]`)
	checks, err := proctor.NewCompiler(judges).CompileTestingCriteria(list)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := &proctor.Sample{Output: "The capital of France is Paris.",
		Item: map[string]any{"question": "What is the capital of France?", "city": "paris"}}
	for _, ch := range checks {
		g := ch.Grade(context.Background(), s)
		fmt.Printf("%s: %s", g.Grader, g.Status)
		if g.HasScore {
			fmt.Printf(", score %.2f", g.Score)
		}
		if ev, ok := g.Evidence.(*proctor.JudgeEvidence); ok {
			v := ev.Judges[0]
			fmt.Printf(", judge %s", v.Name)
			if v.Score != nil {
				fmt.Printf(" scored %g: %s", *v.Score, v.Reasoning)
			}
			if v.Category != "" {
				fmt.Printf(" labelled %s", v.Category)
			}
		}
		fmt.Println()
	}
	// Output:
	// mentions_city: passed, score 1.00
	// quality: passed, score 0.90, judge gpt-4.1 scored 9: names the capital correct
	// topic: passed, judge gpt-4.1 labelled on_topic
}
