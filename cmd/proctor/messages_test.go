package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/proctorhq/proctor"
)

func TestRunMessages(t *testing.T) {
	suiteYAML := `graders:
  - type: tool_status
  - type: contains
    value: "21C"
cases:
  - id: openai
    messages:
      - {role: user, content: "Weather in Paris?"}
      - role: assistant
        content: null
        tool_calls: [{id: c1, type: function, function: {name: get_weather, arguments: '{"city": "Paris"}'}}]
      - {role: tool, tool_call_id: c1, content: "21C"}
      - {role: assistant, content: "It is 21C in Paris."}
    checks:
      - type: trajectory_match
        expected: [{name: get_weather, arguments: {city: Paris}}]
  - id: anthropic
    outputs:
      - messages:
          - {role: user, content: "Weather in Paris?"}
          - role: assistant
            content: [{type: tool_use, id: t1, name: get_weather, input: {city: Paris}}]
          - role: user
            content: [{type: tool_result, tool_use_id: t1, content: "timeout", is_error: true}]
          - role: assistant
            content: [{type: text, text: "It is 21C, I think."}]
`
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(path, []byte(suiteYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	code, _, stderr := cli(t, "run", path, "--out", out)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1 (the anthropic case's tool errored); stderr %s", code, stderr)
	}
	var rep proctor.Report
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]proctor.Status{"openai": proctor.StatusPassed, "anthropic": proctor.StatusFailed}
	for _, c := range rep.Cases {
		if c.Verdict != want[c.ID] {
			t.Errorf("case %s: %v, want %v", c.ID, c.Verdict, want[c.ID])
		}
	}
	if len(rep.Cases) != 2 {
		t.Errorf("%d cases, want 2", len(rep.Cases))
	}
}
