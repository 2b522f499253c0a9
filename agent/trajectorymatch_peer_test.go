package agent

import (
	"context"
	"fmt"
	"testing"

	"github.com/proctorhq/proctor"
)

// The cases below are agentevals' own trajectory-match tests,
// langchain-ai/agentevals python/tests/test_trajectory.py at commit
// 946ad15b9f2ce9bc9843edd2bb773bd07d78ca7e (the home of openevals'
// trajectory match), with each message list flattened to its tool calls in
// order. want is the score that file asserts for each trajectory mode (or,
// for the tool_args_match_mode tests, for each argument mode under the
// default strict trajectory mode).
type peerCase struct {
	test     string
	out, ref []proctor.ToolCall
	argModes bool // want is keyed by argument mode, under strict
	toolArgs map[string]ArgsMatch
	want     map[string]bool
}

func gw(city string) proctor.ToolCall {
	return proctor.ToolCall{Name: "get_weather", Arguments: []byte(fmt.Sprintf(`{"city": %q}`, city))}
}

func tc(name, args string) proctor.ToolCall {
	return proctor.ToolCall{Name: name, Arguments: []byte(args)}
}

func allModes(v bool) map[string]bool {
	return map[string]bool{"strict": v, "unordered": v, "subset": v, "superset": v}
}

func modes(strict, unordered, subset, superset bool) map[string]bool {
	return map[string]bool{"strict": strict, "unordered": unordered, "subset": subset, "superset": superset}
}

var lookupTime = `"time": {"start": "2025-03-22T18:34:40Z", "end": "2025-03-22T20:34:40Z"}`

var peerCases = []peerCase{
	{test: "test_trajectory_match", out: []proctor.ToolCall{gw("San Francisco")}, ref: []proctor.ToolCall{gw("San Francisco")}, want: allModes(true)},
	{test: "test_trajectory_with_different_tool_message_order", out: []proctor.ToolCall{gw("SF"), gw("London")}, ref: []proctor.ToolCall{gw("London"), gw("SF")}, want: allModes(true)},
	{test: "test_trajectory_with_different_message_count", out: []proctor.ToolCall{gw("SF"), gw("London")}, ref: []proctor.ToolCall{gw("London"), gw("SF")}, want: modes(false, true, true, true)},
	{test: "test_trajectory_subset_tool_call", out: []proctor.ToolCall{gw("SF")}, ref: []proctor.ToolCall{gw("London"), gw("SF")}, want: modes(false, false, true, false)},
	{test: "test_exact_matcher_with_different_called_tools", out: []proctor.ToolCall{gw("SF")}, ref: []proctor.ToolCall{tc("accuweather_forecast", `{"city": "San Francisco"}`)}, want: allModes(false)},
	{test: "test_trajectory_with_extra_tool_calls_and_override", out: []proctor.ToolCall{gw("San Francisco"), gw("London")}, ref: []proctor.ToolCall{gw("SF and London")},
		toolArgs: map[string]ArgsMatch{"get_weather": {Mode: ArgsIgnore}}, want: modes(false, false, false, true)},
	{test: "test_trajectory_with_subset_tool_calls_and_override", out: []proctor.ToolCall{gw("SF and London")}, ref: []proctor.ToolCall{gw("San Francisco"), gw("London")},
		toolArgs: map[string]ArgsMatch{"get_weather": {Mode: ArgsIgnore}}, want: modes(false, false, true, false)},
	{test: "test_trajectory_match_with_langchain_messages_failure", out: []proctor.ToolCall{gw("SF")}, ref: []proctor.ToolCall{tc("accuweather_forecast", `{"city": "San Francisco"}`)}, want: allModes(false)},
	{test: "test_trajectory_match_with_overrides (without the overrides)",
		out: []proctor.ToolCall{tc("fetch_user_flight_information", `{}`), tc("search_flights", `{"start_time": "2025-03-22T18:34:40Z", "departure_airport": "CDG", "arrival_airport": "BSL"}`),
			tc("lookup_policy", `{"query": "flight upgrades"}`), tc("lookup_policy", `{"query": "first class"}`)},
		ref:  []proctor.ToolCall{tc("fetch_user_flight_information", `{}`), tc("lookup_policy", `{"query": "upgrade to first class"}`), tc("lookup_policy", `{"query": "foo"}`)},
		want: allModes(false)},
	{test: "test_trajectory_match_with_nested_field_overrides (without the override)", out: nestedOut, ref: nestedRef, want: allModes(false)},
	{test: "test_trajectory_match_with_nested_field_overrides", out: nestedOut, ref: nestedRef,
		toolArgs: map[string]ArgsMatch{"lookup_policy": {Keys: []string{"time.start"}}}, want: allModes(true)},
	{test: "test_tool_args_match_mode_superset", argModes: true, out: []proctor.ToolCall{tc("get_flight_info", `{"is_cool": true, "flight_no": "LX0112"}`)}, ref: []proctor.ToolCall{tc("get_flight_info", `{"flight_no": "LX0112"}`)},
		want: map[string]bool{"exact": false, "ignore": true, "subset": false, "superset": true}},
	{test: "test_tool_args_match_mode_subset", argModes: true, out: []proctor.ToolCall{tc("get_flight_info", `{"flight_no": "LX0112"}`)}, ref: []proctor.ToolCall{tc("get_flight_info", `{"flight_no": "LX0112", "foo": "bar"}`)},
		want: map[string]bool{"exact": false, "ignore": true, "subset": true, "superset": false}},
	{test: "test_tool_args_match_mode_exact", argModes: true, out: []proctor.ToolCall{tc("get_flight_info", `{"flight_no": "LX0112"}`)}, ref: []proctor.ToolCall{tc("get_flight_info", `{"flight_no": "LX0112"}`)},
		want: map[string]bool{"exact": true, "ignore": true, "subset": true, "superset": true}},
}

