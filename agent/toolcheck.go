package agent

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/metric"
)

// toolCallValidSpec builds a tool_call_valid spec: tools.
func toolCallValidSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	var opts ToolCallValidOptions
	opts.Name = o.Name()
	if r, ok := o.Raw("tools"); ok {
		opts.Tools = r
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewToolCallValid(opts)
	if err != nil {
		o.Wrap("tools", "invalid", kit.SpecCause("agent: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// toolCallF1Spec builds a tool_call_f1 spec: expected or expected_calls, threshold.
func toolCallF1Spec(o *proctor.SpecOptions) (proctor.Grader, error) {
	names, ok := o.OptStrings("expected")
	opts := ToolCallF1Options{Threshold: o.OptThreshold(), Name: o.Name()}
	if o.Has("expected_calls") {
		var calls []proctor.ToolCall
		if o.Decode("expected_calls", &calls) {
			opts.Calls = append([]proctor.ToolCall{}, calls...)
		}
	} else if !ok && o.Err() == nil {
		o.Errorf("expected", "missing: tool_call_f1 needs the expected tool names (or expected_calls)")
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewToolCallF1(names, opts)
	if err != nil {
		o.Wrap("expected", "invalid", kit.SpecCause("agent: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// toolStepCountSpec builds a tool_step_count spec: min, max.
func toolStepCountSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := ToolStepCountOptions{Name: o.Name()}
	if n, ok := o.OptInt("min"); ok {
		opts.Min = &n
	}
	if n, ok := o.OptInt("max"); ok {
		opts.Max = &n
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewToolStepCount(opts)
	if err != nil {
		o.Wrap("min", "invalid", kit.SpecCause("agent: ", err))
		return nil, o.Err()
	}
	return g, nil
}

// maxToolShapeDepth bounds how deep [ExtractToolCalls] looks for calls in
// nested messages, so a hostile output cannot make it recurse far.
const maxToolShapeDepth = 8

// ExtractToolCalls finds the tool calls in a model's output text, as
// promptfoo's tool assertions read them. The output is one JSON value, or
// JSON values one per line among other lines of text. Recognised shapes:
// an OpenAI message ({"tool_calls": [{"function": {"name", "arguments"}}]}
// or the legacy {"function_call": {"name", "arguments"}}), a chat
// completion ({"choices": [{"message": …}]}), a transcript ({"messages":
// […]} or an array of messages), an OpenAI Responses item ({"type":
// "function_call", "name", "arguments"}), Anthropic tool_use blocks (alone,
// in an array or in a message's "content"), Google functionCall and
// toolCall.functionCalls, and arrays of {"name", "arguments"}. Objects that
// are none of these are skipped. found reports whether any such shape was
// seen (an empty "tool_calls" list counts); calls keep their order.
func ExtractToolCalls(output string) (calls []proctor.ToolCall, found bool) {
	t := strings.TrimSpace(output)
	var v any
	if json.Unmarshal([]byte(t), &v) == nil { // Unmarshal checks validity before it decodes
		return collectToolCalls(nil, v, 0)
	}
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || (line[0] != '{' && line[0] != '[') {
			continue
		}
		var lv any
		if json.Unmarshal([]byte(line), &lv) != nil {
			continue
		}
		var f bool
		calls, f = collectToolCalls(calls, lv, 0)
		found = found || f
	}
	return calls, found
}

// collectToolCalls appends the calls in v to dst.
func collectToolCalls(dst []proctor.ToolCall, v any, depth int) ([]proctor.ToolCall, bool) {
	if depth > maxToolShapeDepth {
		return dst, false
	}
	switch x := v.(type) {
	case []any:
		found := false
		for _, item := range x {
			var f bool
			dst, f = collectToolCalls(dst, item, depth+1)
			if !f {
				if c, ok := simpleCall(item); ok {
					dst, f = append(dst, c), true
				}
			}
			found = found || f
		}
		return dst, found
	case map[string]any:
		if tcs, ok := x["tool_calls"].([]any); ok {
			for _, tc := range tcs {
				if c, ok := simpleCall(tc); ok {
					dst = append(dst, c)
				}
			}
			return dst, true
		}
		if fc, ok := x["function_call"].(map[string]any); ok {
			if c, ok := namedCall(fc, "arguments"); ok {
				dst = append(dst, c)
			}
			return dst, true
		}
		switch x["type"] {
		case "tool_use":
			if c, ok := namedCall(x, "input"); ok {
				return append(dst, c), true
			}
		case "function_call":
			if c, ok := namedCall(x, "arguments"); ok {
				return append(dst, c), true
			}
		}
		if fc, ok := x["functionCall"].(map[string]any); ok {
			if c, ok := namedCall(fc, "args"); ok {
				dst = append(dst, c)
			}
			return dst, true
		}
		if tc, ok := x["toolCall"].(map[string]any); ok {
			if fcs, ok := tc["functionCalls"].([]any); ok {
				for _, fc := range fcs {
					if m, ok := fc.(map[string]any); ok {
						if c, ok := namedCall(m, "args"); ok {
							dst = append(dst, c)
						}
					}
				}
			}
			return dst, true
		}
		found := false
		for _, key := range []string{"choices", "messages", "message", "content", "output"} {
			if sub, ok := x[key]; ok {
				var f bool
				dst, f = collectToolCalls(dst, sub, depth+1)
				found = found || f
			}
		}
		return dst, found
	}
	return dst, false
}

// simpleCall reads one entry of a tool_calls list or of an array of calls:
// {"function": {"name", "arguments"}}, a tool_use block, a functionCall,
// or {"name", "arguments"|"input"|"args"}.
func simpleCall(v any) (proctor.ToolCall, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return proctor.ToolCall{}, false
	}
	if fn, ok := m["function"].(map[string]any); ok {
		return namedCall(fn, "arguments")
	}
	if fc, ok := m["functionCall"].(map[string]any); ok {
		return namedCall(fc, "args")
	}
	if _, isMsg := m["role"]; isMsg {
		return proctor.ToolCall{}, false
	}
	if t, ok := m["type"].(string); ok && t != "tool_use" && t != "function_call" && t != "function" {
		return proctor.ToolCall{}, false
	}
	for _, key := range []string{"arguments", "input", "args"} {
		if _, ok := m[key]; ok {
			return namedCall(m, key)
		}
	}
	return namedCall(m, "arguments")
}

// namedCall makes a ToolCall from an object with a string "name" and its
// arguments under argKey (kept as JSON; absent arguments stay nil).
func namedCall(m map[string]any, argKey string) (proctor.ToolCall, bool) {
	name, ok := m["name"].(string)
	if !ok {
		return proctor.ToolCall{}, false
	}
	c := proctor.ToolCall{Name: name}
	if a, ok := m[argKey]; ok && a != nil {
		b, err := json.Marshal(a)
		if err == nil {
			c.Arguments = b
		}
	}
	return c, true
}

// sampleToolCalls returns the calls a tool check grades: the sample's
// recorded ToolCalls when there are any, else those in its output text.
func sampleToolCalls(s *proctor.Sample) []proctor.ToolCall {
	if len(s.ToolCalls) > 0 {
		return s.ToolCalls
	}
	calls, _ := ExtractToolCalls(s.Output)
	return calls
}

// declaredTool is one tool a model may call, with its compiled parameters
// schema (nil: any arguments).
type declaredTool struct {
	params *proctor.JSONSchema
}

// parseTools reads declared tools: an array of OpenAI tools ({"type":
// "function", "function": {"name", "parameters"}}), of functions ({"name",
// "parameters"}), or of Anthropic tools ({"name", "input_schema"}).
func parseTools(raw []byte) (map[string]declaredTool, error) {
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("want an array of tool declarations: %w", err)
	}
	if len(list) == 0 {
		return nil, errors.New("no tools declared")
	}
	tools := make(map[string]declaredTool, len(list))
	for i, t := range list {
		if fn, ok := t["function"]; ok {
			if err := json.Unmarshal(fn, &t); err != nil {
				return nil, fmt.Errorf("tool %d: function: %w", i, err)
			}
		}
		var name string
		if err := json.Unmarshal(t["name"], &name); err != nil || name == "" {
			return nil, fmt.Errorf("tool %d: want a non-empty string name", i)
		}
		if _, dup := tools[name]; dup {
			return nil, fmt.Errorf("tool %q declared twice", name)
		}
		var d declaredTool
		params, ok := t["parameters"]
		if !ok {
			params, ok = t["input_schema"]
		}
		if ok && string(bytes.TrimSpace(params)) != "null" {
			sch, err := proctor.NewJSONSchema([]byte(params), proctor.JSONSchemaOptions{})
			if err != nil {
				return nil, fmt.Errorf("tool %q: parameters: %w", name, err)
			}
			d.params = sch
		}
		tools[name] = d
	}
	return tools, nil
}

// ToolCallValidOptions configure [NewToolCallValid]. The zero value reads
// the declared tools from each sample's Item["tools"].
type ToolCallValidOptions struct {
	// Tools declares the callable tools as JSON: an array of OpenAI tools
	// ({"type": "function", "function": {"name", "parameters"}}), of
	// legacy functions ({"name", "parameters"}) or of Anthropic tools
	// ({"name", "input_schema"}). Nil reads Item["tools"] (or
	// Item["functions"]) of each sample instead.
	Tools json.RawMessage
	// Name is shown in results; default "tool_call_valid".
	Name string
}

// ToolCallValid passes when the sample made at least one tool call and
// every call names a declared tool whose JSON Schema "parameters" its
// arguments satisfy (promptfoo's is-valid-openai-tools-call and
// is-valid-openai-function-call). The calls are the sample's recorded
// ToolCalls, else those [ExtractToolCalls] finds in the output. Arguments
// given as a JSON string are decoded first; absent arguments are {}. It
// fails with the first bad call, and when there is no call. It is not
// graded when no tools are declared (neither in the options nor in the
// sample's item) or the item's declarations do not compile. Immutable and
// safe for concurrent use.
type ToolCallValid struct {
	name  string
	tools map[string]declaredTool // nil: from the item
	items *itemToolsCache         // the items' declarations, compiled once each
}

// maxItemTools bounds the item declarations a ToolCallValid keeps
// compiled; past it the cache starts over.
const maxItemTools = 64

// itemToolsCache holds the tools compiled from items' declarations, keyed
// by their JSON text, so that cases sharing one declaration (the usual
// suite) compile its schemas once, not per sample.
type itemToolsCache struct {
	mu sync.Mutex
	m  map[string]itemTools
}

type itemTools struct {
	tools map[string]declaredTool
	err   error
}

// get returns the tools declared by raw, compiling them on first sight.
func (c *itemToolsCache) get(raw []byte) (map[string]declaredTool, error) {
	key := string(raw)
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return e.tools, e.err
	}
	e.tools, e.err = parseTools(raw)
	c.mu.Lock()
	if len(c.m) >= maxItemTools {
		clear(c.m)
	}
	c.m[key] = e
	c.mu.Unlock()
	return e.tools, e.err
}

var _ proctor.Grader = (*ToolCallValid)(nil)

// NewToolCallValid returns a tool-call validity grader. It returns an error
// when opts.Tools is not an array of declarations with names, or a
// parameters schema does not compile.
func NewToolCallValid(opts ToolCallValidOptions) (*ToolCallValid, error) {
	g := &ToolCallValid{name: cmp.Or(opts.Name, "tool_call_valid")}
	if opts.Tools == nil {
		g.items = &itemToolsCache{m: map[string]itemTools{}}
	} else {
		tools, err := parseTools(opts.Tools)
		if err != nil {
			return nil, refuse("tool_call_valid: %w", err)
		}
		g.tools = tools
	}
	return g, nil
}

// Name returns the grader's name.
func (g *ToolCallValid) Name() string { return g.name }

// Grade checks every call against the declared tools.
func (g *ToolCallValid) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	tools := g.tools
	if tools == nil {
		raw, ok := s.Item["tools"]
		if !ok {
			raw, ok = s.Item["functions"]
		}
		if !ok {
			return proctor.NotGraded("no tools declared: set tools on the spec or tools in the case's item")
		}
		b, err := json.Marshal(raw)
		if err == nil {
			tools, err = g.items.get(b)
		}
		if err != nil {
			return proctor.NotGradedf("the item's tools: %v", err)
		}
	}
	calls := sampleToolCalls(s)
	if len(calls) == 0 {
		return proctor.Fail("no tool calls in the output")
	}
	for i, c := range calls {
		d, ok := tools[c.Name]
		if !ok {
			return proctor.Failf("call %d names %q, which is not a declared tool (declared: %s)", i+1, c.Name, strings.Join(slices.Sorted(maps.Keys(tools)), ", "))
		}
		args, err := argumentsOrEmpty(c.Arguments)
		if err != nil {
			return proctor.Failf("call %d to %q: arguments are not JSON: %v", i+1, c.Name, err)
		}
		if d.params == nil {
			continue
		}
		if gr := d.params.GradeValue(ctx, args); gr.Status != proctor.StatusPassed {
			gr.Reason = fmt.Sprintf("call %d to %q: arguments break the tool's parameters: %s", i+1, c.Name, gr.Reason)
			return gr
		}
	}
	return proctor.Passf("%d tool call%s valid", len(calls), kit.Plural(len(calls)))
}

// ToolCallF1Options configure [NewToolCallF1]. The zero value passes at an
// F1 of 1, as promptfoo's tool-call-f1 does by default.
type ToolCallF1Options struct {
	// Calls, when not nil, are the expected calls with their arguments:
	// a call then counts only with the same name and equal arguments (as
	// JSON values; absent arguments are {}), as ragas' ToolCallF1
	// compares them. The expected names must then be empty.
	Calls []proctor.ToolCall
	// Threshold is the F1 to reach; nil means 1.
	Threshold *float64
	// Name is shown in results; default "tool_call_f1".
	Name string
}

// ToolCallF1 scores the set of called tool names against the expected set
// (promptfoo's tool-call-f1), or with [ToolCallF1Options.Calls] the set of
// (name, arguments) pairs (ragas' ToolCallF1): precision is the share of
// distinct calls that were expected, recall the share of expected ones
// called, F1 their harmonic mean (0 when both are 0). Order and repeats do
// not count. The calls are the sample's recorded ToolCalls,
// else those [ExtractToolCalls] finds in the output. Its evidence holds
// precision, recall and the called names. Immutable and safe for
// concurrent use.
type ToolCallF1 struct {
	name      string
	expected  []string // distinct, in the given order
	withArgs  bool     // expected holds callKey values
	threshold float64
}

var _ proctor.Grader = (*ToolCallF1)(nil)

// NewToolCallF1 returns a grader for the expected tool names. It returns an
// error when expected is empty or holds an empty name, or when Threshold
// lies outside [0, 1] (or is NaN).
func NewToolCallF1(expected []string, opts ToolCallF1Options) (*ToolCallF1, error) {
	th, err := kit.UnitThreshold(opts.Threshold, 1)
	if err != nil {
		return nil, refuse("tool_call_f1 %w", err)
	}
	if opts.Calls != nil {
		if len(expected) > 0 {
			return nil, refuse("tool_call_f1: give expected names or expected calls, not both")
		}
		var keys []string
		for i, c := range opts.Calls {
			if c.Name == "" {
				return nil, refuse("tool_call_f1: expected call %d has no name", i+1)
			}
			k, err := callKey(c)
			if err != nil {
				return nil, refuse("tool_call_f1: expected call %d: %w", i+1, err)
			}
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return nil, refuse("tool_call_f1 needs at least one expected call")
		}
		return &ToolCallF1{name: cmp.Or(opts.Name, "tool_call_f1"), expected: keys, withArgs: true, threshold: th}, nil
	}
	var names []string
	for _, n := range expected {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, refuse("tool_call_f1: empty tool name")
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, refuse("tool_call_f1 needs at least one expected tool name")
	}
	return &ToolCallF1{name: cmp.Or(opts.Name, "tool_call_f1"), expected: names, threshold: th}, nil
}

// Name returns the grader's name.
func (g *ToolCallF1) Name() string { return g.name }

// callKey is a call's name and canonical arguments: name(JSON with sorted
// keys), absent arguments taken as {}.
func callKey(c proctor.ToolCall) (string, error) {
	args, err := argumentsOrEmpty(c.Arguments)
	if err != nil {
		return "", err
	}
	return c.Name + kit.Stringify(args), nil
}

// argumentsOrEmpty is [decodeArguments] with absent arguments taken as {}.
func argumentsOrEmpty(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	return decodeArguments(raw)
}

// Grade scores the called names.
func (g *ToolCallF1) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	calls := sampleToolCalls(s)
	names := callNames(calls)
	called := names
	if g.withArgs {
		called = make([]string, len(calls))
		for i, c := range calls {
			k, err := callKey(c)
			if err != nil {
				k = c.Name + " (arguments not JSON)"
			}
			called[i] = k
		}
	}
	p, r, f1 := metric.ToolNameF1(called, g.expected)
	gr := proctor.Scored(f1, g.threshold, kit.ScoreReason("tool call F1", f1, g.threshold, 0))
	gr.Reason += fmt.Sprintf(" (precision %s, recall %s; expected [%s], called [%s])",
		kit.FormatScore(p), kit.FormatScore(r), strings.Join(g.expected, ", "), strings.Join(called, ", "))
	gr.Evidence = map[string]any{"precision": p, "recall": r, "tool_calls": names}
	return gr
}

// ToolStepCountOptions configure [NewToolStepCount]. At least one bound is
// needed.
type ToolStepCountOptions struct {
	// Min is the fewest tool calls that pass; nil means no lower bound.
	Min *int
	// Max is the most tool calls that pass; nil means no upper bound.
	Max *int
	// Name is shown in results; default "tool_step_count".
	Name string
}

// ToolStepCount passes when the number of tool calls (the sample's
// recorded ToolCalls, else those in the output) lies within [Min, Max], as
// promptfoo's trajectory step-count assertion checks. Immutable and safe
// for concurrent use.
type ToolStepCount struct {
	name     string
	min, max int // max < 0: none
}

var _ proctor.Grader = (*ToolStepCount)(nil)

// NewToolStepCount returns a step-count grader. It returns an error when
// neither bound is set, a bound is negative, or Min exceeds Max.
func NewToolStepCount(opts ToolStepCountOptions) (*ToolStepCount, error) {
	g := &ToolStepCount{name: cmp.Or(opts.Name, "tool_step_count"), max: -1}
	if opts.Min == nil && opts.Max == nil {
		return nil, refuse("tool_step_count needs min, max or both")
	}
	if opts.Min != nil {
		if *opts.Min < 0 {
			return nil, refuse("tool_step_count: min %d is negative", *opts.Min)
		}
		g.min = *opts.Min
	}
	if opts.Max != nil {
		if *opts.Max < 0 || *opts.Max < g.min {
			return nil, refuse("tool_step_count: max %d is negative or below min %d", *opts.Max, g.min)
		}
		g.max = *opts.Max
	}
	return g, nil
}

// Name returns the grader's name.
func (g *ToolStepCount) Name() string { return g.name }

// Grade counts the calls.
func (g *ToolStepCount) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	n := len(sampleToolCalls(s))
	switch {
	case n < g.min:
		return proctor.Failf("%d tool call%s, fewer than min %d", n, kit.Plural(n), g.min)
	case g.max >= 0 && n > g.max:
		return proctor.Failf("%d tool call%s, more than max %d", n, kit.Plural(n), g.max)
	}
	return proctor.Passf("%d tool call%s", n, kit.Plural(n))
}

// globMatch reports whether name matches pattern: path.Match syntax (*, ?,
// [...]); a pattern that does not parse matches only itself.
func globMatch(pattern, name string) bool {
	if !strings.ContainsAny(pattern, "*?[\\") {
		return pattern == name
	}
	ok, err := path.Match(pattern, name)
	if err != nil {
		return pattern == name
	}
	return ok
}
