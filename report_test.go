package proctor

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPassRate(t *testing.T) {
	tests := []struct {
		name   string
		totals Totals
		rate   float64
		den    int
		ok     bool
	}{
		{"empty", Totals{}, 0, 0, false},                                           // nothing measured: not available, never 0 or 1
		{"only not graded and flaky", Totals{Flaky: 2, NotGraded: 3}, 0, 0, false}, // neither is in the denominator
		{"mixed", Totals{Passed: 7, Failed: 2, Flaky: 1, NotGraded: 1}, 7.0 / 9, 9, true},
		{"all passed", Totals{Passed: 3}, 1, 3, true},
	}
	for _, tt := range tests {
		rate, den, ok := tt.totals.PassRate()
		if rate != tt.rate || den != tt.den || ok != tt.ok {
			t.Errorf("%s: got %v/%d/%v, want %v/%d/%v", tt.name, rate, den, ok, tt.rate, tt.den, tt.ok)
		}
	}
}

func TestReportJSON(t *testing.T) {
	rep := NewReport("support-bot")
	rep.Add(CaseResult{ID: "a", Verdict: StatusFlaky, Attempts: []AttemptResult{
		{Verdict: StatusPassed, Grades: []Grade{{Grader: "json_schema", Status: StatusPassed}}},
		{Verdict: StatusFailed, Grades: []Grade{{Grader: "json_schema", Status: StatusFailed, Reason: "x", Caveats: []string{"c1"}}}},
	}})
	rep.Add(CaseResult{ID: "b", Verdict: StatusNotGraded})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"suite":                 "support-bot",
		"totals":                map[string]any{"passed": 0.0, "failed": 0.0, "flaky": 1.0, "not_graded": 1.0},
		"pass_rate":             nil, // no passed or failed case: not available
		"pass_rate_denominator": 0.0,
		"cases": []any{
			map[string]any{"id": "a", "verdict": "flaky", "attempts": []any{
				map[string]any{"verdict": "passed", "grades": []any{map[string]any{"grader": "json_schema", "status": "passed", "reason": ""}}},
				map[string]any{"verdict": "failed", "grades": []any{map[string]any{"grader": "json_schema", "status": "failed", "reason": "x", "caveats": []any{"c1"}}}},
			}},
			map[string]any{"id": "b", "verdict": "not_graded", "attempts": nil},
		},
		"judges":  []any{},
		"caveats": []any{"c1"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("report JSON (-want +got):\n%s", d)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil || back.Totals != rep.Totals || len(back.Cases) != 2 || back.Cases[0].Verdict != StatusFlaky {
		t.Errorf("round trip: got %+v, %v", back, err)
	}

	rep.Add(CaseResult{ID: "c", Verdict: StatusPassed})
	rep.Add(CaseResult{ID: "d", Verdict: StatusFailed})
	rep.Add(CaseResult{ID: "e", Verdict: StatusPassed})
	b, _ = json.Marshal(rep)
	got = nil
	_ = json.Unmarshal(b, &got)
	if got["pass_rate"] != 2.0/3 || got["pass_rate_denominator"] != 3.0 {
		t.Errorf("pass_rate %v over %v, want 2/3 over 3", got["pass_rate"], got["pass_rate_denominator"])
	}
}
