package agent

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/metric"

	"github.com/ohler55/ojg/jp"
)

// toolCallNames is the evidence tool graders attach: the names of the
// calls the sample made, in order.
func toolCallNames(s *proctor.Sample) []string { return callNames(s.ToolCalls) }

// callNames returns the calls' names, in order.
func callNames(calls []proctor.ToolCall) []string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	return names
}

// observed describes the sample's tool calls for a reason: "calls: [a, b]"
// or "no tool calls".
func observed(s *proctor.Sample) string {
	if len(s.ToolCalls) == 0 {
		return "no tool calls"
	}
	return "calls: [" + strings.Join(toolCallNames(s), ", ") + "]"
}

// toolFail is a failed grade whose reason ends with the observed calls and
// whose evidence lists them.
func toolFail(s *proctor.Sample, format string, args ...any) proctor.Grade {
	g := proctor.Failf(format+"; "+observed(s), args...)
	g.Evidence = map[string]any{"tool_calls": toolCallNames(s)}
	return g
}

func countCalls(s *proctor.Sample, name string) int {
	n := 0
	for _, c := range s.ToolCalls {
		if c.Name == name {
			n++
		}
	}
	return n
}

// ToolCalled passes when the sample called the named tool at least
// MinTimes times (default 1). A failure's reason shows the observed call
// sequence. Tool names compare exactly. Immutable and safe for concurrent
// use.
type ToolCalled struct {
	name string
	tool string
	min  int
}

// ToolCalledOptions configure [NewToolCalled]. The zero value requires one
// call.
type ToolCalledOptions struct {
	// MinTimes is the fewest calls that pass; 0 means 1.
	MinTimes int
	// Name is shown in results; default "tool_called".
	Name string
}

var _ proctor.Grader = (*ToolCalled)(nil)

// NewToolCalled returns a grader that passes when tool was called. It
// returns an error for an empty tool name or a negative MinTimes.
func NewToolCalled(tool string, opts ToolCalledOptions) (*ToolCalled, error) {
	if tool == "" {
		return nil, refuse("tool_called needs a tool name")
	}
	if opts.MinTimes < 0 {
		return nil, refuse("tool_called: min_times %d is negative", opts.MinTimes)
	}
	return &ToolCalled{name: cmp.Or(opts.Name, "tool_called"), tool: tool, min: max(opts.MinTimes, 1)}, nil
}

// Name returns the grader's name.
func (g *ToolCalled) Name() string { return g.name }

// Grade counts the calls to the tool.
func (g *ToolCalled) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	n := countCalls(s, g.tool)
	if n >= g.min {
		return proctor.Pass("")
	}
	if g.min == 1 {
		return toolFail(s, "tool %q was not called", g.tool)
	}
	return toolFail(s, "tool %q was called %d times, want at least %d", g.tool, n, g.min)
}

// ToolNotCalled passes when the sample never called the named tool. A
// failure's reason shows the observed call sequence. Immutable and safe for
// concurrent use.
type ToolNotCalled struct {
	name string
	tool string
}

// ToolNotCalledOptions configure [NewToolNotCalled].
type ToolNotCalledOptions struct {
	// Name is shown in results; default "tool_not_called".
	Name string
}

var _ proctor.Grader = (*ToolNotCalled)(nil)

// NewToolNotCalled returns a grader that fails when tool was called. It
// returns an error for an empty tool name.
func NewToolNotCalled(tool string, opts ToolNotCalledOptions) (*ToolNotCalled, error) {
	if tool == "" {
		return nil, refuse("tool_not_called needs a tool name")
	}
	return &ToolNotCalled{name: cmp.Or(opts.Name, "tool_not_called"), tool: tool}, nil
}

// Name returns the grader's name.
func (g *ToolNotCalled) Name() string { return g.name }

// Grade looks for a call to the tool.
func (g *ToolNotCalled) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	if n := countCalls(s, g.tool); n > 0 {
		return toolFail(s, "tool %q was called %d time%s", g.tool, n, kit.Plural(n))
	}
	return proctor.Pass("")
}

