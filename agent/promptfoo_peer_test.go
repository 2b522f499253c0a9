package agent_test

import (
	"context"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
)

// The rows below port promptfoo's own tests of its trajectory and trace
// assertions to the agent family's graders, each row naming the test it
// comes from:
//
//   - trajectory: promptfoo/promptfoo test/assertions/trajectory.test.ts
//     at commit 711496320305475997a4ae5cd3df11234dae178f
//   - span count: test/assertions/traceSpanCount.test.ts at commit
//     c7e5799201a488d91359ccb89357902ef129496f
//   - span duration: test/assertions/traceSpanDuration.test.ts at commit
//     9acb76c4cc10b8bac050f17f26b324bd87742c20
//   - error spans: test/assertions/traceErrorSpans.test.ts at commit
//     7e539ba07803d21ec3f822927084b52556ce64d0
//
// peer is what promptfoo's test asserts: "pass", "fail", or "error" (the
// handler throws). want is what proctor gives; a row with agree false
// says in why where, and why, proctor's documented meaning differs. Tests
// of promptfoo's span reader (extractTrajectorySteps, judge summaries) and
// of options proctor has no equivalent for (span name patterns, step
// types, percentiles, error percentages) are not ported.
type promptfooRow struct {
	test   string
	sample *proctor.Sample
	spec   string
	peer   string
	want   string // "pass", "fail", "not graded" or "error" (spec refused)
	agree  bool
	why    string
}

// pfTrajectory is trajectory.test.ts's mockTraceData as proctor reads it:
// its three tool spans become the tool calls, in order. The chat, command
// (exec ls) and reasoning spans are not tool calls in proctor.
func pfTrajectory() *proctor.Sample {
	return &proctor.Sample{Output: "test output", ToolCalls: []proctor.ToolCall{
		pfCall("search_orders", `{"order_id":"123","include_history":false}`),
		pfCall("search_inventory", `{"query":"quantum computing","limit":3}`),
		pfCall("compose_reply", `{"tone":"friendly","citations":["doc_1","doc_2"]}`),
	}}
}

// pfSpan is one span of promptfoo's fixtures: its times in milliseconds,
// and whether its OpenTelemetry status is ERROR (none of promptfoo's
// fixtures set one; they mark errors with HTTP codes and attributes).
type pfSpan struct {
	start, end float64
	otelError  bool
}

// pfTrace is the sample the agent/otlp reader makes of spans: item.trace
// with the span count, the trace's duration (first start to last end) and
// the count of spans whose status is ERROR.
func pfTrace(spans ...pfSpan) *proctor.Sample {
	var first, last float64
	errs := 0
	for i, s := range spans {
		if i == 0 || s.start < first {
			first = s.start
		}
		last = max(last, s.end)
		if s.otelError {
			errs++
		}
	}
	return &proctor.Sample{Output: "test output", Item: map[string]any{"trace": map[string]any{
		"span_count": len(spans), "duration_ms": last - first, "error_count": errs,
	}}}
}

// The span lists of the trace tests' fixtures.
var (
	pfCountSpans    = []pfSpan{{1000, 1500, false}, {1600, 2000, false}, {2100, 2200, false}, {2300, 2400, false}, {2500, 2600, false}}
	pfDurationSpans = []pfSpan{{1000, 1500, false}, {1600, 2800, false}, {2900, 2950, false}, {3000, 6000, false}, {6100, 6105, false}}
	pfErrorSpans    = []pfSpan{{1000, 1500, false}, {1600, 2000, false}, {2100, 2200, false}, {2300, 2400, false}, {2500, 2600, false}, {2700, 3000, false}}
)

