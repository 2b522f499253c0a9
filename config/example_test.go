package config_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/config"
)

// A config file gives Go code the judges the command line uses. This one
// holds a scripted judge (canned replies, no model, no network), so the
// example runs offline; an OpenAI-compatible judge is configured the same
// way with base_url, model and api_key_env.
func Example() {
	cfg, err := config.Parse("judges.yaml", []byte(`
judges:
  - name: offline
    type: scripted
    family: scripted
    replies:
      - prompt_contains: "Paris"
        reply: {verdict: pass, confidence: high}
      - reply: {verdict: fail, confidence: high}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	comp := proctor.NewCompiler(cfg.CompilerOptions()...)
	check, err := comp.Compile([]byte(`{"type":"llm_judge","rubric":"Names the capital of France."}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	r := proctor.NewRunner(proctor.WithOptions(cfg.Options()...))
	rep, _ := r.Run(context.Background(), []proctor.Case{
		{ID: "paris", Sample: proctor.Sample{Input: "Capital of France?"}, Outputs: []proctor.Sample{{Output: "Paris."}}, Checks: []proctor.Check{check}},
		{ID: "lyon", Sample: proctor.Sample{Input: "Capital of France?"}, Outputs: []proctor.Sample{{Output: "Lyon."}}, Checks: []proctor.Check{check}},
	})
	for _, c := range rep.Cases {
		fmt.Println(c.ID, c.Verdict)
	}
	fmt.Println("judge calls:", cfg.Judges().Stats()[0].Calls)
	// Output:
	// paris passed
	// lyon failed
	// judge calls: 2
}
