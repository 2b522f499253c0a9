package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ohler55/ojg/jp"
)

// toolCallNames is the evidence tool graders attach: the names of the
// calls the sample made, in order.
func toolCallNames(s *Sample) []string {
	names := make([]string, len(s.ToolCalls))
	for i, c := range s.ToolCalls {
		names[i] = c.Name
	}
	return names
}

// observed describes the sample's tool calls for a reason: "calls: [a, b]"
// or "no tool calls".
func observed(s *Sample) string {
	if len(s.ToolCalls) == 0 {
		return "no tool calls"
	}
	var b strings.Builder
	b.WriteString("calls: [")
	for i, c := range s.ToolCalls {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name)
	}
	b.WriteByte(']')
	return b.String()
}

// toolFail is a failed grade whose reason ends with the observed calls and
// whose evidence lists them.
func toolFail(s *Sample, format string, args ...any) Grade {
	g := Failf(format+"; "+observed(s), args...)
	g.Evidence = map[string]any{"tool_calls": toolCallNames(s)}
	return g
}

func countCalls(s *Sample, name string) int {
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

var _ Grader = (*ToolCalled)(nil)

// NewToolCalled returns a grader that passes when tool was called. It
// returns an error for an empty tool name or a negative MinTimes.
func NewToolCalled(tool string, opts ToolCalledOptions) (*ToolCalled, error) {
	if tool == "" {
		return nil, errors.New("proctor: tool_called needs a tool name")
	}
	if opts.MinTimes < 0 {
		return nil, fmt.Errorf("proctor: tool_called: min_times %d is negative", opts.MinTimes)
	}
	return &ToolCalled{name: nameOr(opts.Name, "tool_called"), tool: tool, min: max(opts.MinTimes, 1)}, nil
}

// Name returns the grader's name.
func (g *ToolCalled) Name() string { return g.name }

// Grade counts the calls to the tool.
func (g *ToolCalled) Grade(_ context.Context, s *Sample) Grade {
	n := countCalls(s, g.tool)
	if n >= g.min {
		return Pass("")
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

var _ Grader = (*ToolNotCalled)(nil)

// NewToolNotCalled returns a grader that fails when tool was called. It
// returns an error for an empty tool name.
func NewToolNotCalled(tool string, opts ToolNotCalledOptions) (*ToolNotCalled, error) {
	if tool == "" {
		return nil, errors.New("proctor: tool_not_called needs a tool name")
	}
	return &ToolNotCalled{name: nameOr(opts.Name, "tool_not_called"), tool: tool}, nil
}

// Name returns the grader's name.
func (g *ToolNotCalled) Name() string { return g.name }

// Grade looks for a call to the tool.
func (g *ToolNotCalled) Grade(_ context.Context, s *Sample) Grade {
	if n := countCalls(s, g.tool); n > 0 {
		return toolFail(s, "tool %q was called %d time%s", g.tool, n, plural(n))
	}
	return Pass("")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// SequenceMode says how [ToolSequence] compares the calls with its names.
type SequenceMode uint8

const (
	// SequenceSubsequence passes when the names appear in order among the
	// calls, other calls allowed before, between and after (the default).
	SequenceSubsequence SequenceMode = iota
	// SequenceExact passes when the calls are exactly the names, in order.
	SequenceExact
)

// String returns the word specs use: "subsequence" or "exact"; an unknown mode
// prints as mode_N.
func (m SequenceMode) String() string {
	switch m {
	case SequenceSubsequence:
		return "subsequence"
	case SequenceExact:
		return "exact"
	}
	return "mode_" + strconv.Itoa(int(m))
}

// ToolSequence passes when the sample's tool calls follow the names in
// order: as a subsequence (the default) or exactly. A failure's reason
// shows the observed call sequence. Immutable and safe for concurrent use.
type ToolSequence struct {
	name  string
	names []string
	mode  SequenceMode
}

// ToolSequenceOptions configure [NewToolSequence]. The zero value matches a
// subsequence.
type ToolSequenceOptions struct {
	// Mode is SequenceSubsequence (default) or SequenceExact.
	Mode SequenceMode
	// Name is shown in results; default "tool_sequence".
	Name string
}

var _ Grader = (*ToolSequence)(nil)

// NewToolSequence returns a grader for the call order names. It returns an
// error when names is empty or holds an empty name.
func NewToolSequence(names []string, opts ToolSequenceOptions) (*ToolSequence, error) {
	if len(names) == 0 {
		return nil, errors.New("proctor: tool_sequence needs at least one tool name")
	}
	if slices.Contains(names, "") {
		return nil, errors.New("proctor: tool_sequence: empty tool name")
	}
	if opts.Mode > SequenceExact {
		return nil, fmt.Errorf("proctor: tool_sequence: unknown mode %d", opts.Mode)
	}
	return &ToolSequence{name: nameOr(opts.Name, "tool_sequence"), names: slices.Clone(names), mode: opts.Mode}, nil
}

// Name returns the grader's name.
func (g *ToolSequence) Name() string { return g.name }

// Grade compares the order of s.ToolCalls with the names.
func (g *ToolSequence) Grade(_ context.Context, s *Sample) Grade {
	if g.mode == SequenceExact {
		if len(s.ToolCalls) == len(g.names) {
			same := true
			for i, c := range s.ToolCalls {
				if c.Name != g.names[i] {
					same = false
					break
				}
			}
			if same {
				return Pass("")
			}
		}
		return toolFail(s, "tool calls are not exactly [%s]", strings.Join(g.names, ", "))
	}
	next := 0
	for _, c := range s.ToolCalls {
		if next < len(g.names) && c.Name == g.names[next] {
			next++
		}
	}
	if next == len(g.names) {
		return Pass("")
	}
	return toolFail(s, "tool calls do not include [%s] in order (matched up to %q)", strings.Join(g.names, ", "), g.names[next])
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

var _ Grader = (*ToolArgumentAssertion)(nil)

// NewToolArgumentAssertion returns a grader that checks the argument at
// path of calls to tool against equals (any JSON-encodable value). The path
// is compiled here, once. It returns an error for an empty tool name, a path
// that does not parse, or an equals value that does not encode as JSON.
func NewToolArgumentAssertion(tool, path string, equals any, opts ToolArgumentAssertionOptions) (*ToolArgumentAssertion, error) {
	if tool == "" {
		return nil, errors.New("proctor: tool_argument_assertion needs a tool name")
	}
	x, err := jp.ParseString(path)
	if err != nil {
		return nil, fmt.Errorf("proctor: tool_argument_assertion: path %q: %w", path, err)
	}
	want, err := normJSON(equals)
	if err != nil {
		return nil, fmt.Errorf("proctor: tool_argument_assertion: equals: %w", err)
	}
	return &ToolArgumentAssertion{
		name: nameOr(opts.Name, "tool_argument_assertion"), tool: tool,
		path: x, pathText: path, singular: singularPath(x), want: want,
	}, nil
}

// MustToolArgumentAssertion is [NewToolArgumentAssertion] that panics on
// error.
func MustToolArgumentAssertion(tool, path string, equals any, opts ToolArgumentAssertionOptions) *ToolArgumentAssertion {
	g, err := NewToolArgumentAssertion(tool, path, equals, opts)
	if err != nil {
		panic("proctor: MustToolArgumentAssertion: " + err.Error())
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

// normJSON round-trips v through JSON so that numbers are float64 and
// structs are maps, as decoded arguments are.
func normJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
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
func (g *ToolArgumentAssertion) Grade(_ context.Context, s *Sample) Grade {
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
			return Pass("")
		}
		seen = append(seen, clipJSON(got))
	}
	if calls == 0 {
		return toolFail(s, "tool %q was not called", g.tool)
	}
	return toolFail(s, "no call to %q has %s equal to %s (found %s)", g.tool, g.pathText, clipJSON(g.want), strings.Join(seen, "; "))
}

// toolSpecs registers the spec types tool_called, tool_not_called, tool_sequence, tool_argument_assertion.
func toolSpecs(m map[string]Builder) {
	m["tool_called"] = func(o *SpecOptions) (Grader, error) {
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
	m["tool_not_called"] = func(o *SpecOptions) (Grader, error) {
		tool := o.RequireString("name")
		if err := o.Err(); err != nil {
			return nil, err
		}
		return NewToolNotCalled(tool, ToolNotCalledOptions{Name: specName(o)})
	}
	m["tool_sequence"] = func(o *SpecOptions) (Grader, error) {
		names, ok := o.OptStrings("names")
		if !ok && o.Err() == nil {
			o.Errorf("names", "missing: tool_sequence needs an array of tool names")
		}
		mode := o.Enum("mode", "subsequence", "subsequence", "exact")
		if err := o.Err(); err != nil {
			return nil, err
		}
		opts := ToolSequenceOptions{Name: o.Name()}
		if mode == "exact" {
			opts.Mode = SequenceExact
		}
		g, err := NewToolSequence(names, opts)
		if err != nil {
			o.Wrap("names", "invalid", err)
			return nil, o.Err()
		}
		return g, nil
	}
	m["tool_argument_assertion"] = func(o *SpecOptions) (Grader, error) {
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
			o.Wrap("path", "invalid", err)
			return nil, o.Err()
		}
		return g, nil
	}
}

// specName is the grader name for the spec types whose "name" option is
// the tool's name (docs/spec.md): the type and the tool, "tool_called:search".
func specName(o *SpecOptions) string { return o.Type() + ":" + o.Name() }

// clipJSON writes v as compact JSON for a reason, shortened to 80 runes.
func clipJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if r := []rune(string(b)); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return string(b)
}