func promptfooRows() []promptfooRow {
	tr := pfTrajectory()
	noTrace := &proctor.Sample{Output: "test output"}
	noArgs := &proctor.Sample{Output: "x", ToolCalls: []proctor.ToolCall{{Name: "search_orders"}}}
	return []promptfooRow{
		{test: "trajectory:tool-used passes when a required tool is present", sample: tr,
			spec: `{"type":"tool_called","name":"search_orders"}`, peer: "pass", want: "pass", agree: true},
		{test: "trajectory:tool-used supports count-based matching with patterns (search*, min 2, max 2)", sample: tr,
			spec: `{"type":"tool_sequence","names":["search*","search*"],"max":{"search*":2}}`, peer: "pass", want: "pass", agree: true},
		{test: "trajectory:tool-used supports inverse assertions (not compose_reply)", sample: tr,
			spec: `{"type":"tool_not_called","name":"compose_reply"}`, peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-used fails inverse list assertions when any forbidden tool is present", sample: tr,
			spec: `{"type":"all","graders":[{"type":"tool_not_called","name":"missing_tool"},{"type":"tool_not_called","name":"compose_reply"}]}`,
			peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-sequence passes when tools are observed in order", sample: tr,
			spec: `{"type":"tool_sequence","names":["search_orders","compose_reply"]}`, peer: "pass", want: "pass", agree: true},
		{test: "trajectory:tool-sequence fails exact mode when there are additional tools", sample: tr,
			spec: `{"type":"tool_sequence","names":["search_orders","compose_reply"],"mode":"exact"}`, peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-sequence fails exact mode (as trajectory_match strict, arguments ignored)", sample: tr,
			spec: `{"type":"trajectory_match","args":"ignore","expected":[{"name":"search_orders"},{"name":"compose_reply"}]}`, peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-sequence rejects object steps without a name or pattern", sample: tr,
			spec: `{"type":"tool_sequence","names":[{"type":"tool"},"compose_reply"]}`, peer: "error", want: "error", agree: true},
		{test: "trajectory:tool-args-match passes when a tool call contains the expected argument subset", sample: tr,
			spec: `{"type":"trajectory_match","mode":"superset","args":"superset","expected":[{"name":"search_orders","arguments":{"order_id":"123"}}]}`,
			peer: "pass", want: "pass", agree: true},
		{test: "trajectory:tool-args-match supports exact mode (pattern compose_* given as its one match)", sample: tr,
			spec: `{"type":"trajectory_match","mode":"superset","args":"exact","expected":[{"name":"compose_reply","arguments":{"tone":"friendly","citations":["doc_1","doc_2"]}}]}`,
			peer: "pass", want: "pass", agree: true},
		{test: "trajectory:tool-args-match fails when no matching tool arguments satisfy the expectation", sample: tr,
			spec: `{"type":"trajectory_match","mode":"superset","args":"superset","expected":[{"name":"search_orders","arguments":{"order_id":"999"}}]}`,
			peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-args-match fails when the tool is present but no arguments were captured", sample: noArgs,
			spec: `{"type":"trajectory_match","mode":"superset","args":"superset","expected":[{"name":"search_orders","arguments":{"order_id":"123"}}]}`,
			peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-args-match supports inverse assertions", sample: tr,
			spec: `{"type":"not","grader":{"type":"trajectory_match","mode":"superset","args":"superset","expected":[{"name":"search_orders","arguments":{"order_id":"123"}}]}}`,
			peer: "fail", want: "fail", agree: true},
		{test: "trajectory:tool-args-match rejects values without args", sample: tr,
			spec: `{"type":"trajectory_match","mode":"superset","args":"superset","expected":[{"name":"search_orders"}]}`,
			peer: "error", want: "pass", agree: false,
			why: "proctor's expected calls take absent arguments as {} (docs/spec.md), which every call's arguments contain"},
		{test: "trajectory:tool-args-match rejects invalid mode values (excat)", sample: tr,
			spec: `{"type":"trajectory_match","args":"excat","expected":[{"name":"search_orders"}]}`, peer: "error", want: "error", agree: true},

		{test: "trace-span-count should pass when span count is within min and max range (*, 3-10)", sample: pfTrace(pfCountSpans...),
			spec: `{"type":"trace_spans","max_count":10}`, peer: "pass", want: "pass", agree: true},
		{test: "trace-span-count should handle empty trace spans (*, max 0)", sample: pfTrace(),
			spec: `{"type":"trace_spans","max_count":0}`, peer: "pass", want: "pass", agree: true},
		{test: "trace-span-count should fail when no trace data is available", sample: noTrace,
			spec: `{"type":"trace_spans","max_count":1}`, peer: "fail", want: "not graded", agree: false,
			why: "proctor grades a sample without a trace as not graded, with the reason, rather than failed"},

		{test: "trace-span-duration should pass when all spans are within duration limit (1500)",
			sample: pfTrace(pfSpan{0, 100, false}, pfSpan{100, 500, false}, pfSpan{500, 1000, false}),
			spec:   `{"type":"trace_spans","max_duration_ms":1500}`, peer: "pass", want: "pass", agree: true,
			why: "proctor bounds the whole trace (1000 ms here), promptfoo each span"},
		{test: "trace-span-duration should fail when some spans exceed duration limit (1000)", sample: pfTrace(pfDurationSpans...),
			spec: `{"type":"trace_spans","max_duration_ms":1000}`, peer: "fail", want: "fail", agree: true,
			why: "the trace lasts 5105 ms"},
		{test: "trace-span-duration should show top 3 slowest spans when limit exceeded (100)", sample: pfTrace(pfDurationSpans...),
			spec: `{"type":"trace_spans","max_duration_ms":100}`, peer: "fail", want: "fail", agree: true},
		{test: "trace-span-duration should handle empty trace spans", sample: pfTrace(),
			spec: `{"type":"trace_spans","max_duration_ms":1000}`, peer: "pass", want: "pass", agree: true},
		{test: "trace-span-duration should fail when no trace data is available", sample: noTrace,
			spec: `{"type":"trace_spans","max_duration_ms":1000}`, peer: "error", want: "not graded", agree: true,
			why: "neither passes it"},
		{test: "trace-span-duration should throw error for missing max property", sample: pfTrace(pfDurationSpans...),
			spec: `{"type":"trace_spans"}`, peer: "error", want: "error", agree: true},

		{test: "trace-error-spans should pass when no errors exist and max_count is 0",
			sample: pfTrace(pfSpan{0, 100, false}, pfSpan{100, 200, false}),
			spec:   `{"type":"trace_spans","max_errors":0}`, peer: "pass", want: "pass", agree: true},
		{test: "trace-error-spans should fail when errors exceed max_count (2)", sample: pfTrace(pfErrorSpans...),
			spec: `{"type":"trace_spans","max_errors":2}`, peer: "fail", want: "pass", agree: false,
			why: "proctor counts spans whose OpenTelemetry status is ERROR; promptfoo also guesses from HTTP codes, error attributes and status messages, which none of these spans' statuses say"},
		{test: "trace-error-spans should detect errors by status code (500, 403)",
			sample: pfTrace(pfSpan{0, 100, false}, pfSpan{100, 200, false}),
			spec:   `{"type":"trace_spans","max_errors":0}`, peer: "fail", want: "pass", agree: false,
			why: "an HTTP status code is not an OpenTelemetry span status"},
		{test: "trace-error-spans should detect errors by attributes",
			sample: pfTrace(pfSpan{0, 100, false}, pfSpan{100, 200, false}),
			spec:   `{"type":"trace_spans","max_errors":0}`, peer: "fail", want: "pass", agree: false,
			why: "an error attribute is not an OpenTelemetry span status"},
		{test: "trace-error-spans should detect errors by status message",
			sample: pfTrace(pfSpan{0, 100, false}, pfSpan{100, 200, false}),
			spec:   `{"type":"trace_spans","max_errors":0}`, peer: "fail", want: "pass", agree: false,
			why: "proctor does not read failure from a status message's words"},
		{test: "trace-error-spans should fail when no trace data is available", sample: noTrace,
			spec: `{"type":"trace_spans","max_errors":0}`, peer: "error", want: "not graded", agree: true,
			why: "neither passes it"},
		{test: "trace-error-spans should handle empty trace spans", sample: pfTrace(),
			spec: `{"type":"trace_spans","max_errors":0}`, peer: "pass", want: "pass", agree: true},
		{test: "trace-error-spans should default to max_count 0 when no value specified", sample: pfTrace(pfErrorSpans...),
			spec: `{"type":"trace_spans"}`, peer: "fail", want: "error", agree: false,
			why: "trace_spans has no default bound: a spec without one is refused"},
	}
}

