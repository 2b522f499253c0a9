package proctor

import (
	"testing"

	"github.com/proctorhq/proctor/internal/testkit"
)

// TestEnumText round-trips every value of each enum through MarshalText and
// UnmarshalText, and checks that an unknown word is an error that leaves the
// value unchanged.
func TestEnumText(t *testing.T) {
	type enum = testkit.Enum
	tests := []struct {
		name  string
		words []string // String of each value, in order from zero
		fresh func() enum
		value func(i int) enum
	}{
		{"Kind", []string{"deterministic", "network", "model"},
			func() enum { return new(Kind) }, func(i int) enum { v := Kind(i); return &v }},
		{"ContainsMode", []string{"all", "any"},
			func() enum { return new(ContainsMode) }, func(i int) enum { v := ContainsMode(i); return &v }},
		{"MatchMode", []string{"default", "full", "search"},
			func() enum { return new(MatchMode) }, func(i int) enum { v := MatchMode(i); return &v }},
		{"TokenField", []string{"output_tokens", "input_tokens", "total_tokens"},
			func() enum { return new(TokenField) }, func(i int) enum { v := TokenField(i); return &v }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { testkit.EnumText(t, tt.words, tt.fresh, tt.value) })
	}
}
