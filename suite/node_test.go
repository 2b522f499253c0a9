package suite

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse feeds outside text to both parsers: no panic, and a parsed
// value re-encodes as JSON meaning what the input meant.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"cases": [{"id": "a", "outputs": ["x"]}]}`,
		"name: x\ncases:\n  - {id: a, outputs: [x]}\n",
		`[1, 2.5e3, true, null, "\u00e9", {"k": {}}]`,
		"a: &x {b: 1}\nc: *x\nd:\n  <<: *x\n  e: 2\n",
		"{\"a\": 1,\n \"a\": 2}",
		"- !!binary aGVsbG8=\n- 2001-12-14\n- 0x1F\n- .inf\n",
		"\xff\xfe{",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, err := parseJSON(data, 1); err == nil {
			var want, got any
			if json.Unmarshal(data, &want) != nil {
				// encoding/json rejects what the decoder accepted: only
				// invalid UTF-8 inside strings may differ.
				return
			}
			if err := json.Unmarshal(n.JSON(), &got); err != nil {
				t.Fatalf("re-encoded JSON does not parse: %v: %s", err, n.JSON())
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("JSON round trip changed the value:\n%v\n%v", want, got)
			}
		}
		if n, err := parseYAML(context.Background(), data); err == nil {
			if !json.Valid(n.JSON()) {
				t.Fatalf("YAML re-encoded as invalid JSON: %s", n.JSON())
			}
		}
	})
}

func TestJSONLines(t *testing.T) {
	n, err := parseJSON([]byte("{\n  \"a\": [\n    1,\n    {\"b\": 2}\n  ]\n}"), 10)
	if err != nil {
		t.Fatal(err)
	}
	a := n.get("a")
	tests := []struct {
		name string
		got  int
		want int
	}{
		{"object", n.line, 10},
		{"key a", n.keyLines[0], 11},
		{"array", a.line, 11},
		{"item 1", a.items[0].line, 12},
		{"item {b}", a.items[1].line, 13},
		{"key b", a.items[1].keyLines[0], 13},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s on line %d, want %d (offset 0 is line 10)", tt.name, tt.got, tt.want)
		}
	}
}

// TestIDSetCollision plants a hash collision: the id hashed the same as an
// earlier line whose id differs, which must not read as a duplicate.
func TestIDSetCollision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("{\"id\": \"y\"}\n{\"id\": \"x\"}\n"), 0o644)
	h := fnv.New64a()
	h.Write([]byte("x"))
	ids := &idSet{path: path, seen: map[uint64]idAt{h.Sum64(): {line: 1, off: 0}}}
	if prev, err := ids.add("x", 2, 12); prev != 0 || err != nil {
		t.Errorf("add after a planted collision = %d, %v; want 0, nil (ids differ)", prev, err)
	}
	if prev, err := ids.add("y", 3, 24); err != nil || prev != 0 {
		t.Errorf("a fresh id = %d, %v", prev, err)
	}
	h.Reset()
	h.Write([]byte("y"))
	ids.seen[h.Sum64()] = idAt{line: 1, off: 0}
	if prev, _ := ids.add("y", 4, 36); prev != 1 {
		t.Errorf("a real duplicate = line %d, want 1", prev)
	}
}
