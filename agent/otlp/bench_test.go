package otlp_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
	"github.com/proctorhq/proctor/agent/otlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// benchLines writes n lines of OTLP JSON, each a batch of 4 traces of 6
// GenAI spans (an agent, two chats, three tool calls) as an instrumented
// service exports them.
func benchLines(w io.Writer, n int) (spans int) {
	bw := bufio.NewWriter(w)
	for l := range n {
		var ss []string
		for k := range 4 {
			tid := fmt.Sprintf("%032x", l*4+k+1)
			sp := func(id, parent string, attrs ...string) {
				ss = append(ss, span(tid, id, parent, 1_000_000*(len(ss)%6+1), 9_000_000, strings.Join(attrs, ","), ""))
			}
			for i, name := range []string{"search", "fetch", "answer"} {
				sp(fmt.Sprintf("%016x", i+2), "0000000000000001", str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", name),
					str("gen_ai.tool.call.arguments", `{"q": "refund policy for order 12345", "limit": 5}`), str("gen_ai.tool.call.result", `{"hits": ["a long passage of retrieved text"]}`))
			}
			for i := range 2 {
				sp(fmt.Sprintf("%016x", i+8), "0000000000000001", str("gen_ai.operation.name", "chat"), str("gen_ai.request.model", "gpt-4.1"),
					num("gen_ai.usage.input_tokens", 812), num("gen_ai.usage.output_tokens", 64))
			}
			sp("0000000000000001", "", str("gen_ai.operation.name", "invoke_agent"), str("proctor.case_id", "case-"+strconv.Itoa(l*4+k)))
		}
		bw.WriteString(line(ss...))
		spans += len(ss)
	}
	bw.Flush()
	return spans
}

// BenchmarkUnmarshal is the bare cost: pdata's JSON unmarshal of every
// line, with the same line scanner the Reader uses.
func BenchmarkUnmarshal(b *testing.B) {
	var buf bytes.Buffer
	spans := benchLines(&buf, 250)
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	var u ptrace.JSONUnmarshaler
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(buf.Bytes()))
		sc.Buffer(nil, otlp.DefaultMaxLine)
		n := 0
		for sc.Scan() {
			td, err := u.UnmarshalTraces(sc.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			n += td.SpanCount()
		}
		if n != spans {
			b.Fatalf("%d spans, want %d", n, spans)
		}
	}
	b.ReportMetric(float64(spans)*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
}

// BenchmarkReadAndGrade reads the same lines into samples and grades each
// with trajectory_match, tool_status, trace_spans and token_threshold.
func BenchmarkReadAndGrade(b *testing.B) {
	var buf bytes.Buffer
	spans := benchLines(&buf, 250)
	c := proctor.NewCompiler(agent.Types())
	var checks []proctor.Check
	for _, spec := range []string{
		`{"type": "trajectory_match", "mode": "superset", "args": "ignore", "expected": [{"name": "search"}, {"name": "answer"}]}`,
		`{"type": "tool_status"}`, `{"type": "trace_spans", "max_count": 10}`, `{"type": "token_threshold", "max": 5000, "field": "total_tokens"}`,
	} {
		ch, err := c.Compile([]byte(spec))
		if err != nil {
			b.Fatal(err)
		}
		checks = append(checks, ch)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r := otlp.NewReader(bytes.NewReader(buf.Bytes()), otlp.Options{})
		for {
			t, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			for _, ch := range checks {
				if g := ch.Grade(context.Background(), &t.Sample); g.Status != proctor.StatusPassed {
					b.Fatalf("%s: %v", t.Sample.ID, g)
				}
			}
		}
		if r.Spans() != spans {
			b.Fatalf("%d spans, want %d", r.Spans(), spans)
		}
	}
	b.ReportMetric(float64(spans)*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
}

// TestReaderPeakMemory reads a large generated file (PROCTOR_OTLP_MB
// megabytes; skipped when unset) and reports the peak heap in use, sampled
// every 1000 traces: it stays flat as the file grows.
func TestReaderPeakMemory(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("PROCTOR_OTLP_MB"))
	if mb <= 0 {
		t.Skip("set PROCTOR_OTLP_MB to the file size to read")
	}
	path := filepath.Join(t.TempDir(), "traces.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var probe bytes.Buffer
	benchLines(&probe, 1)
	spans := benchLines(f, mb<<20/probe.Len())
	f.Close()
	st, _ := os.Stat(path)
	f, _ = os.Open(path)
	defer f.Close()
	runtime.GC()
	var ms runtime.MemStats
	var peak uint64
	r := otlp.NewReader(f, otlp.Options{})
	for n := 0; ; n++ {
		if _, err := r.Next(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		if n%1000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}
	if r.Spans() != spans {
		t.Fatalf("%d spans, want %d", r.Spans(), spans)
	}
	t.Logf("file %d MB, %d spans: peak heap in use %.1f MB", st.Size()>>20, spans, float64(peak)/(1<<20))
}
