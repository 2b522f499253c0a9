package similarity

import (
	"encoding"
	"testing"
)

// TestEnumText round-trips every value of the package's enums through MarshalText and
// UnmarshalText, and checks that an unknown word is an error that leaves the
// value unchanged.
func TestEnumText(t *testing.T) {
	type enum interface {
		encoding.TextMarshaler
		encoding.TextUnmarshaler
	}
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
		t.Run(tt.name, func(t *testing.T) {
			for i, w := range tt.words {
				b, err := tt.value(i).MarshalText()
				if err != nil || string(b) != w {
					t.Errorf("value %d: MarshalText got %q, %v, want %q", i, b, err, w)
				}
				got := tt.fresh()
				if err := got.UnmarshalText([]byte(w)); err != nil {
					t.Errorf("UnmarshalText(%q): %v", w, err)
					continue
				}
				back, _ := got.MarshalText()
				if string(back) != w {
					t.Errorf("UnmarshalText(%q) decoded a value that encodes as %q", w, back)
				}
			}
			// An unknown word fails and leaves the value as it was.
			got := tt.value(1)
			before, _ := got.MarshalText()
			if err := got.UnmarshalText([]byte("nonsense")); err == nil {
				t.Errorf("UnmarshalText(nonsense): got nil error, want one")
			}
			if after, _ := got.MarshalText(); string(after) != string(before) {
				t.Errorf("after a failed UnmarshalText got %q, want %q unchanged", after, before)
			}
			// An unknown value prints with its type's prefix, never as a word.
			b, _ := tt.value(200).MarshalText()
			for _, w := range tt.words {
				if string(b) == w {
					t.Errorf("value 200 encodes as the word %q", w)
				}
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