// pfOutcome is how a row's result reads: the spec refused, or the grade's
// status.
func pfOutcome(c *proctor.Compiler, r promptfooRow) string {
	ch, err := c.Compile([]byte(r.spec))
	if err != nil {
		return "error"
	}
	switch g := ch.Grade(context.Background(), r.sample); g.Status {
	case proctor.StatusPassed:
		return "pass"
	case proctor.StatusFailed:
		return "fail"
	default:
		return "not graded"
	}
}

// TestPromptfooPeer checks proctor's result on each ported row, that a
// row marked as agreeing does agree (promptfoo's throw matches a refused
// spec or a not-graded sample: neither passes), and logs the tally.
func TestPromptfooPeer(t *testing.T) {
	c := proctor.NewCompiler(agent.Types())
	agreeing := 0
	rows := promptfooRows()
	for _, r := range rows {
		t.Run(r.test, func(t *testing.T) {
			got := pfOutcome(c, r)
			if got != r.want {
				t.Fatalf("%s: got %s, want %s", r.spec, got, r.want)
			}
			same := got == r.peer || (r.peer == "error" && got == "not graded")
			if same != r.agree {
				t.Errorf("agree = %v, but promptfoo says %s and proctor %s", r.agree, r.peer, got)
			}
			if !r.agree && r.why == "" {
				t.Error("a disagreeing row must say why")
			}
		})
		if r.agree {
			agreeing++
		}
	}
	t.Logf("promptfoo peer rows: %d, agree: %d", len(rows), agreeing)
}

func pfCall(name, args string) proctor.ToolCall {
	return proctor.ToolCall{Name: name, Arguments: []byte(args)}
}
