package otlp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
	"github.com/proctorhq/proctor/agent/otlp"
)

func readAll(t testing.TB, r *otlp.Reader) []*otlp.Trace {
	t.Helper()
	var out []*otlp.Trace
	for {
		tr, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
}

func TestSDKTraces(t *testing.T) {
	data := sdkTraces(t, map[string]bool{"ok": false, "declined": true})
	if n := bytes.Count(data, []byte("\n")); n < 3 {
		t.Fatalf("the SDK wrote %d lines, want batches split over several", n)
	}
	r := otlp.NewReader(bytes.NewReader(data), otlp.Options{})
	traces := readAll(t, r)
	if len(traces) != 2 {
		t.Fatalf("read %d traces, want 2", len(traces))
	}
	if r.Spans() != 12 || r.Skipped() != 2 {
		t.Errorf("spans %d, skipped %d; want 12 and 2 (the database spans)", r.Spans(), r.Skipped())
	}
	c := proctor.NewCompiler(agent.Types())
	check := func(spec string, s *proctor.Sample) proctor.Status {
		ch, err := c.Compile([]byte(spec))
		if err != nil {
			t.Fatal(err)
		}
		return ch.Grade(context.Background(), s).Status
	}
	for _, tr := range traces {
		s := &tr.Sample
		if s.ID != tr.CaseID || (s.ID != "ok" && s.ID != "declined") {
			t.Fatalf("sample id %q, case id %q", s.ID, tr.CaseID)
		}
		if got := strings.Join([]string{s.ToolCalls[0].Name, s.ToolCalls[1].Name}, ","); got != "get_weather,charge" || len(s.ToolCalls) != 2 {
			t.Errorf("%s: calls %v", s.ID, s.ToolCalls)
		}
		if *s.Metrics.InputTokens != 320 || *s.Metrics.OutputTokens != 42 || *s.Metrics.TotalTokens != 362 {
			t.Errorf("%s: tokens %v %v %v", s.ID, *s.Metrics.InputTokens, *s.Metrics.OutputTokens, *s.Metrics.TotalTokens)
		}
		if s.Model.Name != "gpt-4.1-2025-04-14" || s.Output != "It is 21 degrees in Paris." {
			t.Errorf("%s: model %q output %q", s.ID, s.Model.Name, s.Output)
		}
		if tr.Spans != 6 || tr.Inferences != 2 || tr.Skipped != 1 || s.Metrics.LatencyMS == nil || *s.Metrics.LatencyMS != tr.DurationMS {
			t.Errorf("%s: spans %d inferences %d skipped %d latency %v duration %v", s.ID, tr.Spans, tr.Inferences, tr.Skipped, s.Metrics.LatencyMS, tr.DurationMS)
		}
		wantStatus := proctor.StatusPassed
		if s.ID == "declined" {
			wantStatus = proctor.StatusFailed
			if !s.ToolCalls[1].IsError || string(s.ToolCalls[1].Result) != `"card declined"` {
				t.Errorf("declined: charge call %+v", s.ToolCalls[1])
			}
		}
		if got := check(`{"type": "tool_status"}`, s); got != wantStatus {
			t.Errorf("%s: tool_status %v, want %v", s.ID, got, wantStatus)
		}
		traj := `{"type": "trajectory_match", "expected": [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "charge", "arguments": {"amount": 2}}]}`
		if got := check(traj, s); got != proctor.StatusPassed {
			t.Errorf("%s: trajectory_match %v", s.ID, got)
		}
		if got := check(`{"type": "token_threshold", "max": 361, "field": "total_tokens"}`, s); got != proctor.StatusFailed {
			t.Errorf("%s: token_threshold max 361 over 362 tokens: %v, want failed", s.ID, got)
		}
		if got := check(`{"type": "latency_threshold", "max_ms": 60000}`, s); got != proctor.StatusPassed {
			t.Errorf("%s: latency_threshold: %v, want passed", s.ID, got)
		}
		if got := check(`{"type": "trace_spans", "max_count": 6, "max_errors": 0}`, s); got != wantStatus {
			t.Errorf("%s: trace_spans: %v, want %v", s.ID, got, wantStatus)
		}
		if got := check(`{"type": "trace_spans", "max_count": 5}`, s); got != proctor.StatusFailed {
			t.Errorf("%s: trace_spans max_count 5 of 6 spans: %v, want failed", s.ID, got)
		}
		if got := check(`{"type": "tool_step_count", "max": 1}`, s); got != proctor.StatusFailed {
			t.Errorf("%s: tool_step_count max 1: %v, want failed", s.ID, got)
		}
	}
}

// line is one OTLP JSON line, as the collector's file exporter writes it,
// with the spans given as JSON objects.
func line(spans ...string) string {
	return `{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{},"spans":[` + strings.Join(spans, ",") + `]}]}]}` + "\n"
}

const (
	tidA = "5b8efff798038103d269b633813fc60c"
	tidB = "5b8efff798038103d269b633813fc60d"
)

func span(tid, id, parent string, start, end int, attrs string, status string) string {
	return `{"traceId":"` + tid + `","spanId":"` + id + `","parentSpanId":"` + parent + `","name":"s","startTimeUnixNano":"` +
		strconv.Itoa(start) + `","endTimeUnixNano":"` + strconv.Itoa(end) + `","attributes":[` + attrs + `],"status":{` + status + `}}`
}

func str(k, v string) string { return `{"key":"` + k + `","value":{"stringValue":` + quote(v) + `}}` }
func num(k string, v int) string {
	return `{"key":"` + k + `","value":{"intValue":"` + strconv.Itoa(v) + `"}}`
}
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestReaderLines(t *testing.T) {
	tool := func(tid, id string, start int, name, args string) string {
		return span(tid, id, "aaaaaaaaaaaaaaaa", start, start+5, str("gen_ai.operation.name", "execute_tool")+","+str("gen_ai.tool.name", name)+","+str("gen_ai.tool.call.arguments", args), "")
	}
	in := line(
		// Out of start order in the file: the reader orders by start time.
		tool(tidA, "0000000000000002", 300, "book", `{"id": 7}`),
		tool(tidA, "0000000000000001", 200, "search", `{"q": "x"}`),
		span(tidB, "00000000000000b1", "", 0, 10, "", ""), // trace B: root, not GenAI
	) + "\n" + line(
		span(tidA, "0000000000000003", "aaaaaaaaaaaaaaaa", 100, 150, str("gen_ai.operation.name", "chat")+","+num("gen_ai.usage.input_tokens", 10)+","+str("gen_ai.usage.output_tokens", "many"), ""),
		span(tidA, "0000000000000004", "aaaaaaaaaaaaaaaa", 400, 450, str("gen_ai.operation.name", "execute_tool"), `"code":2`), // no tool name
		span(tidA, "aaaaaaaaaaaaaaaa", "", 50, 2_000_050, "", `"code":2`),
	) + line(span(tidA, "0000000000000005", "aaaaaaaaaaaaaaaa", 60, 70, "", "")) // late
	r := otlp.NewReader(strings.NewReader(in), otlp.Options{})
	traces := readAll(t, r)
	if len(traces) != 2 || traces[0].TraceID != tidB || traces[1].TraceID != tidA {
		t.Fatalf("traces %v, want B (rooted on line 1) then A", traces)
	}
	a := traces[1]
	if a.Sample.ID != tidA || len(a.Sample.ToolCalls) != 2 || a.Sample.ToolCalls[0].Name != "search" || string(a.Sample.ToolCalls[1].Arguments) != `{"id": 7}` {
		t.Errorf("A: %+v", a.Sample)
	}
	if a.Spans != 5 || a.Errors != 2 || a.Skipped != 3 || a.DurationMS != 2 {
		t.Errorf("A: spans %d errors %d skipped %d duration %v; want 5, 2, 3 (bad tokens, no tool name, root), 2", a.Spans, a.Errors, a.Skipped, a.DurationMS)
	}
	if m := a.Sample.Metrics; *m.InputTokens != 10 || m.OutputTokens != nil {
		t.Errorf("A tokens: %v %v; want 10 and none (\"many\" is not a count)", *m.InputTokens, m.OutputTokens)
	}
	if r.Skipped() != 5 {
		t.Errorf("Skipped() = %d, want 5 (3 in A, B's root, A's late span)", r.Skipped())
	}
}

func TestReaderBadLines(t *testing.T) {
	r0 := otlp.NewReader(strings.NewReader(line(span("", "0000000000000001", "", 1, 2, "", ""))), otlp.Options{})
	if ts := readAll(t, r0); len(ts) != 0 || r0.Skipped() != 1 {
		t.Errorf("a span without a trace id: %d traces, %d skipped; want 0 and 1", len(ts), r0.Skipped())
	}
	for _, in := range []string{"[1]\n", "{\"resourceSpans\": 5}\n", "{not json\n"} {
		r := otlp.NewReader(strings.NewReader(in), otlp.Options{})
		if _, err := r.Next(); !errors.Is(err, otlp.ErrLine) {
			t.Errorf("%q: err = %v, want ErrLine", in, err)
		}
	}
	r := otlp.NewReader(strings.NewReader("{bad\n"+line(span(tidA, "0000000000000001", "", 1, 2, "", ""))), otlp.Options{})
	_, err1 := r.Next()
	if _, err2 := r.Next(); err1 == nil || err2 != err1 {
		t.Errorf("after a bad line: %v then %v, want the same error again", err1, err2)
	}
	r = otlp.NewReader(strings.NewReader(line(span(tidA, "0000000000000001", "", 1, 2, "", ""))), otlp.Options{MaxLine: 64})
	if _, err := r.Next(); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("line over MaxLine: err = %v, want an error", err)
	}
}

