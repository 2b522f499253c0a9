package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// TraceSpansOptions configure [NewTraceSpans]. A nil bound is not checked;
// at least one must be set.
type TraceSpansOptions struct {
	// MaxCount is the most spans the trace may have.
	MaxCount *int
	// MaxDurationMS is the longest the trace may last, in milliseconds.
	MaxDurationMS *float64
	// MaxErrors is the most spans with status ERROR.
	MaxErrors *int
	// Name is shown in results; default "trace_spans".
	Name string
}

// TraceSpans checks a trace's span count, duration and error spans, read
// from the sample's item.trace object (span_count, duration_ms,
// error_count), which the agent/otlp reader fills. A sample without it is
// not graded. Its reason names every bound that was passed. Immutable and
// safe for concurrent use.
type TraceSpans struct {
	name string
	opts TraceSpansOptions
}

var _ proctor.Grader = (*TraceSpans)(nil)

// NewTraceSpans returns a grader of the trace's spans. It returns an
// error when no bound is set or a bound is negative.
func NewTraceSpans(opts TraceSpansOptions) (*TraceSpans, error) {
	if opts.MaxCount == nil && opts.MaxDurationMS == nil && opts.MaxErrors == nil {
		return nil, errors.New("agent: trace_spans needs max_count, max_duration_ms or max_errors")
	}
	for _, v := range []*int{opts.MaxCount, opts.MaxErrors} {
		if v != nil && *v < 0 {
			return nil, fmt.Errorf("agent: trace_spans: bound %d is negative", *v)
		}
	}
	if opts.MaxDurationMS != nil && !(*opts.MaxDurationMS >= 0) {
		return nil, fmt.Errorf("agent: trace_spans: max_duration_ms %v is not >= 0", *opts.MaxDurationMS)
	}
	return &TraceSpans{name: cmp.Or(opts.Name, "trace_spans"), opts: opts}, nil
}

// Name returns the grader's name.
func (g *TraceSpans) Name() string { return g.name }

// Grade compares the trace's figures with the bounds.
func (g *TraceSpans) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	tr, ok := s.Item["trace"].(map[string]any)
	if !ok {
		return proctor.NotGraded("no trace on the sample (item.trace)")
	}
	var over []string
	ev := map[string]any{}
	check := func(key string, limit *float64) bool {
		if limit == nil {
			return true
		}
		v, ok := traceNumber(tr[key])
		if !ok {
			return false
		}
		ev[key] = v
		if v > *limit {
			over = append(over, fmt.Sprintf("%s %v > %v", key, v, *limit))
		}
		return true
	}
	for _, b := range []struct {
		key   string
		limit *float64
	}{{"span_count", intBound(g.opts.MaxCount)}, {"duration_ms", g.opts.MaxDurationMS}, {"error_count", intBound(g.opts.MaxErrors)}} {
		if !check(b.key, b.limit) {
			return proctor.NotGradedf("item.trace.%s is missing or not a number", b.key)
		}
	}
	if len(over) > 0 {
		return proctor.Fail("trace: " + strings.Join(over, ", ")).WithEvidence(ev)
	}
	return proctor.Pass("").WithEvidence(ev)
}

func intBound(v *int) *float64 {
	if v == nil {
		return nil
	}
	return proctor.Ptr(float64(*v))
}

// traceNumber reads a number as the reader stores it (int) or as JSON
// decodes it (float64).
func traceNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// traceSpansSpec builds a trace_spans spec: max_count, max_errors, max_duration_ms.
func traceSpansSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	var opts TraceSpansOptions
	if n, ok := o.OptInt("max_count"); ok {
		opts.MaxCount = &n
	}
	if n, ok := o.OptInt("max_errors"); ok {
		opts.MaxErrors = &n
	}
	if d, ok := o.OptFloat("max_duration_ms"); ok {
		opts.MaxDurationMS = &d
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	opts.Name = o.Name()
	g, err := NewTraceSpans(opts)
	if err != nil {
		o.Wrap("max_count", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}
