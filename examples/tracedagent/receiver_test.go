package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// TestReceiverEncodings: the receiver reads what the SDK's exporter sends
// however it is configured - protobuf or JSON, gzip or not - into the
// same traces.
func TestReceiverEncodings(t *testing.T) {
	for name, opt := range map[string][]otlptracehttp.Option{
		"protobuf":      nil,
		"protobuf gzip": {otlptracehttp.WithCompression(otlptracehttp.GzipCompression)},
		"json":          {otlptracehttp.WithEncoding(otlptracehttp.EncodingJSON)},
		"json gzip":     {otlptracehttp.WithEncoding(otlptracehttp.EncodingJSON), otlptracehttp.WithCompression(otlptracehttp.GzipCompression)},
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			srv := httptest.NewServer(receiverMux(newReceiver(&buf)))
			defer srv.Close()
			ctx := t.Context()
			exp, err := otlptracehttp.New(ctx, append([]otlptracehttp.Option{otlptracehttp.WithEndpointURL(srv.URL + "/v1/traces")}, opt...)...)
			if err != nil {
				t.Fatal(err)
			}
			tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
			r, err := newAgent(tp.Tracer(tracerName)).answer(ctx, "boston-fahrenheit", demoQuestions[1].Text)
			if err != nil {
				t.Fatal(err)
			}
			if err := flush(ctx, tp); err != nil {
				t.Fatal(err)
			}
			srv.Close() // waits for the handlers: buf is written
			path := filepath.Join(t.TempDir(), "traces.jsonl")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			byCase, spans, skipped := readTraces(t, path)
			tr := byCase["boston-fahrenheit"]
			if len(tr) != 1 || skipped != 0 || spans != 1+r.ModelRequests+len(r.Tools) {
				t.Fatalf("%d traces, %d spans, %d skipped; want 1 trace of %d spans, none skipped", len(tr), spans, skipped, 1+r.ModelRequests+len(r.Tools))
			}
			calls := tr[0].Sample.ToolCalls
			if len(calls) != 2 || string(calls[1].Arguments) != `{"celsius":18,"to":"F"}` || string(calls[1].Result) != `{"unit":"F","value":64.4}` {
				t.Errorf("calls %+v", calls)
			}
			if got := *tr[0].Sample.Metrics.TotalTokens; got != float64(r.InputTokens+r.OutputTokens) {
				t.Errorf("total tokens %v, the agent counted %d", got, r.InputTokens+r.OutputTokens)
			}
		})
	}
}

// TestReceiverRefuses: what is not an OTLP/HTTP export request is
// refused with the status OTLP/HTTP names, and nothing is written.
func TestReceiverRefuses(t *testing.T) {
	var buf bytes.Buffer
	srv := httptest.NewServer(receiverMux(newReceiver(&buf)))
	defer srv.Close()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte{0}, maxRequest+1))
	zw.Close()
	for _, c := range []struct {
		name, method, contentType, encoding string
		body                                []byte
		status                              int
	}{
		{"GET", http.MethodGet, "", "", nil, http.StatusMethodNotAllowed},
		{"text", http.MethodPost, "text/plain", "", []byte("hi"), http.StatusUnsupportedMediaType},
		{"not protobuf", http.MethodPost, "application/x-protobuf", "", []byte{0xff, 0xff, 0xff}, http.StatusBadRequest},
		{"not JSON", http.MethodPost, "application/json", "", []byte("{"), http.StatusBadRequest},
		{"not gzip", http.MethodPost, "application/x-protobuf", "gzip", []byte("plain"), http.StatusBadRequest},
		{"brotli", http.MethodPost, "application/x-protobuf", "br", []byte("x"), http.StatusUnsupportedMediaType},
		{"too large", http.MethodPost, "application/x-protobuf", "gzip", gz.Bytes(), http.StatusRequestEntityTooLarge},
	} {
		req, err := http.NewRequestWithContext(t.Context(), c.method, srv.URL+"/v1/traces", bytes.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", c.contentType)
		if c.encoding != "" {
			req.Header.Set("Content-Encoding", c.encoding)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.status)
		}
	}
	srv.Close()
	if buf.Len() != 0 {
		t.Errorf("refused requests wrote %q", buf.String())
	}
}

// TestReceiverLine: one export request is one line, pdata's JSON of the
// request's traces, and the answer is an ExportTraceServiceResponse.
func TestReceiverLine(t *testing.T) {
	var buf bytes.Buffer
	srv := httptest.NewServer(receiverMux(newReceiver(&buf)))
	defer srv.Close()
	td := ptrace.NewTraces()
	sp := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetName("invoke_agent")
	sp.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
	sp.Attributes().PutInt("gen_ai.usage.input_tokens", 12)
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		resp, err := srv.Client().Post(srv.URL+"/v1/traces", "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-protobuf" || ptraceotlp.NewExportResponse().UnmarshalProto(b) != nil {
			t.Fatalf("status %d, content type %q, body %q", resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	srv.Close()
	var m ptrace.JSONMarshaler
	line, err := m.MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Repeat(string(line)+"\n", 2); buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}
