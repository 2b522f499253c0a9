package otlp

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/proctorhq/proctor"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The GenAI semantic convention attributes the reader reads.
const (
	attrOperation    = "gen_ai.operation.name"
	attrToolName     = "gen_ai.tool.name"
	attrToolArgs     = "gen_ai.tool.call.arguments"
	attrToolResult   = "gen_ai.tool.call.result"
	attrInputTokens  = "gen_ai.usage.input_tokens"
	attrOutputTokens = "gen_ai.usage.output_tokens"
	attrRequestModel = "gen_ai.request.model"
	attrRespModel    = "gen_ai.response.model"
	attrOutputMsgs   = "gen_ai.output.messages"
	attrErrorType    = "error.type"
)

// Trace is one trace read as a sample.
type Trace struct {
	// TraceID is the trace id, 32 hex digits.
	TraceID string
	// CaseID is the value of the reader's key attribute on the trace's
	// first span that has it; "" when none has.
	CaseID string
	// Sample is the trace as a sample: ID is CaseID, else TraceID.
	Sample proctor.Sample
	// Spans counts the trace's spans; Errors those with status ERROR.
	Spans, Errors int
	// Inferences counts its inference spans (chat, text_completion,
	// generate_content): the model calls, the agent's steps.
	Inferences int
	// Skipped counts its spans that do not follow the GenAI conventions
	// (no gen_ai.operation.name, an unknown operation, an execute_tool span
	// without gen_ai.tool.name, token usage that is not a whole number
	// >= 0). They still count in Spans, Errors and the duration.
	Skipped int
	// DurationMS is the trace's duration: its last span end less its
	// first span start, in milliseconds.
	DurationMS float64
}

// building is an open trace: what has been read of its spans so far.
type building struct {
	id, caseID         string
	rooted             bool
	first, last        uint64
	spans, errors, inf int
	skipped            int
	in, out            usage // over inference spans
	agentIn, agentOut  usage // over invoke_agent spans
	model, output      string
	modelAt, outputAt  uint64
	calls              []timedCall
}

type usage struct {
	n  float64
	ok bool
}

func (u *usage) add(v float64) { u.n += v; u.ok = true }

type timedCall struct {
	start uint64
	call  proctor.ToolCall
}

// add reads one span into b; it reports false when the span does not
// follow the GenAI conventions.
func (b *building) add(sp ptrace.Span, key string) bool {
	start, end := uint64(sp.StartTimestamp()), uint64(sp.EndTimestamp())
	if b.spans == 0 || start < b.first {
		b.first = start
	}
	b.last = max(b.last, end)
	b.spans++
	failed := sp.Status().Code() == ptrace.StatusCodeError
	if failed {
		b.errors++
	}
	if sp.ParentSpanID().IsEmpty() {
		b.rooted = true
	}
	attrs := sp.Attributes()
	if b.caseID == "" {
		if v, ok := attrs.Get(key); ok {
			b.caseID = v.AsString()
		}
	}
	op, ok := attrs.Get(attrOperation)
	if !ok || op.Type() != pcommon.ValueTypeStr {
		return false
	}
	switch op.Str() {
	case "execute_tool":
		return b.addTool(attrs, start, failed, sp.Status().Message())
	case "chat", "text_completion", "generate_content":
		b.inf++
		b.readModel(attrs, end)
		return addUsage(attrs, &b.in, &b.out)
	case "invoke_agent":
		return addUsage(attrs, &b.agentIn, &b.agentOut)
	case "create_agent", "embeddings", "retrieval":
		return true
	}
	return false
}

// addTool reads an execute_tool span as a tool call. A failed call that
// recorded no result (the conventions make it opt-in) takes the span's
// status message, else its error.type, as its result, so a reason can
// say why it failed.
func (b *building) addTool(attrs pcommon.Map, start uint64, failed bool, status string) bool {
	name, ok := attrs.Get(attrToolName)
	if !ok || name.AsString() == "" {
		return false
	}
	c := proctor.ToolCall{Name: name.AsString(), IsError: failed}
	errType, typed := attrs.Get(attrErrorType)
	if typed {
		c.IsError = true
	}
	if v, ok := attrs.Get(attrToolArgs); ok {
		c.Arguments = jsonValue(v)
	}
	if v, ok := attrs.Get(attrToolResult); ok {
		c.Result = jsonValue(v)
	}
	if c.IsError && c.Result == nil {
		why := status
		if why == "" && typed {
			why = errType.AsString()
		}
		if why != "" {
			c.Result, _ = json.Marshal(why)
		}
	}
	b.calls = append(b.calls, timedCall{start: start, call: c})
	return true
}

