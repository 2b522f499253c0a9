package otlp_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// fileExporter is an OpenTelemetry SDK span exporter that writes each
// batch as one line of OTLP JSON, the collector file exporter's format,
// converting the SDK's spans to the collector's data model (pdata) and
// marshalling them with pdata's own JSON marshaler.
type fileExporter struct {
	mu sync.Mutex
	w  io.Writer
}

func (e *fileExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	for _, s := range spans {
		sp := ss.Spans().AppendEmpty()
		sp.SetName(s.Name())
		sp.SetTraceID(pcommon.TraceID(s.SpanContext().TraceID()))
		sp.SetSpanID(pcommon.SpanID(s.SpanContext().SpanID()))
		if s.Parent().IsValid() {
			sp.SetParentSpanID(pcommon.SpanID(s.Parent().SpanID()))
		}
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(s.StartTime()))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(s.EndTime()))
		if s.Status().Code == codes.Error {
			sp.Status().SetCode(ptrace.StatusCodeError)
			sp.Status().SetMessage(s.Status().Description)
		}
		for _, kv := range s.Attributes() {
			putAttr(sp.Attributes(), kv)
		}
	}
	var m ptrace.JSONMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, err = e.w.Write(append(b, '\n'))
	return err
}

func (e *fileExporter) Shutdown(context.Context) error { return nil }

func putAttr(m pcommon.Map, kv attribute.KeyValue) {
	k := string(kv.Key)
	switch kv.Value.Type() {
	case attribute.INT64:
		m.PutInt(k, kv.Value.AsInt64())
	case attribute.FLOAT64:
		m.PutDouble(k, kv.Value.AsFloat64())
	case attribute.BOOL:
		m.PutBool(k, kv.Value.AsBool())
	default:
		m.PutStr(k, kv.Value.Emit())
	}
}

// weatherAgent is a small service instrumented with the OpenTelemetry Go
// SDK as the GenAI conventions describe: an invoke_agent span over two chat
// spans and the execute_tool spans between them. With failCharge the
// charge tool fails.
func weatherAgent(ctx context.Context, tr trace.Tracer, caseID string, failCharge bool) {
	ctx, root := tr.Start(ctx, "invoke_agent weather", trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("proctor.case_id", caseID)))
	defer root.End()
	chat := func(in, out int, output string) {
		_, sp := tr.Start(ctx, "chat gpt-4.1", trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", "gpt-4.1"),
			attribute.String("gen_ai.response.model", "gpt-4.1-2025-04-14"),
			attribute.Int("gen_ai.usage.input_tokens", in), attribute.Int("gen_ai.usage.output_tokens", out)))
		if output != "" {
			sp.SetAttributes(attribute.String("gen_ai.output.messages",
				`[{"role": "assistant", "parts": [{"type": "text", "content": "`+output+`"}], "finish_reason": "stop"}]`))
		}
		sp.End()
	}
	tool := func(name, args, result string, fail bool) {
		_, sp := tr.Start(ctx, "execute_tool "+name, trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", name),
			attribute.String("gen_ai.tool.call.arguments", args), attribute.String("gen_ai.tool.call.result", result)))
		if fail {
			sp.SetStatus(codes.Error, result)
		}
		sp.End()
	}
	chat(120, 30, "")
	tool("get_weather", `{"city": "Paris"}`, `{"temp_c": 21}`, false)
	tool("charge", `{"amount": 2}`, "card declined", failCharge)
	_, db := tr.Start(ctx, "SELECT forecasts") // not a GenAI span
	db.End()
	chat(200, 12, "It is 21 degrees in Paris.")
}

// sdkTraces runs the agent for each case id through the SDK's batch span
// processor and returns the OTLP JSON lines it exported.
func sdkTraces(t testing.TB, cases map[string]bool) []byte {
	var buf bytes.Buffer
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(&fileExporter{w: &buf}, sdktrace.WithMaxExportBatchSize(4)))
	tr := tp.Tracer("weather-agent")
	for id, fail := range cases {
		weatherAgent(context.Background(), tr, id, fail)
	}
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