// SequenceMode says how [ToolSequence] compares the calls with its names.
type SequenceMode uint8

const (
	// SequenceSubsequence passes when the names appear in order among the
	// calls, other calls allowed before, between and after (the default;
	// the spec word "in_order" means the same).
	SequenceSubsequence SequenceMode = iota
	// SequenceExact passes when the calls are exactly the names, in order
	// (spec word "exact" or "strict").
	SequenceExact
	// SequenceAnyOrder passes when the calls are the names in some order:
	// as many calls as names, each name matched by a different call.
	SequenceAnyOrder
)

// String returns the spec word: "subsequence", "exact" or "any_order"; an
// unknown mode prints as mode_N.
func (m SequenceMode) String() string {
	switch m {
	case SequenceSubsequence:
		return "subsequence"
	case SequenceExact:
		return "exact"
	case SequenceAnyOrder:
		return "any_order"
	}
	return "mode_" + strconv.Itoa(int(m))
}

// MarshalText encodes m as [SequenceMode.String] does.
func (m SequenceMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "subsequence", "exact" or "any_order".
func (m *SequenceMode) UnmarshalText(b []byte) error {
	for v := SequenceSubsequence; v <= SequenceAnyOrder; v++ {
		if v.String() == string(b) {
			*m = v
			return nil
		}
	}
	return fmt.Errorf("agent: unknown mode %q (want subsequence, exact, any_order)", b)
}

// ToolSequence passes when the sample's tool calls follow the names: as a
// subsequence (the default), exactly, or in any order. An empty list of
// names means no tool calls are expected. Names may be glob patterns
// (path.Match syntax: "search_*", "get_?"). Max caps the calls matching a
// pattern, whatever the mode.
//
// With Calls instead of names, the calls' arguments count too and the
// grade is scored as ragas' ToolCallAccuracy scores it
// ([metric.ToolCallAccuracy]):
// exact mode is its strict order, any-order mode its flexible order, and
// the score must reach Threshold (default 1).
//
// A failure's reason shows the observed call sequence. Immutable and safe
// for concurrent use.
type ToolSequence struct {
	name      string
	names     []string
	mode      SequenceMode
	caps      []toolCap         // sorted by pattern, so the first broken cap reported is fixed
	calls     []metric.ToolCall // the expected calls, decoded once
	threshold float64
}

// ToolSequenceOptions configure [NewToolSequence]. The zero value matches a
// subsequence.
type ToolSequenceOptions struct {
	// Mode is SequenceSubsequence (default), SequenceExact or
	// SequenceAnyOrder.
	Mode SequenceMode
	// Max caps the number of calls whose name matches each key (a name or
	// glob pattern).
	Max map[string]int
	// Calls, when not nil, are the expected calls with their arguments;
	// names must then be empty, and Mode SequenceExact or SequenceAnyOrder.
	Calls []proctor.ToolCall
	// Threshold is the ToolCallAccuracy score Calls must reach; nil
	// means 1.
	Threshold *float64
	// Name is shown in results; default "tool_sequence".
	Name string
}

var _ proctor.Grader = (*ToolSequence)(nil)

// NewToolSequence returns a grader for the call order names; empty names
// (and no Calls) expect no tool calls. It returns an error for an empty
// name or pattern, an unknown mode, a negative max, a Threshold outside
// [0, 1] (or NaN), or Calls given with names or in subsequence mode.
func NewToolSequence(names []string, opts ToolSequenceOptions) (*ToolSequence, error) {
	if slices.Contains(names, "") {
		return nil, refuse("tool_sequence: empty tool name")
	}
	if opts.Mode > SequenceAnyOrder {
		return nil, refuse("tool_sequence: unknown mode %d", opts.Mode)
	}
	for k, n := range opts.Max {
		if k == "" || n < 0 {
			return nil, refuse("tool_sequence: max %q: %d: want a tool name and a count >= 0", k, n)
		}
	}
	th, err := kit.UnitThreshold(opts.Threshold, 1)
	if err != nil {
		return nil, refuse("tool_sequence %w", err)
	}
	g := &ToolSequence{name: cmp.Or(opts.Name, "tool_sequence"), names: slices.Clone(names), mode: opts.Mode,
		threshold: th}
	for _, k := range slices.Sorted(maps.Keys(opts.Max)) {
		g.caps = append(g.caps, toolCap{k, opts.Max[k]})
	}
	if opts.Calls != nil {
		if len(names) > 0 {
			return nil, refuse("tool_sequence: give names or calls, not both")
		}
		if opts.Mode == SequenceSubsequence {
			return nil, refuse("tool_sequence: calls with arguments need mode exact or any_order")
		}
		for i, c := range opts.Calls {
			if c.Name == "" {
				return nil, refuse("tool_sequence: call %d has no name", i+1)
			}
		}
		g.calls = metricCalls(opts.Calls)
	}
	return g, nil
}

// Name returns the grader's name.
func (g *ToolSequence) Name() string { return g.name }

// Grade compares the order of s.ToolCalls with the names.
func (g *ToolSequence) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	for _, c := range g.caps {
		n := 0
		for _, call := range s.ToolCalls {
			if globMatch(c.pattern, call.Name) {
				n++
			}
		}
		if n > c.max {
			return toolFail(s, "%d calls match %q, more than max %d", n, c.pattern, c.max)
		}
	}
	if g.calls != nil {
		score := metric.ToolCallAccuracy(metricCalls(s.ToolCalls), g.calls, g.mode == SequenceExact)
		gr := proctor.Scored(score, g.threshold, kit.ScoreReason("tool call accuracy", score, g.threshold, 0)).WithEvidence(map[string]any{"tool_calls": toolCallNames(s)})
		if gr.Status == proctor.StatusFailed {
			gr.Reason += "; " + observed(s)
		}
		return gr
	}
	if len(g.names) == 0 {
		if len(s.ToolCalls) == 0 {
			return proctor.Pass("no tool calls, as expected")
		}
		return toolFail(s, "no tool calls were expected")
	}
	switch g.mode {
	case SequenceExact:
		if len(s.ToolCalls) == len(g.names) {
			same := true
			for i, c := range s.ToolCalls {
				if !globMatch(g.names[i], c.Name) {
					same = false
					break
				}
			}
			if same {
				return proctor.Pass("")
			}
		}
		return toolFail(s, "tool calls are not exactly [%s]", strings.Join(g.names, ", "))
	case SequenceAnyOrder:
		if len(s.ToolCalls) == len(g.names) && matchAll(g.names, s.ToolCalls) {
			return proctor.Pass("")
		}
		return toolFail(s, "tool calls are not [%s] in any order", strings.Join(g.names, ", "))
	}
	next := 0
	for _, c := range s.ToolCalls {
		if next < len(g.names) && globMatch(g.names[next], c.Name) {
			next++
		}
	}
	if next == len(g.names) {
		return proctor.Pass("")
	}
	return toolFail(s, "tool calls do not include [%s] in order (matched up to %q)", strings.Join(g.names, ", "), g.names[next])
}

