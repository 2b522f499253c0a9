package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
)

// TrajectoryMode says how [TrajectoryMatch] compares the sample's tool
// calls with the expected ones. The modes mean what openevals' (agentevals')
// trajectory match means by them.
type TrajectoryMode uint8

const (
	// TrajectoryStrict passes when the calls are the expected calls, one
	// for one, in the same order (the default).
	TrajectoryStrict TrajectoryMode = iota
	// TrajectoryUnordered passes when the calls are the expected calls in
	// any order: each expected call is matched by a different call, and
	// each call by a different expected call.
	TrajectoryUnordered
	// TrajectorySubset passes when every call is matched by a different
	// expected call: the agent did no more than expected.
	TrajectorySubset
	// TrajectorySuperset passes when every expected call is matched by a
	// different call: the agent did at least what was expected.
	TrajectorySuperset
)

var trajectoryModeWords = []string{"strict", "unordered", "subset", "superset"}

// String returns the spec word: "strict", "unordered", "subset" or
// "superset"; an unknown mode prints as mode_N.
func (m TrajectoryMode) String() string { return enumWord(trajectoryModeWords, int(m), "mode_") }

// MarshalText encodes m as [TrajectoryMode.String] does.
func (m TrajectoryMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes a spec word; anything else is an error wrapping
// [ErrTrajectoryMode].
func (m *TrajectoryMode) UnmarshalText(b []byte) error {
	i, err := enumParse(trajectoryModeWords, string(b), "mode")
	*m = TrajectoryMode(i)
	return err
}

// ArgsMode says how two calls' arguments compare once their names are
// equal. Values compare as JSON values (10 equals 10.0).
type ArgsMode uint8

const (
	// ArgsExact: the arguments are equal (the default).
	ArgsExact ArgsMode = iota
	// ArgsIgnore: any arguments match.
	ArgsIgnore
	// ArgsSubset: every argument of the call is in the expected call, with
	// an equal value.
	ArgsSubset
	// ArgsSuperset: every argument of the expected call is in the call,
	// with an equal value.
	ArgsSuperset
)

var argsModeWords = []string{"exact", "ignore", "subset", "superset"}

// String returns the spec word: "exact", "ignore", "subset" or
// "superset"; an unknown mode prints as args_N.
func (m ArgsMode) String() string { return enumWord(argsModeWords, int(m), "args_") }

// MarshalText encodes m as [ArgsMode.String] does.
func (m ArgsMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes a spec word; anything else is an error wrapping
// [ErrTrajectoryMode].
func (m *ArgsMode) UnmarshalText(b []byte) error {
	i, err := enumParse(argsModeWords, string(b), "args")
	*m = ArgsMode(i)
	return err
}

func enumWord(words []string, i int, prefix string) string {
	if i >= 0 && i < len(words) {
		return words[i]
	}
	return prefix + strconv.Itoa(i)
}

func enumParse(words []string, s, what string) (int, error) {
	if i := slices.Index(words, s); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("%w: %s %q (want %s)", ErrTrajectoryMode, what, s, strings.Join(words, ", "))
}

// ArgsMatch is how one tool's arguments compare: by Mode, or, when Keys is
// not empty, by the values at these dotted paths alone ("time.start"), a
// path that is absent in both matching.
type ArgsMatch struct {
	Mode ArgsMode
	Keys []string
}

// TrajectoryMatchOptions configure [NewTrajectoryMatch]. The zero value is
// strict order with exact arguments, openevals' defaults.
type TrajectoryMatchOptions struct {
	// Mode is the trajectory mode.
	Mode TrajectoryMode
	// Args is the argument mode for every tool.
	Args ArgsMode
	// ToolArgs overrides Args for the named tools.
	ToolArgs map[string]ArgsMatch
	// Name is shown in results; default "trajectory_match".
	Name string
}

// TrajectoryMatch grades the path an agent took: its tool calls against
// an expected list of calls, under a trajectory mode and argument modes.
// Each reason names the first point where the path diverged. It reads the
// sample's tool calls as tool_call_valid does. As in openevals, calls pair
// greedily: each expected call (or call, by the mode) takes the first
// unpaired call that matches it. Immutable and safe for concurrent use.
type TrajectoryMatch struct {
	name     string
	mode     TrajectoryMode
	args     ArgsMatch
	toolArgs map[string]ArgsMatch
	expected []trajCall
}

// trajCall is a tool call with its arguments decoded ({} when absent).
type trajCall struct {
	name string
	args any
}

var _ proctor.Grader = (*TrajectoryMatch)(nil)

// ErrTrajectoryMode is returned for a trajectory or argument mode that is
// not one of the four.
var ErrTrajectoryMode = errors.New("agent: unknown trajectory or argument mode")

// NewTrajectoryMatch returns a grader of the sample's tool calls against
// expected. It returns an error (wrapping [ErrTrajectoryMode] for an
// unknown mode) for an expected call without a name or with arguments
// that are not JSON.
func NewTrajectoryMatch(expected []proctor.ToolCall, opts TrajectoryMatchOptions) (*TrajectoryMatch, error) {
	g := &TrajectoryMatch{name: cmp.Or(opts.Name, "trajectory_match"), mode: opts.Mode,
		args: ArgsMatch{Mode: opts.Args}, toolArgs: map[string]ArgsMatch{}}
	if int(g.mode) >= len(trajectoryModeWords) {
		return nil, fmt.Errorf("%w: mode %v", ErrTrajectoryMode, g.mode)
	}
	if err := checkArgsMode(g.args.Mode); err != nil {
		return nil, err
	}
	for tool, m := range opts.ToolArgs {
		if len(m.Keys) == 0 {
			if err := checkArgsMode(m.Mode); err != nil {
				return nil, fmt.Errorf("tool_args %q: %w", tool, err)
			}
		}
		g.toolArgs[tool] = m
	}
	var err error
	if g.expected, err = decodeTraj(expected); err != nil {
		return nil, fmt.Errorf("agent: trajectory_match: expected %w", err)
	}
	return g, nil
}

func checkArgsMode(m ArgsMode) error {
	if int(m) < len(argsModeWords) {
		return nil
	}
	return fmt.Errorf("%w: args %v", ErrTrajectoryMode, m)
}

// decodeTraj decodes each call's arguments; the error names the call.
func decodeTraj(calls []proctor.ToolCall) ([]trajCall, error) {
	out := make([]trajCall, len(calls))
	for i, c := range calls {
		var err error
		if out[i], err = decodeCall(i, c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeCall decodes call i's arguments.
func decodeCall(i int, c proctor.ToolCall) (trajCall, error) {
	if c.Name == "" {
		return trajCall{}, fmt.Errorf("call %d: no tool name", i+1)
	}
	args, err := argumentsOrEmpty(c.Arguments)
	if err != nil {
		return trajCall{}, fmt.Errorf("call %d (%s): arguments: %w", i+1, c.Name, err)
	}
	return trajCall{name: c.Name, args: args}, nil
}

// Name returns the grader's name.
func (g *TrajectoryMatch) Name() string { return g.name }

// decodeCalls is [decodeTraj] that skips the arguments of tools whose
// arguments are ignored.
func (g *TrajectoryMatch) decodeCalls(calls []proctor.ToolCall) ([]trajCall, error) {
	out := make([]trajCall, len(calls))
	for i, c := range calls {
		if m := g.argsFor(c.Name); len(m.Keys) == 0 && m.Mode == ArgsIgnore {
			out[i] = trajCall{name: c.Name}
			continue
		}
		var err error
		if out[i], err = decodeCall(i, c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// argsFor is the argument match for the named tool.
func (g *TrajectoryMatch) argsFor(name string) ArgsMatch {
	if m, ok := g.toolArgs[name]; ok {
		return m
	}
	return g.args
}

// Grade compares the sample's tool calls with the expected ones. Calls
// whose arguments are not JSON leave the sample not graded.
func (g *TrajectoryMatch) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	got, err := g.decodeCalls(sampleToolCalls(s))
	if err != nil {
		return proctor.NotGraded("tool " + err.Error())
	}
	var why string
	switch g.mode {
	case TrajectoryStrict:
		why = g.strict(got)
	case TrajectorySuperset:
		why = g.covers(got, g.expected, "expected call %d %s has no matching call")
	case TrajectorySubset:
		why = g.covers(g.expected, got, "call %d %s matches no expected call")
	case TrajectoryUnordered:
		why = cmp.Or(g.covers(got, g.expected, "expected call %d %s has no matching call"),
			g.covers(g.expected, got, "call %d %s matches no expected call"))
	}
	gr := proctor.Pass("")
	if why != "" {
		gr = proctor.Failf("%s trajectory: %s", g.mode, why)
	}
	names := callNames(sampleToolCalls(s))
	return gr.WithEvidence(map[string]any{"tool_calls": names})
}

// strict compares the calls position by position and describes the first
// that differs, or "" when all agree.
func (g *TrajectoryMatch) strict(got []trajCall) string {
	for i := range max(len(got), len(g.expected)) {
		switch {
		case i >= len(got):
			return fmt.Sprintf("call %d: want %s, got no more calls (%d of %d)", i+1, g.expected[i], len(got), len(g.expected))
		case i >= len(g.expected):
			return fmt.Sprintf("call %d: got %s, want no more calls (%d expected)", i+1, got[i], len(g.expected))
		case got[i].name != g.expected[i].name || !g.argsMatch(got[i], g.expected[i]):
			return fmt.Sprintf("call %d: want %s, got %s", i+1, g.expected[i], got[i])
		}
	}
	return ""
}

// covers reports whether every call of want is paired with a different
// call of have with the same name and matching arguments (compared as
// argsMatch(have, want)), pairing greedily in order as openevals does. It
// describes the first call of want left unpaired, or returns "".
func (g *TrajectoryMatch) covers(have, want []trajCall, format string) string {
	used := make([]bool, len(have))
	for j, w := range want {
		found := false
		for i, h := range have {
			if !used[i] && h.name == w.name && g.argsMatch(h, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return fmt.Sprintf(format, j+1, w)
		}
	}
	return ""
}

// argsMatch compares a's arguments with b's under the mode for a's tool.
func (g *TrajectoryMatch) argsMatch(a, b trajCall) bool {
	m := g.argsFor(a.name)
	if len(m.Keys) > 0 {
		for _, k := range m.Keys {
			if !reflect.DeepEqual(atPath(a.args, k), atPath(b.args, k)) {
				return false
			}
		}
		return true
	}
	switch m.Mode {
	case ArgsIgnore:
		return true
	case ArgsSubset:
		return argsWithin(a.args, b.args)
	case ArgsSuperset:
		return argsWithin(b.args, a.args)
	}
	return reflect.DeepEqual(a.args, b.args)
}

// argsWithin reports whether every key of a is in b with an equal value;
// arguments that are not both objects must be equal.
func argsWithin(a, b any) bool {
	am, ok1 := a.(map[string]any)
	bm, ok2 := b.(map[string]any)
	if !ok1 || !ok2 {
		return reflect.DeepEqual(a, b)
	}
	for k, v := range am {
		w, ok := bm[k]
		if !ok || !reflect.DeepEqual(v, w) {
			return false
		}
	}
	return true
}

// atPath returns the value at a dotted path of objects, nil when a step is
// absent or not an object.
func atPath(v any, path string) any {
	for part := range strings.SplitSeq(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[part]
	}
	return v
}

// String writes the call for a reason: name(compact JSON arguments).
func (c trajCall) String() string { return c.name + "(" + clipJSON(c.args) + ")" }

// trajectoryMatchSpec builds a trajectory_match spec: expected, mode, args, tool_args.
func trajectoryMatchSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	var expected []proctor.ToolCall
	if !o.Has("expected") && o.Err() == nil {
		o.Errorf("expected", "missing: trajectory_match needs the expected calls, a list of {name, arguments} ([] for none)")
	}
	o.Decode("expected", &expected)
	opts := TrajectoryMatchOptions{Name: o.Name()}
	_ = opts.Mode.UnmarshalText([]byte(o.Enum("mode", "strict", trajectoryModeWords...)))
	_ = opts.Args.UnmarshalText([]byte(o.Enum("args", "exact", argsModeWords...)))
	opts.ToolArgs = toolArgsOption(o)
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewTrajectoryMatch(expected, opts)
	if err != nil {
		o.Wrap("expected", "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// toolArgsOption reads tool_args: an object mapping a tool name to an
// argument mode, or to a list of dotted key paths to compare alone.
func toolArgsOption(o *proctor.SpecOptions) map[string]ArgsMatch {
	var raw map[string]json.RawMessage
	if !o.Has("tool_args") || !o.Decode("tool_args", &raw) {
		return nil
	}
	out := make(map[string]ArgsMatch, len(raw))
	for tool, v := range raw {
		var word string
		if json.Unmarshal(v, &word) == nil {
			var mode ArgsMode
			if mode.UnmarshalText([]byte(word)) != nil {
				o.Errorf("tool_args", "tool %q: unknown mode %q (want exact, ignore, subset, superset, or a list of keys)", tool, word)
				continue
			}
			out[tool] = ArgsMatch{Mode: mode}
			continue
		}
		var keys []string
		if json.Unmarshal(v, &keys) != nil || len(keys) == 0 {
			o.Errorf("tool_args", "tool %q: want a mode or a non-empty list of keys", tool)
			continue
		}
		out[tool] = ArgsMatch{Keys: keys}
	}
	return out
}
