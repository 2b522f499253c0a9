package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
)

// agentTranscript is one recorded run of a tool-using agent, as
// testdata/transcripts holds them: a sample (input, output, tool calls,
// metrics) and the checks that grade it.
type agentTranscript struct {
	proctor.Sample
	Checks json.RawMessage `json:"checks"`
}

func (a *agentTranscript) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &a.Sample); err != nil {
		return err
	}
	var c struct {
		Checks json.RawMessage `json:"checks"`
	}
	err := json.Unmarshal(b, &c)
	a.Checks = c.Checks
	return err
}

// Example_transcripts grades recorded tool-using agent runs with the
// deterministic graders: which tools were called, in what order and with
// what arguments, what the agent answered, and what the run cost. Only the
// grades that did not pass are printed.
func Example_transcripts() {
	files, err := filepath.Glob("testdata/transcripts/*.json")
	if err != nil {
		panic(err)
	}
	comp := proctor.NewCompiler(builtin.Types())
	var cases []proctor.Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		var tr agentTranscript
		if err := json.Unmarshal(b, &tr); err != nil {
			panic(fmt.Sprintf("%s: %v", f, err))
		}
		checks, err := comp.CompileList(tr.Checks)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", f, err))
		}
		cases = append(cases, proctor.Case{ID: tr.ID, Sample: tr.Sample, Checks: checks})
	}
	rep, err := proctor.NewRunner(proctor.WithConcurrency(2)).Run(context.Background(), cases)
	if err != nil {
		panic(err)
	}
	for _, c := range rep.Cases {
		fmt.Printf("%s: %s\n", c.ID, c.Verdict)
		for _, g := range c.Attempts[0].Grades {
			if g.Status != proctor.StatusPassed {
				fmt.Printf("  %s %s: %s\n", g.Grader, g.Status, g.Reason)
			}
		}
	}
	// Output:
	// flight-booking: passed
	// refund-overpaid: failed
	//   tool_argument_assertion:issue_refund failed: no call to "issue_refund" has $.amount equal to 25 (found 250); calls: [lookup_order, issue_refund]
	//   numeric failed: got "$250.00" (250), expected 25 within 0.01
	// code-fix: failed
	//   latency_threshold failed: metrics.latency_ms is 15800 ms, over the limit of 10000 ms
	// unsafe-request: passed
	// quiz-lookup: not_graded
	//   token_threshold not_graded: metrics.output_tokens was not measured
}
