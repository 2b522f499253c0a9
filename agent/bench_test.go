package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ohler55/ojg/jp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/race"
)

// agentSample is about 1 KB of prose with four tool calls beside it.
func agentSample() *proctor.Sample {
	const para = "The request asks for a comparison of the three proposals. Each one trades cost against delivery time. "
	return &proctor.Sample{
		Output: strings.Repeat(para, 10),
		ToolCalls: calls(
			"search_flights", `{"from":"LHR","to":"BOS","date":"2026-12-04","direct":true}`,
			"get_price", `{"flight":"BA117","seats":2}`,
			"get_price", `{"flight":"VS11","seats":2}`,
			"book_flight", `{"flight":"BA117","seats":2,"passengers":[{"name":"A. Smith"},{"name":"B. Smith"}]}`,
		),
	}
}

func benchGrade(b *testing.B, g proctor.Grader) {
	b.Helper()
	s := agentSample()
	if got := g.Grade(context.Background(), s); got.Status != proctor.StatusPassed {
		b.Fatalf("got %v (%s), want passed", got.Status, got.Reason)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Grade(context.Background(), s)
	}
}

func BenchmarkToolCalled(b *testing.B) {
	g, _ := NewToolCalled("book_flight", ToolCalledOptions{})
	benchGrade(b, g)
}

func BenchmarkToolNotCalled(b *testing.B) {
	g, _ := NewToolNotCalled("cancel_booking", ToolNotCalledOptions{})
	benchGrade(b, g)
}

func BenchmarkToolSequence(b *testing.B) {
	g, _ := NewToolSequence([]string{"search_flights", "book_flight"}, ToolSequenceOptions{})
	benchGrade(b, g)
}

// BenchmarkToolSequenceCalls scores the sample's four calls, arguments
// and all, against the same calls in another order (ragas'
// ToolCallAccuracy, flexible order).
func BenchmarkToolSequenceCalls(b *testing.B) {
	want := agentSample().ToolCalls
	want[0], want[3] = want[3], want[0]
	g, _ := NewToolSequence(nil, ToolSequenceOptions{Mode: SequenceAnyOrder, Calls: want})
	benchGrade(b, g)
}

// BenchmarkToolCallF1 scores the distinct names called, and then the
// calls with their arguments, against the expected ones.
func BenchmarkToolCallF1(b *testing.B) {
	names, _ := NewToolCallF1([]string{"search_flights", "get_price", "book_flight"}, ToolCallF1Options{})
	withArgs, _ := NewToolCallF1(nil, ToolCallF1Options{Calls: agentSample().ToolCalls})
	b.Run("names", func(b *testing.B) { benchGrade(b, names) })
	b.Run("calls", func(b *testing.B) { benchGrade(b, withArgs) })
}

func BenchmarkToolArgumentAssertion(b *testing.B) {
	benchGrade(b, MustToolArgumentAssertion("book_flight", "$.seats", 2, ToolArgumentAssertionOptions{}))
}

// BenchmarkToolArgumentAssertionBare is the primitive: decode the one
// call's arguments and get the path.
func BenchmarkToolArgumentAssertionBare(b *testing.B) {
	x := jp.MustParseString("$.seats")
	raw := agentSample().ToolCalls[3].Arguments
	b.ReportAllocs()
	for b.Loop() {
		var v any
		_ = json.Unmarshal(raw, &v)
		_ = x.Get(v)
	}
}

// TestToolAllocs pins the allocation promise of the passing path: the
// name graders allocate nothing.
func TestToolAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts differ under -race")
	}
	called, _ := NewToolCalled("book_flight", ToolCalledOptions{})
	seq, _ := NewToolSequence([]string{"search_flights", "book_flight"}, ToolSequenceOptions{})
	s := agentSample()
	for _, g := range []proctor.Grader{called, seq} {
		if got := testing.AllocsPerRun(20, func() { g.Grade(context.Background(), s) }); got > 0 {
			t.Errorf("%s: %v allocations per passing grade, want 0", g.Name(), got)
		}
	}
}