// toolCap is one entry of [ToolSequenceOptions.Max].
type toolCap struct {
	pattern string
	max     int
}

// matchAll reports whether every pattern can be given a different call it
// matches (bipartite matching by augmenting paths; patterns and calls are
// few).
func matchAll(patterns []string, calls []proctor.ToolCall) bool {
	owner := make([]int, len(calls)) // pattern index + 1 holding each call
	var try func(p int, seen []bool) bool
	try = func(p int, seen []bool) bool {
		for j, c := range calls {
			if seen[j] || !globMatch(patterns[p], c.Name) {
				continue
			}
			seen[j] = true
			if owner[j] == 0 || try(owner[j]-1, seen) {
				owner[j] = p + 1
				return true
			}
		}
		return false
	}
	for p := range patterns {
		if !try(p, make([]bool, len(calls))) {
			return false
		}
	}
	return true
}

// metricCalls returns cs as [metric.ToolCallAccuracy] takes them: each
// call's arguments decoded (a JSON string holding JSON too), and nil
// when they are absent or not a JSON object.
func metricCalls(cs []proctor.ToolCall) []metric.ToolCall {
	out := make([]metric.ToolCall, len(cs))
	for i, c := range cs {
		out[i].Name = c.Name
		if len(bytes.TrimSpace(c.Arguments)) > 0 {
			if v, err := decodeArguments(c.Arguments); err == nil {
				out[i].Args, _ = v.(map[string]any)
			}
		}
	}
	return out
}

