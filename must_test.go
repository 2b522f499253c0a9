package proctor

import (
	"strings"
	"testing"
)

// TestMustConstructors checks that each MustX twin returns the grader its
// NewX builds for valid input and panics naming the call for invalid input.
func TestMustConstructors(t *testing.T) {
	tests := []struct {
		name  string
		build func() Grader
		bad   bool
		why   string
	}{
		{"MustJSONPathEquals", func() Grader { return MustJSONPathEquals("$.a", 1, JSONPathOptions{}) }, false, "a valid query"},
		{"MustJSONPathEquals", func() Grader { return MustJSONPathEquals("$[", 1, JSONPathOptions{}) }, true, "the query does not parse"},
		{"MustJSONPathExists", func() Grader { return MustJSONPathExists("$.a", true, JSONPathOptions{}) }, false, "a valid query"},
		{"MustJSONPathExists", func() Grader { return MustJSONPathExists("$[", true, JSONPathOptions{}) }, true, "the query does not parse"},
		{"MustJSONPathOneOf", func() Grader { return MustJSONPathOneOf("$.a", []any{1, 2}, JSONPathOptions{}) }, false, "a valid query"},
		{"MustJSONPathOneOf", func() Grader { return MustJSONPathOneOf("$.a", nil, JSONPathOptions{}) }, true, "no values to compare with"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.why, func(t *testing.T) {
			var g Grader
			var panicked any
			func() {
				defer func() { panicked = recover() }()
				g = tt.build()
			}()
			if tt.bad {
				msg, _ := panicked.(string)
				if !strings.Contains(msg, "proctor: "+tt.name+"(") {
					t.Errorf("got panic %v, want one naming %s (%s)", panicked, tt.name, tt.why)
				}
				return
			}
			if panicked != nil || g == nil {
				t.Errorf("got %v, panic %v; want a grader (%s)", g, panicked, tt.why)
			}
		})
	}
}
