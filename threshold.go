package proctor

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/proctorhq/proctor/internal/kit"
)

// measure reads one measurement: not graded (with a reason naming the
// field) when it is absent, negative, NaN or infinite, never zero.
func measure(field string, v *float64) (float64, Grade, bool) {
	switch {
	case v == nil:
		return 0, NotGradedf("metrics.%s was not measured", field), false
	case math.IsNaN(*v) || math.IsInf(*v, 0):
		return 0, NotGradedf("metrics.%s is %v, not a measurement", field, *v), false
	case *v < 0:
		return 0, NotGradedf("metrics.%s is negative (%v), not a measurement", field, *v), false
	}
	return *v, Grade{}, true
}

// ceiling passes when the measurement is at most max.
func ceiling(field string, v *float64, limit float64, unit string) Grade {
	got, ng, ok := measure(field, v)
	if !ok {
		return ng
	}
	if got <= limit {
		return Pass("")
	}
	return Failf("metrics.%s is %s%s, over the limit of %s%s", field, kit.Num(got), unit, kit.Num(limit), unit)
}

// LatencyThresholdOptions configure [NewLatencyThreshold].
type LatencyThresholdOptions struct {
	// Name is shown in results; default "latency_threshold".
	Name string
}

// CostThresholdOptions configure [NewCostThreshold].
type CostThresholdOptions struct {
	// Name is shown in results; default "cost_threshold".
	Name string
}

// HTTPStatusOptions configure [NewHTTPStatus].
type HTTPStatusOptions struct {
	// Name is shown in results; default "http_status".
	Name string
}

// LatencyThreshold passes when the sample's latency_ms is at most the
// limit. An absent, negative, NaN or infinite latency is not graded, never
// read as zero. Immutable and safe for concurrent use.
type LatencyThreshold struct {
	name  string
	maxMS float64
}

var _ Grader = (*LatencyThreshold)(nil)

// NewLatencyThreshold returns a grader that passes when latency <= max. It
// returns an error for a negative max.
func NewLatencyThreshold(max time.Duration, opts LatencyThresholdOptions) (*LatencyThreshold, error) {
	if max < 0 {
		return nil, fmt.Errorf("proctor: latency_threshold: max %v is negative", max)
	}
	return &LatencyThreshold{name: cmp.Or(opts.Name, "latency_threshold"), maxMS: float64(max) / float64(time.Millisecond)}, nil
}

// Name returns the grader's name.
func (g *LatencyThreshold) Name() string { return g.name }

// Grade compares s.Metrics.LatencyMS with the limit.
func (g *LatencyThreshold) Grade(_ context.Context, s *Sample) Grade {
	return ceiling("latency_ms", s.Metrics.LatencyMS, g.maxMS, " ms")
}

// TokenField names the token count a [TokenThreshold] reads.
type TokenField uint8

const (
	// TokenOutput reads metrics.output_tokens (the default).
	TokenOutput TokenField = iota
	// TokenInput reads metrics.input_tokens.
	TokenInput
	// TokenTotal reads metrics.total_tokens.
	TokenTotal
)

var tokenFieldNames = [...]string{"output_tokens", "input_tokens", "total_tokens"}

// String returns the metric's name: "output_tokens", "input_tokens" or
// "total_tokens".
func (f TokenField) String() string {
	if int(f) < len(tokenFieldNames) {
		return tokenFieldNames[f]
	}
	return "token_field_" + strconv.Itoa(int(f))
}

// TokenThreshold passes when a token count is at most the limit. An absent,
// negative, NaN or infinite count is not graded; another field being
// present does not stand in for it. Immutable and safe for concurrent use.
type TokenThreshold struct {
	name  string
	max   float64
	field TokenField
}

// TokenThresholdOptions configure [NewTokenThreshold]. The zero value reads
// output_tokens.
type TokenThresholdOptions struct {
	// Field is the count compared: TokenOutput (default), TokenInput or
	// TokenTotal.
	Field TokenField
	// Name is shown in results; default "token_threshold".
	Name string
}

var _ Grader = (*TokenThreshold)(nil)