// ToolArgumentAssertion passes when a call to the named tool has arguments
// in which a JSONPath selects a value equal to the expected one. Numbers
// compare by value (2 equals 2.0), objects without regard to key order. A
// path that can select one node (no wildcards, slices, filters, unions or
// descent) compares that node; one that can select several compares the
// list of nodes with the expected value, which should then be an array.
//
// When the tool was called several times it passes if any call matches. It
// fails when the tool was never called, when no call matches (the reason
// shows what the path found and the observed call sequence), and for calls
// whose arguments are not JSON. Arguments given as a JSON string holding
// JSON (as OpenAI's tool calls carry them) are decoded twice. Immutable and
// safe for concurrent use.
type ToolArgumentAssertion struct {
	name     string
	tool     string
	path     jp.Expr
	pathText string
	singular bool
	want     any
}

// ToolArgumentAssertionOptions configure [NewToolArgumentAssertion].
type ToolArgumentAssertionOptions struct {
	// Name is shown in results; default "tool_argument_assertion".
	Name string
}

var _ proctor.Grader = (*ToolArgumentAssertion)(nil)

// NewToolArgumentAssertion returns a grader that checks the argument at
// path of calls to tool against equals (any JSON-encodable value). The path
// is compiled here, once. It returns an error for an empty tool name, a path
// that does not parse, or an equals value that does not encode as JSON.
func NewToolArgumentAssertion(tool, path string, equals any, opts ToolArgumentAssertionOptions) (*ToolArgumentAssertion, error) {
	if tool == "" {
		return nil, refuse("tool_argument_assertion needs a tool name")
	}
	x, err := jp.ParseString(path)
	if err != nil {
		return nil, refuse("tool_argument_assertion: path %q: %w", path, err)
	}
	want, err := kit.NormJSON(equals)
	if err != nil {
		return nil, refuse("tool_argument_assertion: equals: %w", err)
	}
	return &ToolArgumentAssertion{
		name: cmp.Or(opts.Name, "tool_argument_assertion"), tool: tool,
		path: x, pathText: path, singular: singularPath(x), want: want,
	}, nil
}

// MustToolArgumentAssertion is [NewToolArgumentAssertion] that panics on
// error.
func MustToolArgumentAssertion(tool, path string, equals any, opts ToolArgumentAssertionOptions) *ToolArgumentAssertion {
	g, err := NewToolArgumentAssertion(tool, path, equals, opts)
	if err != nil {
		panic(kit.MustFailed("agent.MustToolArgumentAssertion", path, err))
	}
	return g
}

// singularPath reports whether x selects at most one node.
func singularPath(x jp.Expr) bool {
	for _, f := range x {
		switch f.(type) {
		case jp.Root, jp.At, jp.Child, jp.Nth, jp.Bracket:
		default:
			return false
		}
	}
	return true
}

// decodeArguments decodes a call's arguments; a JSON string holding JSON
// is decoded again.
func decodeArguments(raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, errors.New("no arguments")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if s, ok := v.(string); ok {
		var inner any
		if err := json.Unmarshal([]byte(s), &inner); err != nil {
			return nil, fmt.Errorf("arguments string is not JSON: %w", err)
		}
		return inner, nil
	}
	return v, nil
}

// Name returns the grader's name.
func (g *ToolArgumentAssertion) Name() string { return g.name }