// FuzzReader reads arbitrary text as OTLP JSON lines: traces or an error,
// never a panic or a hang, and never more spans skipped than read.
func FuzzReader(f *testing.F) {
	f.Add(line(span(tidA, "0000000000000001", "", 1, 2, str("gen_ai.operation.name", "execute_tool")+","+str("gen_ai.tool.name", "t"), `"code":2`)))
	f.Add(line(span(tidA, "0000000000000001", "0000000000000002", 5, 2, num("gen_ai.usage.input_tokens", 3), "")))
	f.Fuzz(func(t *testing.T, in string) {
		r := otlp.NewReader(strings.NewReader(in), otlp.Options{MaxLine: 1 << 16})
		for range 1000 {
			tr, err := r.Next()
			if err != nil {
				break
			}
			if tr.Skipped > tr.Spans {
				t.Fatalf("trace skipped %d of %d spans", tr.Skipped, tr.Spans)
			}
		}
		if r.Skipped() > r.Spans() {
			t.Fatalf("skipped %d of %d spans", r.Skipped(), r.Spans())
		}
	})
}

// TestFailedToolWithoutResult: a failed execute_tool span that recorded no
// result (opt-in in the conventions) takes its status message, else its
// error.type, as the call's result, so tool_status can say why; a recorded
// result is kept as it is.
func TestFailedToolWithoutResult(t *testing.T) {
	tool := func(id string, start int, name, extra, status string) string {
		return span(tidA, id, "aaaaaaaaaaaaaaaa", start, start+5, str("gen_ai.operation.name", "execute_tool")+","+str("gen_ai.tool.name", name)+extra, status)
	}
	in := line(
		tool("0000000000000001", 100, "lookup", "", `"code":2,"message":"station offline"`),
		tool("0000000000000002", 200, "convert", ","+str("error.type", "timeout"), `"code":2`),
		tool("0000000000000003", 300, "book", ","+str("gen_ai.tool.call.result", `{"error":"full"}`), `"code":2,"message":"ignored"`),
		tool("0000000000000004", 400, "quiet", "", `"code":2`),
		span(tidA, "aaaaaaaaaaaaaaaa", "", 50, 500, "", ""),
	)
	traces := readAll(t, otlp.NewReader(strings.NewReader(in), otlp.Options{}))
	if len(traces) != 1 || len(traces[0].Sample.ToolCalls) != 4 {
		t.Fatalf("traces %+v, want one with four calls", traces)
	}
	calls := traces[0].Sample.ToolCalls
	for i, want := range []string{`"station offline"`, `"timeout"`, `{"error":"full"}`, ``} {
		if !calls[i].IsError || string(calls[i].Result) != want {
			t.Errorf("call %d (%s): error %v, result %s; want an error with result %s", i+1, calls[i].Name, calls[i].IsError, calls[i].Result, want)
		}
	}
	ch, err := proctor.NewCompiler(agent.Types()).Compile([]byte(`{"type":"tool_status"}`))
	if err != nil {
		t.Fatal(err)
	}
	g := ch.Grader.Grade(context.Background(), &traces[0].Sample)
	if g.Status != proctor.StatusFailed || !strings.Contains(g.Reason, "station offline") {
		t.Errorf("tool_status: %v %q; want failed, naming the status message", g.Status, g.Reason)
	}
}
