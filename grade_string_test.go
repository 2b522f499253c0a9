package proctor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func TestGradeString(t *testing.T) {
	for _, tt := range []struct {
		g    proctor.Grade
		want string
	}{
		{proctor.Grade{}, "not graded"},
		{proctor.Pass("ok"), "passed: ok"},
		{proctor.Grade{Grader: "contains", Status: proctor.StatusFailed, Score: 0.25, HasScore: true, Reason: `output lacks "Paris"`}, `contains: failed (score 0.25): output lacks "Paris"`},
		{proctor.Grade{Grader: "j", Reason: "no judge"}, "j: not graded: no judge"},
		{proctor.Grade{Status: proctor.StatusFlaky, Score: 1.0 / 3, HasScore: true}, "flaky (score 0.3333)"},
	} {
		if got := tt.g.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		if got := fmt.Sprint(tt.g); got != tt.want {
			t.Errorf("fmt.Sprint = %q, want %q", got, tt.want)
		}
	}
}

// TestGradeGraderField: a grader called directly may leave Grade.Grader
// empty; Check.Grade fills it with the grader's name.
func TestGradeGraderField(t *testing.T) {
	g := proctor.MustRegex(`a\d+`, proctor.RegexOptions{})
	s := &proctor.Sample{Output: "b"}
	if got := (proctor.Check{Grader: g}).Grade(context.Background(), s); got.Grader != g.Name() {
		t.Errorf("Check.Grade left Grader %q, want %q", got.Grader, g.Name())
	}
}

// TestRegexReasonQuotesPatternAsWritten: a pattern appears in reasons as
// its author wrote it, backslashes not doubled.
func TestRegexReasonQuotesPatternAsWritten(t *testing.T) {
	s := &proctor.Sample{Output: "b"}
	for _, tt := range []struct {
		g    *proctor.Regex
		want string
	}{
		{proctor.MustRegex(`a\d+ "x"`, proctor.RegexOptions{}), `output does not match "a\d+ "x"" as a whole`},
		{proctor.MustRegex("a\tb", proctor.RegexOptions{Match: proctor.MatchSearch}), `output has no match for "a\tb"`},
	} {
		if got := tt.g.Grade(context.Background(), s); got.Reason != tt.want {
			t.Errorf("reason %q, want %q", got.Reason, tt.want)
		}
	}
	b, _ := proctor.MustNotRegex(`<\w+>`, proctor.RegexOptions{}).Grade(context.Background(), &proctor.Sample{Output: "<b>"}).MarshalJSON()
	if want := `<\\w+>`; !strings.Contains(string(b), want) {
		t.Errorf("JSON %s lacks %s: backslash once (JSON-escaped), < and > unescaped", b, want)
	}
}

func ExampleGrade_String() {
	g := proctor.Check{Grader: proctor.MustRegex(`\d{4}`, proctor.RegexOptions{})}.Grade(context.Background(), &proctor.Sample{Output: "in 1999"})
	fmt.Println(g)
	// Output: regex: failed: output does not match "\d{4}" as a whole
}