// Grade checks every call to the tool until one matches.
func (g *ToolArgumentAssertion) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	calls := 0
	var seen []string
	for _, c := range s.ToolCalls {
		if c.Name != g.tool {
			continue
		}
		calls++
		args, err := decodeArguments(c.Arguments)
		if err != nil {
			seen = append(seen, "arguments not JSON ("+err.Error()+")")
			continue
		}
		nodes := g.path.Get(args)
		var got any
		switch {
		case !g.singular:
			if nodes == nil {
				nodes = []any{}
			}
			got = nodes
		case len(nodes) == 0:
			seen = append(seen, "nothing at "+g.pathText)
			continue
		default:
			got = nodes[0]
		}
		if reflect.DeepEqual(got, g.want) {
			return proctor.Pass("")
		}
		seen = append(seen, clipJSON(got))
	}
	if calls == 0 {
		return toolFail(s, "tool %q was not called", g.tool)
	}
	return toolFail(s, "no call to %q has %s equal to %s (found %s)", g.tool, g.pathText, clipJSON(g.want), strings.Join(seen, "; "))
}

// toolCalledSpec builds a tool_called spec: name, min_times.
func toolCalledSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	tool := o.RequireString("name")
	n := o.Int("min_times", 1)
	if n < 1 && o.Err() == nil {
		o.Errorf("min_times", "want an integer >= 1, got %d", n)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewToolCalled(tool, ToolCalledOptions{MinTimes: n, Name: specName(o)})
}

// toolNotCalledSpec builds a tool_not_called spec: name.
func toolNotCalledSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	tool := o.RequireString("name")
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewToolNotCalled(tool, ToolNotCalledOptions{Name: specName(o)})
}

// toolSequenceSpec builds a tool_sequence spec: names or calls, mode, max, threshold.
func toolSequenceSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	names, hasNames := o.OptStrings("names")
	var opts ToolSequenceOptions
	if o.Has("calls") {
		var calls []proctor.ToolCall
		if o.Decode("calls", &calls) {
			if calls == nil {
				calls = []proctor.ToolCall{}
			}
			opts.Calls = calls
		}
	} else if !hasNames && o.Err() == nil {
		o.Errorf("names", "missing: tool_sequence needs an array of tool names ([] for none) or calls")
	}
	mode := o.Enum("mode", "subsequence", "subsequence", "in_order", "exact", "strict", "any_order")
	o.Decode("max", &opts.Max)
	opts.Threshold = o.OptThreshold()
	if err := o.Err(); err != nil {
		return nil, err
	}
	opts.Name = o.Name()
	switch mode {
	case "exact", "strict":
		opts.Mode = SequenceExact
	case "any_order":
		opts.Mode = SequenceAnyOrder
	}
	g, err := NewToolSequence(names, opts)
	if err != nil {
		key := "names"
		if opts.Calls != nil {
			key = "calls"
		}
		o.Wrap(key, "invalid", kit.SpecCause("agent: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// toolArgumentAssertionSpec builds a tool_argument_assertion spec: name, path, equals.
func toolArgumentAssertionSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	tool := o.RequireString("name")
	path := o.RequireString("path")
	want, ok := o.Value("equals")
	if !ok && o.Err() == nil {
		o.Errorf("equals", "missing: tool_argument_assertion needs the value to compare with")
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewToolArgumentAssertion(tool, path, want, ToolArgumentAssertionOptions{Name: specName(o)})
	if err != nil {
		o.Wrap("path", "invalid", kit.SpecCause("agent: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// refuse is a constructor's error: "agent: " and the reason, which spec
// errors show after "proctor: " as they always have ([kit.SpecCause]).
func refuse(format string, a ...any) error { return kit.Refuse("agent: ", format, a...) }

// specName is the grader name for the spec types whose "name" option is
// the tool's name (docs/spec.md): the type and the tool, "tool_called:search".
func specName(o *proctor.SpecOptions) string { return o.Type() + ":" + o.Name() }

// clipJSON writes v as compact JSON for a reason, shortened to 80 runes.
func clipJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return kit.ClipRunes(string(b), 80)
}
