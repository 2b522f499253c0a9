package kit

import (
	"fmt"
	"math"
	"testing"
)

func TestClipRunes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"héllo", 10, "héllo"},
		{"héllo", 5, "héllo"},
		{"héllo", 2, "hé…"},
		{"", 0, ""},
		{"ab", 0, "…"},
	} {
		if got := ClipRunes(c.in, c.n); got != c.want {
			t.Errorf("ClipRunes(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	if Plural(1) != "" || Plural(0) != "s" || Plural(2) != "s" {
		t.Error("Plural: want \"\" for 1 and \"s\" otherwise")
	}
}

func TestNormJSON(t *testing.T) {
	type pt struct {
		X int `json:"x"`
	}
	v, err := NormJSON(pt{X: 2})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.(map[string]any)
	if !ok || m["x"] != float64(2) {
		t.Errorf("NormJSON(pt{2}) = %#v, want map[x:2] with a float64", v)
	}
	if _, err := NormJSON(func() {}); err == nil {
		t.Error("NormJSON(func) should fail")
	}
}

func TestUnitThreshold(t *testing.T) {
	nan := math.NaN()
	for _, tt := range []struct {
		t    *float64
		want float64
		err  string
	}{
		{nil, 0.5, ""},
		{ptr(0), 0, ""},
		{ptr(1), 1, ""},
		{ptr(0.25), 0.25, ""},
		{ptr(-0.5), 0, "threshold -0.5: want 0 to 1"},
		{ptr(1.5), 0, "threshold 1.5: want 0 to 1"},
		{&nan, 0, "threshold NaN: want 0 to 1"},
		{ptr(math.Inf(-1)), 0, "threshold -Inf: want 0 to 1"},
	} {
		got, err := UnitThreshold(tt.t, 0.5)
		if gotErr := fmt.Sprint(err); tt.err == "" && err != nil || tt.err != "" && gotErr != tt.err || got != tt.want {
			t.Errorf("UnitThreshold(%v) = %v, %v; want %v, %q", Deref(tt.t, -1), got, err, tt.want, tt.err)
		}
	}
}

func ptr(f float64) *float64 { return &f }

func TestCutBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"short", 10, "short", false},
		{"exact", 5, "exact", false},
		{"abcdef", 3, "abc", true},
		{"aé", 2, "a", true}, // é is two bytes: never split
		{"日本", 4, "日", true},
		{"abc", 0, "", true},
		{"abc", -1, "", true},
		{"", -1, "", true},
	} {
		got, cut := CutBytes(tc.s, tc.n)
		if got != tc.want || cut != tc.cut {
			t.Errorf("CutBytes(%q, %d) = %q, %v; want %q, %v", tc.s, tc.n, got, cut, tc.want, tc.cut)
		}
	}
}
