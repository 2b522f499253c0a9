package metric

import (
	"errors"
	"strings"
	"testing"
)

func TestParseLocations(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Locations
		err  bool
	}{
		{"path:start-end", "See a.go:10-20 and ./b/c.py:3.", Locations{"a.go": {{10, 20}}, "b/c.py": {{3, 3}}}, false},
		{"github anchors", "src/x.ts#L5-L7 then src/x.ts#L9", Locations{"src/x.ts": {{5, 7}, {9, 9}}}, false},
		{"ranges merged", "a.go:1-5\na.go:4-9\na.go:11", Locations{"a.go": {{1, 9}, {11, 11}}}, false},
		{"backslashes", `pkg\util.go:2`, Locations{"pkg/util.go": {{2, 2}}}, false},
		{"JSON map", `{"a.go": [[1,5],[9,9]], "b.go": [3, "7-8"], "c.go": []}`, Locations{"a.go": {{1, 5}, {9, 9}}, "b.go": {{3, 3}, {7, 8}}, "c.go": nil}, false},
		{"fenced JSON", "Here:\n```json\n{\"a.go\": [[2, 4]]}\n```", Locations{"a.go": {{2, 4}}}, false},
		{"times and ports are not citations", "at 10:30 on localhost:8080", nil, true},
		{"reversed range ignored", "a.go:9-3", nil, true},
		{"empty", "", nil, true},
		{"bad JSON range", `{"a.go": [[5, 1]]}`, nil, true},
		{"JSON empty object", `{}`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLocations(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("got error %v, want error %v", err, tt.err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for f, rs := range tt.want {
				g, ok := got[f]
				if !ok || len(g) != len(rs) {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
				for i := range rs {
					if g[i] != rs[i] {
						t.Fatalf("got %v, want %v", got, tt.want)
					}
				}
			}
		})
	}
}

func TestParseLocationsErrNoLocations(t *testing.T) {
	for _, in := range []string{"", "no citations here", "{}"} {
		if _, err := ParseLocations(in); !errors.Is(err, ErrNoLocations) {
			t.Errorf("ParseLocations(%q): got %v, want ErrNoLocations", in, err)
		}
	}
	if _, err := ParseLocations(`{"a.go": [[5, 1]]}`); err == nil || errors.Is(err, ErrNoLocations) {
		t.Errorf("reversed JSON range: got %v, want an error other than ErrNoLocations", err)
	}
}

func FuzzParseLocations(f *testing.F) {
	for _, s := range []string{"a.go:1-5", "x/y.py#L3-L9", `{"a.go": [[1,2]]}`, "```json\n{\"a\": [1]}\n```", "a.go:99999999999999999999", ""} {
		f.Add(s)
	}
	want := Locations{"a.go": {{1, 10}}}
	f.Fuzz(func(t *testing.T, s string) {
		locs, err := ParseLocations(s)
		if err != nil {
			if len(locs) != 0 {
				t.Fatalf("%q: error %v with locations %v", s, err, locs)
			}
			return
		}
		if len(locs) == 0 {
			t.Fatalf("%q: no locations and no error", s)
		}
		for file, rs := range locs {
			for i, r := range rs {
				if r.Start < 1 || r.End < r.Start || i > 0 && r.Start <= rs[i-1].End+1 {
					t.Fatalf("%q: bad ranges for %q: %v", s, file, rs)
				}
			}
		}
		if sc := Localization(locs, want); sc.Score < 0 || sc.Score > 1 {
			t.Fatalf("%q: score %v outside [0, 1]", s, sc.Score)
		}
	})
}

// TestParseLocationsNamesFirstBadKey checks that an object with several
// bad entries is refused naming the same one every time (the first in key
// order), not whichever map iteration meets first.
func TestParseLocationsNamesFirstBadKey(t *testing.T) {
	in := `{"b.go": "x", "a.go": "y", "c.go": [[1, 2]]}`
	for range 50 {
		_, err := ParseLocations(in)
		if err == nil || !strings.Contains(err.Error(), `"a.go"`) {
			t.Fatalf("ParseLocations(%s) = %v, want an error naming \"a.go\"", in, err)
		}
	}
}
