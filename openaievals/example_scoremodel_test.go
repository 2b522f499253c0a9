package openaievals_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/openaievals"
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
	checks, err := openaievals.CompileTestingCriteria(proctor.NewCompiler(openaievals.Types(), judges), list)
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

func ExampleCompileTestingCriteria() {
	criteria := []byte(`[
	  {"name": "exact", "type": "string_check", "operation": "eq",
	   "input": "{{sample.output_text}}", "reference": "{{item.answer}}"},
	  {"name": "mentions", "type": "string_check", "operation": "ilike",
	   "input": "{{sample.output_text}}", "reference": "%paris%"}
	]`)
	checks, err := openaievals.CompileTestingCriteria(proctor.NewCompiler(openaievals.Types()), criteria)
	if err != nil {
		panic(err)
	}
	s := &proctor.Sample{Output: "Paris", Item: map[string]any{"answer": "Paris"}}
	for _, ch := range checks {
		fmt.Println(ch.Name(), ch.Grade(context.Background(), s).Status)
	}
	// Output:
	// exact passed
	// mentions passed
}

// A multi grader combines named graders with OpenAI's calculate_output
// formula; the formula is parsed once, when the spec is compiled.
func ExampleNewMulti() {
	comp := proctor.NewCompiler(openaievals.Types())
	check, err := comp.Compile([]byte(`{
		"type": "multi", "name": "answer_quality",
		"graders": {
			"exact": {"type": "exact_match", "expected": "Paris"},
			"mentions": {"type": "contains", "value": "Paris"}
		},
		"calculate_output": "0.7 * exact + 0.3 * mentions",
		"pass_threshold": 0.5
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, out := range []string{"Paris", "It is Paris.", "Lyon"} {
		g := check.Grade(context.Background(), &proctor.Sample{Output: out})
		fmt.Printf("%-13q %s %.1f\n", out, g.Status, g.Score)
	}
	// Output:
	// "Paris"       passed 1.0
	// "It is Paris." failed 0.3
	// "Lyon"        failed 0.0
}
