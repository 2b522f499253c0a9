package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGradePrintsJudgeStats checks that proctor grade says on standard
// error what the judges cost, and that identical prompts cost one call.
func TestGradePrintsJudgeStats(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "judges.yaml")
	conf := `judges:
  - name: scripted
    type: scripted
    family: scripted
    replies:
      - prompt_contains: "Paris"
        reply: {criterion: names the capital, violations: none, basis: answer, verdict: pass, confidence: high}
`
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	line := `{"input":"Capital of France?","output":"Paris."}` + "\n"
	code, out, stderr := runCLI(t, line+line+line, "grade", "--config", cfg, "--grader", `{"type":"llm_judge","rubric":"Names the capital of France."}`)
	if code != exitOK || strings.Count(out, `"passed"`) != 3 {
		t.Fatalf("exit %d, out %q, stderr %q; want three passed", code, out, stderr)
	}
	if !strings.Contains(stderr, "judge scripted (scripted, canned replies): 1 call, 0 retries, 2 cache hits") {
		t.Errorf("stderr %q, want the scripted judge's stats with one call", stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "{") {
			t.Errorf("stdout line %q is not a result object", l)
		}
	}
}
