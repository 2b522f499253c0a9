package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func TestTrajectoryMatchReasons(t *testing.T) {
	exp := calls("search", `{"q": "a"}`, "book", `{"id": 1}`)
	tests := []struct {
		mode TrajectoryMode
		got  []proctor.ToolCall
		want string // a substring of the reason; "" means passed
	}{
		{TrajectoryStrict, calls("search", `{"q": "a"}`, "book", `{"id": 1.0}`), ""},
		{TrajectoryStrict, calls("search", `{"q": "b"}`, "book", `{"id": 1}`), `call 1: want search({"q":"a"}), got search({"q":"b"})`},
		{TrajectoryStrict, calls("search", `{"q": "a"}`), `call 2: want book({"id":1}), got no more calls (1 of 2)`},
		{TrajectoryStrict, calls("search", `{"q": "a"}`, "book", `{"id": 1}`, "pay", ``), `call 3: got pay({}), want no more calls`},
		{TrajectoryUnordered, calls("book", `{"id": 1}`, "search", `{"q": "a"}`), ""},
		{TrajectoryUnordered, calls("book", `{"id": 1}`), `expected call 1 search({"q":"a"}) has no matching call`},
		{TrajectoryUnordered, calls("book", `{"id": 1}`, "search", `{"q": "a"}`, "pay", ``), `call 3 pay({}) matches no expected call`},
		{TrajectorySuperset, calls("pay", ``, "book", `{"id": 1}`, "search", `{"q": "a"}`), ""},
		{TrajectorySuperset, calls("search", `{"q": "a"}`), `expected call 2 book`},
		{TrajectorySubset, calls("book", `{"id": 1}`), ""},
		{TrajectorySubset, nil, ""},
		{TrajectorySubset, calls("book", `{"id": 2}`), `call 1 book({"id":2}) matches no expected call`},
	}
	for _, tt := range tests {
		g, err := NewTrajectoryMatch(exp, TrajectoryMatchOptions{Mode: tt.mode})
		if err != nil {
			t.Fatal(err)
		}
		gr := g.Grade(context.Background(), &proctor.Sample{ToolCalls: tt.got})
		if tt.want == "" {
			if gr.Status != proctor.StatusPassed {
				t.Errorf("%s %v: %v, want passed", tt.mode, callNames(tt.got), gr)
			}
			continue
		}
		if gr.Status != proctor.StatusFailed || !strings.Contains(gr.Reason, tt.want) {
			t.Errorf("%s %v: %v, want failed with %q", tt.mode, callNames(tt.got), gr, tt.want)
		}
	}
}

func TestTrajectoryMatchBadInput(t *testing.T) {
	if _, err := NewTrajectoryMatch(nil, TrajectoryMatchOptions{Mode: 9}); !errors.Is(err, ErrTrajectoryMode) {
		t.Errorf("mode 9: err = %v, want ErrTrajectoryMode", err)
	}
	if _, err := NewTrajectoryMatch(nil, TrajectoryMatchOptions{ToolArgs: map[string]ArgsMatch{"x": {Mode: 9}}}); !errors.Is(err, ErrTrajectoryMode) {
		t.Errorf("tool_args mode 9: err = %v, want ErrTrajectoryMode", err)
	}
	var m TrajectoryMode
	if err := m.UnmarshalText([]byte("loose")); !errors.Is(err, ErrTrajectoryMode) {
		t.Errorf("UnmarshalText(loose): err = %v, want ErrTrajectoryMode", err)
	}
	for _, mode := range []TrajectoryMode{TrajectoryStrict, TrajectoryUnordered, TrajectorySubset, TrajectorySuperset} {
		var back TrajectoryMode
		if b, _ := mode.MarshalText(); back.UnmarshalText(b) != nil || back != mode {
			t.Errorf("%v does not round-trip through its text", mode)
		}
	}
	if s := ArgsMode(7).String(); s != "args_7" {
		t.Errorf("ArgsMode(7) = %q, want args_7", s)
	}
	if _, err := NewTrajectoryMatch(calls("a", `{"x":`), TrajectoryMatchOptions{}); err == nil {
		t.Error("expected arguments that are not JSON: nil error")
	}
	g, _ := NewTrajectoryMatch(calls("a", ``), TrajectoryMatchOptions{})
	if gr := g.Grade(context.Background(), &proctor.Sample{ToolCalls: calls("a", `{"x":`)}); gr.Status != proctor.StatusNotGraded {
		t.Errorf("call arguments that are not JSON: %v, want not graded", gr)
	}
}

func TestToolStatus(t *testing.T) {
	cs := calls("search", ``, "charge", ``, "charge", ``)
	cs[1].IsError, cs[1].Result = true, []byte(`"card declined"`)
	cs[2].IsError = true
	s := &proctor.Sample{ToolCalls: cs}
	all, _ := NewToolStatus(ToolStatusOptions{})
	gr := all.Grade(context.Background(), s)
	if gr.Status != proctor.StatusFailed || gr.Reason != `call 2 (charge) errored: "card declined" (2 calls errored)` {
		t.Errorf("every tool: %v", gr)
	}
	only, _ := NewToolStatus(ToolStatusOptions{Names: []string{"search"}})
	if gr := only.Grade(context.Background(), s); gr.Status != proctor.StatusPassed {
		t.Errorf("search only: %v, want passed", gr)
	}
	if _, err := NewToolStatus(ToolStatusOptions{Names: []string{""}}); err == nil {
		t.Error("empty name: nil error")
	}
}
