package similarity

import (
	"testing"

	"github.com/proctorhq/proctor/internal/testkit"
)

// TestEnumText round-trips every value of the package's enums through MarshalText and
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
		{"ContextMeasure", []string{"f1", "precision", "recall"},
			func() enum { return new(ContextMeasure) }, func(i int) enum { v := ContextMeasure(i); return &v }},
		{"RougeMeasure", []string{"fmeasure", "precision", "recall"},
			func() enum { return new(RougeMeasure) }, func(i int) enum { v := RougeMeasure(i); return &v }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { testkit.EnumText(t, tt.words, tt.fresh, tt.value) })
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