// NewTokenThreshold returns a grader that passes when the count <= max. It
// returns an error for a negative max or an unknown field.
func NewTokenThreshold(max int, opts TokenThresholdOptions) (*TokenThreshold, error) {
	if max < 0 {
		return nil, fmt.Errorf("proctor: token_threshold: max %d is negative", max)
	}
	if int(opts.Field) >= len(tokenFieldNames) {
		return nil, fmt.Errorf("proctor: token_threshold: unknown field %v", opts.Field)
	}
	return &TokenThreshold{name: cmp.Or(opts.Name, "token_threshold"), max: float64(max), field: opts.Field}, nil
}

// Name returns the grader's name.
func (g *TokenThreshold) Name() string { return g.name }

// Grade compares the chosen token count with the limit.
func (g *TokenThreshold) Grade(_ context.Context, s *Sample) Grade {
	var v *float64
	switch g.field {
	case TokenInput:
		v = s.Metrics.InputTokens
	case TokenTotal:
		v = s.Metrics.TotalTokens
	default:
		v = s.Metrics.OutputTokens
	}
	return ceiling(g.field.String(), v, g.max, " tokens")
}

// CostThreshold passes when the sample's cost_usd is at most the limit. An
// absent, negative, NaN or infinite cost is not graded. Immutable and safe
// for concurrent use.
type CostThreshold struct {
	name string
	max  float64
}

var _ Grader = (*CostThreshold)(nil)

// NewCostThreshold returns a grader that passes when cost_usd <= maxUSD. It
// returns an error for a negative, NaN or infinite limit.
func NewCostThreshold(maxUSD float64, opts CostThresholdOptions) (*CostThreshold, error) {
	if maxUSD < 0 || math.IsNaN(maxUSD) || math.IsInf(maxUSD, 0) {
		return nil, fmt.Errorf("proctor: cost_threshold: max_usd %v must be a finite number >= 0", maxUSD)
	}
	return &CostThreshold{name: cmp.Or(opts.Name, "cost_threshold"), max: maxUSD}, nil
}

// Name returns the grader's name.
func (g *CostThreshold) Name() string { return g.name }

// Grade compares s.Metrics.CostUSD with the limit.
func (g *CostThreshold) Grade(_ context.Context, s *Sample) Grade {
	return ceiling("cost_usd", s.Metrics.CostUSD, g.max, " USD")
}

// HTTPStatus passes when the sample's HTTP status is one of the expected
// codes. A sample with no recorded status (0) or one outside 100-599 is not
// graded. Immutable and safe for concurrent use.
type HTTPStatus struct {
	name string
	want []int
}

var _ Grader = (*HTTPStatus)(nil)

// NewHTTPStatus returns a grader that passes when the status is one of
// expected. It returns an error when expected is empty or holds a code
// outside 100-599.
func NewHTTPStatus(expected []int, opts HTTPStatusOptions) (*HTTPStatus, error) {
	if len(expected) == 0 {
		return nil, fmt.Errorf("proctor: http_status needs at least one expected code")
	}
	for _, c := range expected {
		if c < 100 || c > 599 {
			return nil, fmt.Errorf("proctor: http_status: %d is not an HTTP status code (100-599)", c)
		}
	}
	return &HTTPStatus{name: cmp.Or(opts.Name, "http_status"), want: slices.Clone(expected)}, nil
}

// Name returns the grader's name.
func (g *HTTPStatus) Name() string { return g.name }

// Grade compares s.HTTPStatus with the expected codes.
func (g *HTTPStatus) Grade(_ context.Context, s *Sample) Grade {
	switch {
	case s.HTTPStatus == 0:
		return NotGraded("http_status was not recorded")
	case s.HTTPStatus < 100 || s.HTTPStatus > 599:
		return NotGradedf("http_status %d is not an HTTP status code", s.HTTPStatus)
	case slices.Contains(g.want, s.HTTPStatus):
		return Pass("")
	}
	codes := make([]string, len(g.want))
	for i, c := range g.want {
		codes[i] = strconv.Itoa(c)
	}
	return Failf("http_status is %d, want %s", s.HTTPStatus, strings.Join(codes, " or "))
}

