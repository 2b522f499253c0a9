package agent

import (
	"encoding/json"

	"github.com/proctorhq/proctor"
)

// trajectorySpecs adds the builders of trajectory_match and tool_status.
func trajectorySpecs(m map[string]proctor.Builder) {
	m["trajectory_match"] = func(o *proctor.SpecOptions) (proctor.Grader, error) {
		var expected []proctor.ToolCall
		if !o.Has("expected") && o.Err() == nil {
			o.Errorf("expected", "missing: trajectory_match needs the expected calls, a list of {name, arguments} ([] for none)")
		}
		o.Decode("expected", &expected)
		opts := TrajectoryMatchOptions{Name: o.Name()}
		opts.Mode = TrajectoryMode(o.Enum("mode", "strict", "strict", "unordered", "subset", "superset"))
		opts.Args = ArgsMode(o.Enum("args", "exact", "exact", "ignore", "subset", "superset"))
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
	m["tool_status"] = func(o *proctor.SpecOptions) (proctor.Grader, error) {
		names := o.Strings("names")
		if err := o.Err(); err != nil {
			return nil, err
		}
		g, err := NewToolStatus(ToolStatusOptions{Names: names, Name: o.Name()})
		if err != nil {
			o.Wrap("names", "invalid", err)
			return nil, o.Err()
		}
		return g, nil
	}
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
		var mode string
		if json.Unmarshal(v, &mode) == nil {
			if checkArgsMode(ArgsMode(mode)) != nil {
				o.Errorf("tool_args", "tool %q: unknown mode %q (want exact, ignore, subset, superset, or a list of keys)", tool, mode)
				continue
			}
			out[tool] = ArgsMatch{Mode: ArgsMode(mode)}
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
