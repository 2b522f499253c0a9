// Package otlp turns OpenTelemetry traces into proctor samples. It reads
// OTLP JSON as the collector's file exporter writes it, one
// ExportTraceServiceRequest object (resourceSpans → scopeSpans → spans) a
// line, decoding each line with the collector's own pdata unmarshaler, and
// reads the spans by the OpenTelemetry GenAI semantic conventions.
//
// A trace becomes one [proctor.Sample]: its execute_tool spans become the
// sample's tool calls, in order of start time, with their arguments,
// results and status (a span with status ERROR is a failed call); the
// token usage of its inference spans is summed into the sample's metrics;
// its duration (first start to last end) is the latency; the model is the
// response model, else the request model. Span counts go in the sample's
// item under "trace" (see [TraceItemKey]), for the trace_spans grader.
//
// The package is kept apart from the agent family so that only programs
// that read traces link pdata.
package otlp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// DefaultKey is the span attribute that names a trace's case, by default.
const DefaultKey = "proctor.case_id"

// TraceItemKey is the key of [proctor.Sample].Item under which a trace's
// span statistics are kept: an object with trace_id, span_count,
// error_count, duration_ms, inference_count and skipped_spans (the
// trace_spans grader of package agent reads it).
const TraceItemKey = "trace"

// DefaultMaxLine is the longest line [Reader] accepts by default, 64 MiB.
const DefaultMaxLine = 64 << 20

// ErrLine is wrapped by the error for a line that is not OTLP JSON.
var ErrLine = errors.New("otlp: line is not OTLP JSON traces")

// Options configure [NewReader]. The zero value reads the case id from
// proctor.case_id and accepts lines up to [DefaultMaxLine].
type Options struct {
	// Key is the span attribute whose value is the case id; "" means
	// [DefaultKey]. A trace with no such attribute is named by its trace
	// id.
	Key string
	// MaxLine is the longest line read, in bytes; 0 means
	// [DefaultMaxLine]. A longer line is an error.
	MaxLine int
}

// Reader reads traces from OTLP JSON lines, one trace at a time. Memory
// holds the current line and the traces still open: a trace is complete
// once the line holding its root span (the span with no parent) has been
// read, which is how the SDK's batching exports it (a root ends after its
// children). A span that arrives for a trace already returned is counted
// as skipped (late). Traces whose root never comes are returned at the
// end of the input, in the order they began. A Reader is not safe for
// concurrent use.
type Reader struct {
	sc      *bufio.Scanner
	key     string
	line    int
	open    map[string]*building
	order   []string // open trace ids, in order of first span
	ready   []*Trace
	done    *recent
	skipped int
	spans   int
	eof     bool
	err     error // the first read error, returned from then on
	unm     ptrace.JSONUnmarshaler
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader, opts Options) *Reader {
	limit := opts.MaxLine
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(limit, 64<<10)), limit)
	key := opts.Key
	if key == "" {
		key = DefaultKey
	}
	return &Reader{sc: sc, key: key, open: map[string]*building{}, done: newRecent(1 << 16)}
}

// Skipped returns how many spans read so far were skipped: spans that do
// not follow the GenAI conventions (see [Trace].Skipped), spans without a
// trace id, and spans that arrived after their trace was returned.
func (r *Reader) Skipped() int { return r.skipped }

// Spans returns how many spans have been read so far.
func (r *Reader) Spans() int { return r.spans }

// Next returns the next complete trace, or io.EOF after the last. A line
// that is not OTLP JSON is an error wrapping [ErrLine] that names the line;
// reading stops there, and Next returns that error from then on.
func (r *Reader) Next() (*Trace, error) {
	for len(r.ready) == 0 {
		if r.err != nil {
			return nil, r.err
		}
		if r.eof {
			return nil, io.EOF
		}
		r.err = r.readLine()
	}
	t := r.ready[0]
	r.ready[0] = nil
	r.ready = r.ready[1:]
	return t, nil
}

// readLine reads one line and queues the traces it completes; at the end
// of the input it queues every open trace.
func (r *Reader) readLine() error {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return fmt.Errorf("otlp: line %d: %w", r.line+1, err)
		}
		r.eof = true
		for _, id := range r.order {
			r.ready = append(r.ready, r.finish(id))
		}
		r.order = nil
		return nil
	}
	r.line++
	b := bytes.TrimSpace(r.sc.Bytes())
	if len(b) == 0 {
		return nil
	}
	if b[0] != '{' {
		return fmt.Errorf("%w: line %d: want a JSON object", ErrLine, r.line)
	}
	td, err := r.unm.UnmarshalTraces(b)
	if err != nil {
		return fmt.Errorf("%w: line %d: %w", ErrLine, r.line, err)
	}
	r.addTraces(td)
	kept := r.order[:0]
	for _, id := range r.order {
		if r.open[id].rooted {
			r.ready = append(r.ready, r.finish(id))
		} else {
			kept = append(kept, id)
		}
	}
	clear(r.order[len(kept):])
	r.order = kept
	return nil
}

// addTraces adds every span of td to its open trace.
func (r *Reader) addTraces(td ptrace.Traces) {
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		sss := rss.At(i).ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				r.addSpan(spans.At(k))
			}
		}
	}
}

func (r *Reader) addSpan(sp ptrace.Span) {
	r.spans++
	if sp.TraceID().IsEmpty() {
		r.skipped++ // no trace to put it in
		return
	}
	id := sp.TraceID().String()
	if r.done.has(id) {
		r.skipped++
		return
	}
	b := r.open[id]
	if b == nil {
		b = &building{id: id}
		r.open[id] = b
		r.order = append(r.order, id)
	}
	if !b.add(sp, r.key) {
		b.skipped++
		r.skipped++
	}
}

// finish removes the open trace id and returns it built.
func (r *Reader) finish(id string) *Trace {
	b := r.open[id]
	delete(r.open, id)
	r.done.add(id)
	return b.trace()
}

// recent is a set of the last n trace ids returned, so that late spans of
// a returned trace are recognised in bounded memory.
type recent struct {
	set  map[string]struct{}
	ring []string
	next int
}

func newRecent(n int) *recent {
	return &recent{set: map[string]struct{}{}, ring: make([]string, n)}
}

func (r *recent) has(id string) bool { _, ok := r.set[id]; return ok }

func (r *recent) add(id string) {
	if old := r.ring[r.next]; old != "" {
		delete(r.set, old)
	}
	r.ring[r.next] = id
	r.set[id] = struct{}{}
	r.next = (r.next + 1) % len(r.ring)
}