var (
	nestedOut = []proctor.ToolCall{tc("fetch_user_flight_information", `{"user_id": "123"}`),
		tc("lookup_policy", `{"query": "flight upgrades", `+lookupTime+`}`), tc("lookup_policy", `{"query": "first class", `+lookupTime+`}`)}
	nestedRef = []proctor.ToolCall{tc("fetch_user_flight_information", `{"user_id": "123"}`),
		tc("lookup_policy", `{"query": "foo", "time": {"start": "2025-03-22T18:34:40Z", "end": "baz"}}`),
		tc("lookup_policy", `{"query": "bar", "time": {"start": "2025-03-22T18:34:40Z", "end": "baz"}}`)}
)

// peerDisagreements are the rows where proctor's answer differs from
// agentevals', and why: agentevals' strict mode compares message by
// message and lets the calls of one message come in any order; proctor's
// tool calls carry no message, so strict orders every call.
var peerDisagreements = map[string]bool{
	"test_trajectory_with_different_tool_message_order/strict": true,
}

func TestTrajectoryMatchAgentevals(t *testing.T) {
	agree, total := 0, 0
	for _, c := range peerCases {
		for key, want := range c.want {
			opts := TrajectoryMatchOptions{ToolArgs: c.toolArgs}
			var err error
			if c.argModes {
				err = opts.Args.UnmarshalText([]byte(key))
			} else {
				err = opts.Mode.UnmarshalText([]byte(key))
			}
			if err != nil {
				t.Fatal(err)
			}
			g, err := NewTrajectoryMatch(c.ref, opts)
			if err != nil {
				t.Fatal(err)
			}
			gr := g.Grade(context.Background(), &proctor.Sample{ToolCalls: c.out})
			got := gr.Status == proctor.StatusPassed
			total++
			id := c.test + "/" + key
			if peerDisagreements[id] {
				if got == want {
					t.Errorf("%s: now agrees with agentevals (%v); drop it from peerDisagreements", id, got)
				}
				continue
			}
			if got != want {
				t.Errorf("%s: passed = %v, agentevals says %v (%s)", id, got, want, gr.Reason)
				continue
			}
			agree++
		}
	}
	t.Logf("agentevals trajectory match: %d of %d rows agree", agree, total)
}
