package proctor_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// fixed is a grader that returns a set grade.
func fixed(name string, g proctor.Grade) proctor.Check {
	return proctor.Check{Grader: proctor.Func(name, func(context.Context, *proctor.Sample) proctor.Grade { return g })}
}

func TestWeighted(t *testing.T) {
	pass, fail := proctor.Pass(""), proctor.Fail("no")
	half := proctor.Scored(0.5, 0.4, "half")
	ng := proctor.NotGraded("no judge")
	tests := []struct {
		name      string
		children  []proctor.WeightedCheck
		threshold *float64
		want      proctor.Status
		score     float64
		reason    string
	}{
		// promptfoo's assert-set with a threshold: 2 of 3 equal weights
		// pass, 0.667 >= 0.5.
		{"threshold met", []proctor.WeightedCheck{{fixed("a", pass), 1}, {fixed("b", pass), 1}, {fixed("c", fail), 1}}, proctor.Ptr(0.5), proctor.StatusPassed, 2.0 / 3, ""},
		{"weights shift the score", []proctor.WeightedCheck{{fixed("a", pass), 1}, {fixed("c", fail), 3}}, proctor.Ptr(0.5), proctor.StatusFailed, 0.25, ""},
		{"graded scores count", []proctor.WeightedCheck{{fixed("a", half), 2}, {fixed("b", pass), 2}}, proctor.Ptr(0.75), proctor.StatusPassed, 0.75, ""},
		{"not graded left out", []proctor.WeightedCheck{{fixed("a", pass), 1}, {fixed("j", ng), 5}}, proctor.Ptr(0.9), proctor.StatusPassed, 1, "left out of the weighted score: j (not_graded: no judge)"},
		{"all left out", []proctor.WeightedCheck{{fixed("j", ng), 1}}, nil, proctor.StatusNotGraded, 0, "left out"},
		{"weight zero does not count", []proctor.WeightedCheck{{fixed("a", pass), 1}, {fixed("z", fail), 0}}, nil, proctor.StatusPassed, 1, ""},
		{"no threshold: every counted child must pass", []proctor.WeightedCheck{{fixed("a", pass), 9}, {fixed("b", half), 1}}, nil, proctor.StatusPassed, 0.95, ""},
		{"no threshold: a failure fails", []proctor.WeightedCheck{{fixed("a", pass), 9}, {fixed("c", fail), 1}}, nil, proctor.StatusFailed, 0.9, "failed: c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := proctor.NewWeighted(tt.children, proctor.WeightedOptions{Threshold: tt.threshold})
			if err != nil {
				t.Fatal(err)
			}
			got := g.Grade(context.Background(), &proctor.Sample{})
			if got.Status != tt.want || math.Abs(got.Score-tt.score) > 1e-12 || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("got %v, want %v score %v reason containing %q", got, tt.want, tt.score, tt.reason)
			}
		})
	}
	for _, bad := range [][]proctor.WeightedCheck{nil, {{fixed("a", pass), -1}}, {{fixed("a", pass), 0}}, {{fixed("a", pass), math.NaN()}}} {
		if _, err := proctor.NewWeighted(bad, proctor.WeightedOptions{}); err == nil {
			t.Errorf("NewWeighted(%v): want an error", bad)
		}
	}
}

func TestWeightedSpec(t *testing.T) {
	s := &proctor.Sample{Output: "Paris is the capital."}
	runSpecRows(t, s, []specRow{
		{Spec: `{"type":"weighted","graders":[{"type":"contains","value":"Paris"},{"type":"contains","value":"Lyon"}],"weights":[3,1],"threshold":0.7}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"weighted","graders":[{"type":"contains","value":"Paris"},{"type":"contains","value":"Lyon"}],"weights":[1,3],"threshold":0.7}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"weighted","graders":{"paris":{"type":"contains","value":"Paris"},"lyon":{"type":"contains","value":"Lyon"}},"weights":{"lyon":0}}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"weighted","graders":[{"type":"contains","value":"Paris"}],"weights":[1,2]}`, WantErr: true},
		{Spec: `{"type":"weighted","graders":{"a":{"type":"contains","value":"Paris"}},"weights":{"b":1}}`, WantErr: true},
		{Spec: `{"type":"weighted","graders":[{"type":"contains","value":"Paris"}],"weights":[-1]}`, WantErr: true},
		{Spec: `{"type":"weighted","graders":[{"type":"contains","value":"Paris"}],"weights":"even"}`, WantErr: true},
		{Spec: `{"type":"weighted","graders":[{"type":"contains","value":"Paris"},{"type":"contains","value":"Lyon"}],"weights":{"contains":2}}`, WantErr: true},
	})
}

func ExampleNewWeighted() {
	contains, _ := proctor.NewContains([]string{"Paris"}, proctor.ContainsOptions{})
	polite, _ := proctor.NewContains([]string{"please"}, proctor.ContainsOptions{IgnoreCase: true})
	g, err := proctor.NewWeighted([]proctor.WeightedCheck{
		{Check: proctor.Check{Grader: contains}, Weight: 3},
		{Check: proctor.Check{Grader: polite}, Weight: 1},
	}, proctor.WeightedOptions{Threshold: proctor.Ptr(0.7)})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: "Paris."}))
	// Output: passed (score 0.75): weighted score 0.7500 >= threshold 0.7000
}

// TestWeightedRefusesBadThreshold: a weighted set with a threshold outside
// [0, 1] (or NaN) is refused when built; a negative one passed a set
// whose every child failed.
func TestWeightedRefusesBadThreshold(t *testing.T) {
	children := []proctor.WeightedCheck{{Check: fixed("a", proctor.Fail("no")), Weight: 1}}
	for _, bad := range []float64{-0.1, 1.1, math.NaN()} {
		g, err := proctor.NewWeighted(children, proctor.WeightedOptions{Threshold: &bad})
		if want := fmt.Sprintf("proctor: weighted threshold %v: want 0 to 1", bad); err == nil || err.Error() != want || g != nil {
			t.Errorf("threshold %v: got %v, %v; want %q", bad, g, err, want)
		}
	}
	g, err := proctor.NewWeighted(children, proctor.WeightedOptions{Threshold: proctor.Ptr(0.0)})
	if err != nil {
		t.Fatal(err)
	}
	if gr := g.Grade(context.Background(), &proctor.Sample{}); gr.Status != proctor.StatusPassed {
		t.Errorf("threshold 0: got %v, want passed (every score reaches 0)", gr)
	}
}
