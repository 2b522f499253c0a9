package nesting

import (
	"strings"
	"testing"
)

func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		text  string
		limit int
		want  int
	}{
		{`{}`, -1, 1},
		{`{"a":[1,{"b":[]}]}`, -1, 4},
		{`{"a":"[[[[{{{{"}`, -1, 1},
		{`{"a":"\"[[[["}`, -1, 1},
		{`]]]{`, -1, 1},
		{`[[[[[[`, 3, 4},
		{`"unterminated [[[`, -1, 0},
		{strings.Repeat(`{"anyOf":[`, 3000), 64, 65},
	} {
		if got := JSON([]byte(tc.text), tc.limit); got != tc.want {
			t.Errorf("JSON(%.40q, %d) = %d, want %d", tc.text, tc.limit, got, tc.want)
		}
	}
	path := `$[?@[?@.a=='((((']]`
	if got := Depth([]byte(path), "[(", "])", `"'`, -1); got != 2 {
		t.Errorf("Depth(%q) = %d, want 2", path, got)
	}
}

func FuzzDepth(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"]"}]}`), 8)
	f.Fuzz(func(t *testing.T, text []byte, limit int) {
		limit = limit % 100
		d := JSON(text, limit)
		if d < 0 || (limit >= 0 && d > limit+1) || d > len(text) {
			t.Fatalf("JSON(%q, %d) = %d", text, limit, d)
		}
	})
}
