package proctor

import (
	"encoding/json"
	"testing"
)

func TestStatusText(t *testing.T) {
	tests := []struct {
		s    Status
		want string
	}{
		{StatusNotGraded, "not_graded"},
		{StatusPassed, "passed"},
		{StatusFailed, "failed"},
		{StatusFlaky, "flaky"},
		{Status(9), "status_9"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("Status(%d).String() = %q, want %q", tt.s, got, tt.want)
		}
		b, err := tt.s.MarshalText()
		if tt.s > StatusFlaky {
			if err == nil {
				t.Errorf("Status(%d).MarshalText() = %q, want an error", tt.s, b)
			}
			continue
		}
		var back Status
		if err != nil || back.UnmarshalText(b) != nil || back != tt.s {
			t.Errorf("Status(%d) round trip: got %v (%v), want %v", tt.s, back, err, tt.s)
		}
	}
	var s Status
	if err := s.UnmarshalText([]byte("not graded")); err != nil || s != StatusNotGraded {
		t.Errorf(`UnmarshalText("not graded") = %v, %v; want not_graded`, s, err)
	}
	if err := s.UnmarshalText([]byte("PASSED")); err == nil {
		t.Errorf(`UnmarshalText("PASSED") succeeded, want an error: the words are lower case`)
	}
}

func TestSeverityText(t *testing.T) {
	for _, w := range []string{"", "low", "medium", "high", "critical"} {
		var v Severity
		if err := v.UnmarshalText([]byte(w)); err != nil {
			t.Fatalf("UnmarshalText(%q): %v", w, err)
		}
		b, err := v.MarshalText()
		if err != nil || string(b) != w {
			t.Errorf("MarshalText(%v) = %q, %v; want %q", v, b, err, w)
		}
	}
	var v Severity
	if err := v.UnmarshalText([]byte("urgent")); err == nil {
		t.Errorf(`UnmarshalText("urgent") succeeded, want an error`)
	}
	if _, err := Severity(7).MarshalText(); err == nil {
		t.Errorf("Severity(7).MarshalText() succeeded, want an error")
	}
	if got := Severity(7).String(); got != "severity_7" {
		t.Errorf("Severity(7).String() = %q, want severity_7", got)
	}
	if got := Kind(12).String(); got != "kind_12" {
		t.Errorf("Kind(12).String() = %q, want kind_12", got)
	}
}

func TestAttemptVerdict(t *testing.T) {
	P, F, N := Pass(""), Fail(""), NotGraded("")
	tests := []struct {
		name   string
		grades []Grade
		want   Status
	}{
		{"empty", nil, StatusNotGraded},                                             // nothing was measured
		{"all passed", []Grade{P, P}, StatusPassed},                                 // every check passed
		{"one failed", []Grade{P, F, P}, StatusFailed},                              // any failure fails
		{"failed beats not graded", []Grade{N, F}, StatusFailed},                    // a failure is known even when another check could not decide
		{"not graded", []Grade{P, N}, StatusNotGraded},                              // no failure, but one check could not decide
		{"zero grade", []Grade{{}}, StatusNotGraded},                                // the zero Grade never passes
		{"out of range status", []Grade{P, {Status: StatusFlaky}}, StatusNotGraded}, // flaky is not a grade for one attempt
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AttemptVerdict(tt.grades); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCaseVerdict(t *testing.T) {
	P, F, N, K := StatusPassed, StatusFailed, StatusNotGraded, StatusFlaky
	tests := []struct {
		name     string
		attempts []Status
		want     Status
	}{
		{"none", nil, N},                          // no attempt, no measurement
		{"all passed", []Status{P, P, P}, P},      // every measured attempt passed
		{"all failed", []Status{F, F}, F},         // every measured attempt failed
		{"mixed", []Status{P, F, P}, K},           // both present: flaky
		{"not graded ignored", []Status{N, P}, P}, // an unmeasured attempt is left out, not counted as fail
		{"not graded and failed", []Status{F, N}, F},
		{"all not graded", []Status{N, N}, N}, // nothing measured
		{"flaky input", []Status{K}, K},       // a flaky sub-verdict stays flaky
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CaseVerdict(tt.attempts); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGradeJSON(t *testing.T) {
	tests := []struct {
		name string
		g    Grade
		want string
	}{
		{"no score", Grade{Status: StatusPassed, Grader: "contains"}, `{"grader":"contains","status":"passed","reason":""}`},
		{"score", Scored(0.25, 0.5, "low"), `{"grader":"","status":"failed","score":0.25,"reason":"low"}`},
		{"score one", Grade{Status: StatusPassed, Score: 1, HasScore: true}, `{"grader":"","status":"passed","score":1,"reason":""}`},
		{"tiny score", Grade{Status: StatusPassed, Score: 1e-9, HasScore: true}, `{"grader":"","status":"passed","score":1e-09,"reason":""}`},
		{"evidence and caveats", Grade{Status: StatusNotGraded, Reason: "why \"q\"\n", Evidence: map[string]int{"n": 1}, Caveats: []string{"c"}},
			`{"grader":"","status":"not_graded","reason":"why \"q\"\n","evidence":{"n":1},"caveats":["c"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.g)
			if err != nil || string(b) != tt.want {
				t.Fatalf("got %s (%v), want %s", b, err, tt.want)
			}
			var std map[string]any
			if err := json.Unmarshal(b, &std); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			var back Grade
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.Status != tt.g.Status || back.HasScore != tt.g.HasScore || back.Score != tt.g.Score || back.Reason != tt.g.Reason {
				t.Errorf("round trip: got %+v, want %+v", back, tt.g)
			}
		})
	}
	if _, err := json.Marshal(Grade{Status: 8}); err == nil {
		t.Errorf("Marshal of an invalid status succeeded, want an error")
	}
}

func TestScored(t *testing.T) {
	tests := []struct {
		score, threshold float64
		want             Status
		wantScore        float64
	}{
		{0.5, 0.5, StatusPassed, 0.5}, // pass at the threshold
		{0.49, 0.5, StatusFailed, 0.49},
		{1.5, 1, StatusPassed, 1}, // clamped
		{-1, 0, StatusPassed, 0},  // clamped to 0, and 0 >= 0
	}
	for _, tt := range tests {
		g := Scored(tt.score, tt.threshold, "")
		if g.Status != tt.want || g.Score != tt.wantScore || !g.HasScore {
			t.Errorf("Scored(%v, %v) = %v %v, want %v %v", tt.score, tt.threshold, g.Status, g.Score, tt.want, tt.wantScore)
		}
	}
	nan := 0.0
	if g := Scored(nan/nan, 0.5, ""); g.Status != StatusNotGraded {
		t.Errorf("Scored(NaN) = %v, want not_graded", g.Status)
	}
}