// latencyThresholdSpec builds a latency_threshold grader from its spec.
func latencyThresholdSpec(o *SpecOptions) (Grader, error) {
	ms := requireNonNegative(o, "max_ms")
	if err := o.Err(); err != nil {
		return nil, err
	}
	if ms > float64(math.MaxInt64/int64(time.Millisecond)) {
		o.Errorf("max_ms", "%v is too large", ms)
		return nil, o.Err()
	}
	return NewLatencyThreshold(time.Duration(ms*float64(time.Millisecond)), LatencyThresholdOptions{Name: o.Name()})
}

// tokenThresholdSpec builds a token_threshold grader from its spec.
func tokenThresholdSpec(o *SpecOptions) (Grader, error) {
	n, ok := o.OptInt("max")
	if !ok && o.Err() == nil {
		o.Errorf("max", "missing: token_threshold needs a maximum token count")
	} else if n < 0 {
		o.Errorf("max", "want an integer >= 0, got %d", n)
	}
	field := o.Enum("field", "output_tokens", tokenFieldNames[:]...)
	if err := o.Err(); err != nil {
		return nil, err
	}
	opts := TokenThresholdOptions{Name: o.Name(), Field: TokenField(slices.Index(tokenFieldNames[:], field))}
	return NewTokenThreshold(n, opts)
}

// costThresholdSpec builds a cost_threshold grader from its spec.
func costThresholdSpec(o *SpecOptions) (Grader, error) {
	usd := requireNonNegative(o, "max_usd")
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewCostThreshold(usd, CostThresholdOptions{Name: o.Name()})
}

// httpStatusSpec builds a http_status grader from its spec.
func httpStatusSpec(o *SpecOptions) (Grader, error) {
	r, ok := o.Raw("expected")
	var codes []int
	switch {
	case !ok:
		o.Errorf("expected", "missing: http_status needs a status code or an array of them")
	case kit.JSONKind(r) == "an array":
		if !o.Decode("expected", &codes) {
			break
		}
		if len(codes) == 0 {
			o.Errorf("expected", "must hold at least one status code")
		}
	default:
		if n, ok := o.OptInt("expected"); ok {
			codes = []int{n}
		}
	}
	for _, c := range codes {
		if c < 100 || c > 599 {
			o.Errorf("expected", "%d is not an HTTP status code (100-599)", c)
			break
		}
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewHTTPStatus(codes, HTTPStatusOptions{Name: o.Name()})
}

// requireNonNegative reads a number option that must be present and >= 0.
func requireNonNegative(o *SpecOptions, key string) float64 {
	if !o.Has(key) {
		o.Errorf(key, "missing: type %s needs it", o.Type())
		return 0
	}
	return nonNegative(o, key)
}

// thresholdSpecTypes documents the measurements family's spec types
// latency_threshold, token_threshold, cost_threshold and http_status, for
// [Compiler.SpecTypes], with their builders.
func thresholdSpecTypes() []SpecType {
	return []SpecType{
		{Name: "latency_threshold", Build: latencyThresholdSpec, Family: "measurements", Summary: "the sample's latency_ms is at most a limit",
			Options: []SpecOptionDoc{{"max_ms", "number >= 0", "(required)", "The most milliseconds allowed."}},
			Example: `{"type": "latency_threshold", "max_ms": 2000}`},
		{Name: "token_threshold", Build: tokenThresholdSpec, Family: "measurements", Summary: "a token count of the sample is at most a limit",
			Options: []SpecOptionDoc{
				{"max", "integer >= 0", "(required)", "The most tokens allowed."},
				{"field", "string", "output_tokens", "Which count: output_tokens, input_tokens or total_tokens."},
			},
			Example: `{"type": "token_threshold", "max": 500, "field": "total_tokens"}`},
		{Name: "cost_threshold", Build: costThresholdSpec, Family: "measurements", Summary: "the sample's cost_usd is at most a limit",
			Options: []SpecOptionDoc{{"max_usd", "number >= 0", "(required)", "The most US dollars allowed."}},
			Example: `{"type": "cost_threshold", "max_usd": 0.01}`},
		{Name: "http_status", Build: httpStatusSpec, Family: "measurements", Summary: "the sample's http_status is one of the expected codes",
			Options: []SpecOptionDoc{{"expected", "integer or integer array", "(required)", "The accepted status codes, 100 to 599."}},
			Example: `{"type": "http_status", "expected": [200, 201]}`},
	}
}
