package otlp_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// otlpReceiver is an OTLP/HTTP trace receiver on loopback that appends
// each export request the SDK's own OTLP/HTTP exporter sends as one line
// of OTLP JSON, the collector file exporter's format: decoded with pdata's
// ptraceotlp, marshalled with pdata's JSON marshaler. Close the server
// before reading the buffer.
func otlpReceiver(t testing.TB, buf *bytes.Buffer) *httptest.Server {
	var mu sync.Mutex
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		if err == nil {
			err = req.UnmarshalProto(body)
		}
		var line []byte
		if err == nil {
			var m ptrace.JSONMarshaler
			line, err = m.MarshalTraces(req.Traces())
		}
		if err != nil {
			t.Errorf("receiver: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		buf.Write(append(line, '\n'))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
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
// processor and its OTLP/HTTP exporter, and returns the OTLP JSON lines
// the receiver wrote, one per export.
func sdkTraces(t testing.TB, cases map[string]bool) []byte {
	var buf bytes.Buffer
	srv := otlpReceiver(t, &buf)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp, sdktrace.WithMaxExportBatchSize(4)))
	tr := tp.Tracer("weather-agent")
	for id, fail := range cases {
		weatherAgent(context.Background(), tr, id, fail)
	}
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	return buf.Bytes()
}