// readModel keeps the model and output text of the inference span that
// ended last.
func (b *building) readModel(attrs pcommon.Map, end uint64) {
	m, ok := attrs.Get(attrRespModel)
	if !ok || m.AsString() == "" {
		m, ok = attrs.Get(attrRequestModel)
	}
	if ok && m.AsString() != "" && end >= b.modelAt {
		b.model, b.modelAt = m.AsString(), end
	}
	if v, ok := attrs.Get(attrOutputMsgs); ok && end >= b.outputAt {
		if text, ok := assistantText(v.AsString()); ok {
			b.output, b.outputAt = text, end
		}
	}
}

// addUsage adds the span's token counts; it reports false for a count
// that is not a whole number >= 0, which is then not added.
func addUsage(attrs pcommon.Map, in, out *usage) bool {
	good := true
	for _, u := range []struct {
		key string
		to  *usage
	}{{attrInputTokens, in}, {attrOutputTokens, out}} {
		v, ok := attrs.Get(u.key)
		if !ok {
			continue
		}
		n, ok := tokenCount(v)
		if !ok {
			good = false
			continue
		}
		u.to.add(n)
	}
	return good
}

func tokenCount(v pcommon.Value) (float64, bool) {
	switch v.Type() {
	case pcommon.ValueTypeInt:
		return float64(v.Int()), v.Int() >= 0
	case pcommon.ValueTypeDouble:
		d := v.Double()
		return d, d >= 0 && d == float64(int64(d))
	}
	return 0, false
}

// jsonValue is an attribute as JSON: a string holding JSON is that JSON,
// any other string is a JSON string, a map or slice its JSON form.
func jsonValue(v pcommon.Value) json.RawMessage {
	if v.Type() == pcommon.ValueTypeStr {
		s := strings.TrimSpace(v.Str())
		if s != "" && json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
	}
	b, err := json.Marshal(v.AsRaw())
	if err != nil {
		b, _ = json.Marshal(v.AsString())
	}
	return b
}

// assistantText returns the text parts of the last assistant message in
// a gen_ai.output.messages value ([{role, parts: [{type, content}]}]).
func assistantText(s string) (string, bool) {
	var msgs []struct {
		Role  string `json:"role"`
		Parts []struct {
			Type    string `json:"type"`
			Content any    `json:"content"`
		} `json:"parts"`
	}
	if json.Unmarshal([]byte(s), &msgs) != nil {
		return "", false
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "assistant" {
			continue
		}
		var sb strings.Builder
		for _, p := range msgs[i].Parts {
			if t, ok := p.Content.(string); ok && p.Type == "text" {
				sb.WriteString(t)
			}
		}
		return sb.String(), true
	}
	return "", false
}

// trace builds the sample.
func (b *building) trace() *Trace {
	slices.SortStableFunc(b.calls, func(x, y timedCall) int { return cmp.Compare(x.start, y.start) })
	t := &Trace{TraceID: b.id, CaseID: b.caseID, Spans: b.spans, Errors: b.errors, Inferences: b.inf, Skipped: b.skipped}
	if b.last >= b.first {
		t.DurationMS = float64(b.last-b.first) / 1e6
	}
	s := &t.Sample
	s.ID = cmp.Or(b.caseID, b.id)
	s.Output = b.output
	s.Model.Name = b.model
	s.Metrics.LatencyMS = proctor.Ptr(t.DurationMS)
	in, out := b.in, b.out
	if !in.ok && !out.ok {
		in, out = b.agentIn, b.agentOut
	}
	if in.ok {
		s.Metrics.InputTokens = proctor.Ptr(in.n)
	}
	if out.ok {
		s.Metrics.OutputTokens = proctor.Ptr(out.n)
	}
	if in.ok || out.ok {
		s.Metrics.TotalTokens = proctor.Ptr(in.n + out.n)
	}
	for _, c := range b.calls {
		s.ToolCalls = append(s.ToolCalls, c.call)
	}
	s.Item = map[string]any{TraceItemKey: map[string]any{
		"trace_id": b.id, "span_count": t.Spans, "error_count": t.Errors, "duration_ms": t.DurationMS,
		"inference_count": t.Inferences, "skipped_spans": t.Skipped,
	}}
	return t
}
