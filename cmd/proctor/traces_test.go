package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// otlpLine is one line of the collector file exporter's OTLP JSON holding
// the given spans.
func otlpLine(spans ...string) string {
	return `{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{},"spans":[` + strings.Join(spans, ",") + `]}]}]}` + "\n"
}

func otlpSpan(traceID, spanID, parent, attrs, status string) string {
	return `{"traceId":"` + traceID + `","spanId":"` + spanID + `","parentSpanId":"` + parent +
		`","name":"s","startTimeUnixNano":"1000000","endTimeUnixNano":"3000000","attributes":[` + attrs + `],"status":{` + status + `}}`
}

func otlpAttr(k, v string) string {
	b, _ := json.Marshal(v)
	return `{"key":"` + k + `","value":{"stringValue":` + string(b) + `}}`
}

func TestRunTraces(t *testing.T) {
	const (
		tOK   = "00000000000000000000000000000001"
		tFail = "00000000000000000000000000000002"
		tByID = "0000000000000000000000000000000a"
	)
	root := func(tid, caseID string) string {
		attrs := otlpAttr("gen_ai.operation.name", "invoke_agent")
		if caseID != "" {
			attrs += "," + otlpAttr("proctor.case_id", caseID)
		}
		return otlpSpan(tid, "1000000000000000", "", attrs, "")
	}
	tool := func(tid, name, status string) string {
		return otlpSpan(tid, "2000000000000000", "1000000000000000",
			otlpAttr("gen_ai.operation.name", "execute_tool")+","+otlpAttr("gen_ai.tool.name", name)+","+otlpAttr("gen_ai.tool.call.arguments", `{"city": "Paris"}`), status)
	}
	traces := otlpLine(tool(tOK, "get_weather", ""), tool(tFail, "get_weather", `"code":2`)) +
		otlpLine(root(tOK, "ok"), root(tFail, "declined"), otlpSpan(tOK, "3000000000000000", "1000000000000000", "", "")) +
		otlpLine(tool(tByID, "get_weather", ""), root(tByID, ""))
	suiteYAML := `graders:
  - type: trajectory_match
    expected: [{name: get_weather, arguments: {city: Paris}}]
  - type: tool_status
cases:
  - id: ok
  - id: declined
  - id: ` + tByID + `
  - id: recorded
    outputs: [{output: "no tools"}]
`
	dir := t.TempDir()
	for name, body := range map[string]string{"traces.jsonl": traces, "suite.yaml": suiteYAML} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "r.json")
	code, _, stderr := cli(t, "run", filepath.Join(dir, "suite.yaml"), "--traces", filepath.Join(dir, "traces.jsonl"), "--out", out)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1 (declined and recorded fail); stderr %s", code, stderr)
	}
	var rep proctor.Report
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	status := map[string]proctor.Status{}
	for _, c := range rep.Cases {
		status[c.ID] = c.Verdict
	}
	want := map[string]proctor.Status{"ok": proctor.StatusPassed, "declined": proctor.StatusFailed, tByID: proctor.StatusPassed, "recorded": proctor.StatusFailed}
	for id, w := range want {
		if status[id] != w {
			t.Errorf("case %s: %v, want %v", id, status[id], w)
		}
	}
	if c := strings.Join(rep.Caveats, "\n"); !strings.Contains(c, "1 of 7 spans skipped") {
		t.Errorf("caveats %q lack the skipped span", c)
	}
	code, _, stderr = cli(t, "run", filepath.Join(dir, "suite.yaml"), "--traces", filepath.Join(dir, "suite.yaml"))
	if code != exitUsage || !strings.Contains(stderr, "not OTLP JSON") {
		t.Errorf("a traces file that is not OTLP JSON: exit %d, stderr %s", code, stderr)
	}
}
