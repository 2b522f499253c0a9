package proctor

import (
	"context"
	"strings"
	"testing"
)

func TestExactMatch(t *testing.T) {
	tests := []struct {
		name string
		spec string // compiled with the Compiler as well
		g    Grader
		s    Sample
		want Status
		why  string
	}{
		{"case-insensitive default", `{"type":"exact_match","expected":"ready"}`, NewExactMatchTo("ready", ExactMatchOptions{}),
			Sample{Output: " READY \n"}, StatusPassed, "ignores case and surrounding space by default"},
		{"case-sensitive", `{"type":"exact_match","expected":"ready","case_sensitive":true}`, NewExactMatchTo("ready", ExactMatchOptions{CaseSensitive: true}),
			Sample{Output: "READY"}, StatusFailed, "case_sensitive compares case"},
		{"sample expected", `{"type":"exact_match"}`, NewExactMatch(ExactMatchOptions{}),
			Sample{Output: "x", Expected: Ptr(" X")}, StatusPassed, "takes the sample's expected, trimmed"},
		{"no expected", `{"type":"exact_match"}`, NewExactMatch(ExactMatchOptions{}),
			Sample{Output: "x"}, StatusNotGraded, "nothing to compare with"},
		{"empty expected is an expected", `{"type":"exact_match"}`, NewExactMatch(ExactMatchOptions{}),
			Sample{Output: " ", Expected: Ptr("")}, StatusPassed, "an empty expected answer is not a missing one"},
		{"spec expected beats sample", `{"type":"exact_match","expected":"a"}`, NewExactMatchTo("a", ExactMatchOptions{}),
			Sample{Output: "a", Expected: Ptr("b")}, StatusPassed, "the spec's value is used"},
		{"punctuation", `{"type":"exact_match","expected":"Hello, world!","remove_punctuation":true}`, NewExactMatchTo("Hello, world!", ExactMatchOptions{RemovePunctuation: true}),
			Sample{Output: "hello world"}, StatusPassed, "punctuation removed from both sides"},
		{"punctuation kept", `{"type":"exact_match","expected":"Hello, world!"}`, NewExactMatchTo("Hello, world!", ExactMatchOptions{}),
			Sample{Output: "hello world"}, StatusFailed, "punctuation is kept by default"},
		{"structural", `{"type":"exact_match","expected":{"a":1,"b":[1,2]}}`, must(NewExactMatchJSON(map[string]any{"a": 1, "b": []any{1, 2}}, ExactMatchOptions{})),
			Sample{Output: "Sure:\n```json\n{\"b\": [1, 2.0], \"a\": 1}\n```"}, StatusPassed, "keys order-free, numbers by value, fences removed"},
		{"structural differs", `{"type":"exact_match","expected":[1,2]}`, must(NewExactMatchJSON([]any{1, 2}, ExactMatchOptions{})),
			Sample{Output: "[2, 1]"}, StatusFailed, "arrays keep order"},
		{"structural not JSON", `{"type":"exact_match","expected":{"a":1}}`, must(NewExactMatchJSON(map[string]any{"a": 1}, ExactMatchOptions{})),
			Sample{Output: "a is 1"}, StatusFailed, "the output must be JSON"},
		{"structural from sample", `{"type":"exact_match"}`, NewExactMatch(ExactMatchOptions{}),
			Sample{Output: `{"a": 1}`, Expected: Ptr(`{"a":1.0}`), ExpectedJSON: true}, StatusPassed, "a JSON expected on the sample compares structurally"},
		{"JSON-looking string from sample", `{"type":"exact_match"}`, NewExactMatch(ExactMatchOptions{}),
			Sample{Output: `{"a": 1}`, Expected: Ptr(`{"a":1.0}`)}, StatusFailed, "an expected that was a string compares as text, even when it reads as JSON"},
		{"number expected", `{"type":"exact_match","expected":42}`, NewExactMatchTo("42", ExactMatchOptions{}),
			Sample{Output: "42"}, StatusPassed, "a number compares as its JSON text"},
	}
	c := NewCompiler()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Grade(context.Background(), &tt.s); got.Status != tt.want {
				t.Errorf("constructor: got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
			ch, err := c.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), &tt.s); got.Status != tt.want {
				t.Errorf("spec: got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
		})
	}
}

func TestOneOf(t *testing.T) {
	g := must(NewOneOf([]string{"yes", " no "}, OneOfOptions{}))
	cs := must(NewOneOf([]string{"yes"}, OneOfOptions{CaseSensitive: true}))
	tests := []struct {
		g    *OneOf
		out  string
		want Status
	}{
		{g, " No ", StatusPassed},
		{g, "YES", StatusPassed},
		{g, "maybe", StatusFailed},
		{cs, "YES", StatusFailed},
		{cs, "yes", StatusPassed},
	}
	for _, tt := range tests {
		if got := tt.g.Grade(context.Background(), &Sample{Output: tt.out}); got.Status != tt.want {
			t.Errorf("one_of(%q) = %v, want %v", tt.out, got.Status, tt.want)
		}
	}
	if _, err := NewOneOf(nil, OneOfOptions{}); err == nil {
		t.Errorf("NewOneOf(nil) succeeded, want an error")
	}
}

// TestCombinatorsRefuseNoGraders: all and any of no graders measure
// nothing, so NewAll and NewAny refuse them when built instead of leaving
// every grade not graded (all) or failed (any).
func TestCombinatorsRefuseNoGraders(t *testing.T) {
	if g, err := NewAll("checks"); err == nil || g != nil || !strings.Contains(err.Error(), "proctor: all needs at least one grader") {
		t.Errorf("NewAll() = %v, %v; want the refusal", g, err)
	}
	if g, err := NewAny("checks"); err == nil || g != nil || !strings.Contains(err.Error(), "proctor: any needs at least one grader") {
		t.Errorf("NewAny() = %v, %v; want the refusal", g, err)
	}
}

func TestCombinators(t *testing.T) {
	P := Func("p", func(context.Context, *Sample) Grade { return Pass("") })
	F := Func("f", func(context.Context, *Sample) Grade { return Fail("no") })
	N := Func("n", func(context.Context, *Sample) Grade { return NotGraded("?") })
	tests := []struct {
		name string
		g    Grader
		want Status
	}{
		{"all pass", must(NewAll("", P, P)), StatusPassed},
		{"all one fails", must(NewAll("", P, N, F)), StatusFailed},
		{"all not graded", must(NewAll("", P, N)), StatusNotGraded},
		{"all with a nil grader", must(NewAll("", P, nil)), StatusNotGraded}, // a nil grader is not graded, never a pass
		{"zero all", &All{}, StatusNotGraded},                                // nothing measured is no pass
		{"zero any", &Any{}, StatusFailed},                                   // no check passed
		{"any one passes", must(NewAny("", F, N, P)), StatusPassed},
		{"any all fail", must(NewAny("", F, F)), StatusFailed},
		{"any none passed, one not graded", must(NewAny("", F, N)), StatusNotGraded},
		{"any of a nil grader", must(NewAny("", nil)), StatusNotGraded},
		{"not pass", NewNot("", P), StatusFailed},
		{"not fail", NewNot("", F), StatusPassed},
		{"not not graded", NewNot("", N), StatusNotGraded}, // not knowing is not the opposite of anything
	}
	for _, tt := range tests {
		if got := tt.g.Grade(context.Background(), &Sample{}); got.Status != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got.Status, tt.want)
		}
	}
}
