package kit

import "testing"

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
