package metric_test

import (
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// Reference values from autoevals' own tests:
//
//	js/json.test.ts, js/value.test.ts, py/autoevals/test_json.py,
//	py/autoevals/test_values.py  braintrustdata/autoevals@edfa259bb568c17b5089335262418744f9cc95f2

func TestNumericDiffAutoevals(t *testing.T) {
	for _, c := range []struct{ a, b, want float64 }{{0, 0, 1}, {0, 1, 0}, {1, 2, 0.66667}, {1.0, 2.0, 0.66667}, {-1, 2, 0}} {
		if got := metric.NumericDiff(c.a, c.b); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("NumericDiff(%v, %v) = %v, want %v (autoevals)", c.a, c.b, got, c.want)
		}
	}
	if got := metric.NumericDiff(1e308, -1e308); got != 0 {
		t.Errorf("NumericDiff(1e308, -1e308) = %v, want 0", got)
	}
	if got := metric.NumericDiff(1e308, 1e308); got != 1 {
		t.Errorf("NumericDiff(1e308, 1e308) = %v, want 1", got)
	}
}

func TestListContainsAutoevals(t *testing.T) {
	ws := []string{"workspaces", "section", "view", "others", "workspace", "team", "pinning"}
	sw := []string{"starred", "multiple different workspaces", "shortcuts"}
	tests := []struct {
		out, exp []string
		extra    bool
		want     float64
	}{
		{[]string{}, []string{}, false, 1},
		{[]string{"0"}, []string{}, false, 0},
		{[]string{}, []string{"0"}, false, 0},
		{[]string{"a"}, []string{"a"}, false, 1},
		{[]string{"a"}, []string{"a", "b"}, false, 0.5},
		{[]string{"a", "b"}, []string{"a"}, false, 0.5},
		{ws, sw, false, 0.1218},
		{sw, ws, false, 0.1218},
		{[]string{"a", "b"}, []string{"a"}, true, 1},
		{[]string{"a", "b"}, []string{"b"}, true, 1},
	}
	maxDiff := 0.0
	for _, tt := range tests {
		got := metric.ListContains(tt.out, tt.exp, tt.extra, metric.LevenshteinSimilarity)
		d := math.Abs(got - tt.want)
		maxDiff = max(maxDiff, d)
		if d > 1e-4 {
			t.Errorf("ListContains(%q, %q, extra %v) = %v, want %v (autoevals)", tt.out, tt.exp, tt.extra, got, tt.want)
		}
	}
	t.Logf("%d autoevals values, max abs difference %.2g", len(tests), maxDiff)
}
