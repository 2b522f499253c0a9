package yamlspec

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestToJSON(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"mapping keeps order", "type: contains\nvalue: Paris\nrequired: true\n", `{"type":"contains","value":"Paris","required":true}`},
		{"flow", "{type: one_of, values: [yes, no]}", `{"type":"one_of","values":["yes","no"]}`},
		{"numbers", "a: 1\nb: -2.5\nc: 0x1f\nd: 0o17\ne: 1e3\nf: 18446744073709551615", `{"a":1,"b":-2.5,"c":31,"d":15,"e":1000,"f":18446744073709551615}`},
		{"null and bool", "a: null\nb: ~\nc:\nd: false", `{"a":null,"b":null,"c":null,"d":false}`},
		{"YAML 1.2 words stay strings", "a: yes\nb: on\nc: 'true'", `{"a":"yes","b":"on","c":"true"}`},
		{"timestamp kept as written", "when: 2024-01-02", `{"when":"2024-01-02"}`},
		{"block string", "rubric: |\n  line one\n  line \"two\"\n", `{"rubric":"line one\nline \"two\"\n"}`},
		{"nested", "graders:\n  - type: not\n    grader: {type: contains, value: x}\n", `{"graders":[{"type":"not","grader":{"type":"contains","value":"x"}}]}`},
		{"alias expanded", "base: &b {type: contains, value: x}\nagain: *b\n", `{"base":{"type":"contains","value":"x"},"again":{"type":"contains","value":"x"}}`},
		{"top-level sequence", "- a\n- 1\n", `["a",1]`},
		{"scalar document", "hello", `"hello"`},
		{"quoted numeric key", "'200': ok", `{"200":"ok"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToJSON([]byte(tt.yaml))
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s, %v; want %s", got, err, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("output is not valid JSON")
			}
		})
	}
}

func TestToJSONErrors(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = n
	}
	tests := []struct {
		name, yaml string
		line       int
		want       string
	}{
		{"duplicate key", "type: contains\nvalue: a\nvalue: b\n", 3, "given twice (first on line 2)"},
		{"integer key", "type: http_status\n200: ok\n", 2, "keys must be strings"},
		{"bool key", "true: x\n", 1, "keys must be strings"},
		{"null key", "~: x\n", 1, "keys must be strings"},
		{"mapping key", "? {a: 1}\n: x\n", 1, "keys must be strings"},
		{"merge key", "base: &b {a: 1}\nx:\n  <<: *b\n", 3, "merge keys"},
		{"alias bomb", bomb, 0, "more than"},
		{"infinity", "threshold: .inf\n", 1, "no JSON form"},
		{"nan", "threshold: .nan\n", 1, "no JSON form"},
		{"custom tag", "a: !secret x\n", 1, "tag !secret"},
		{"two documents", "a: 1\n---\nb: 2\n", 0, ""},
		{"syntax", "a: [1, 2\nb: 3\n", 0, ""},
		{"empty", "", 0, "empty document"},
		{"too deep", strings.Repeat("[", 300) + strings.Repeat("]", 300), 1, "nested more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToJSON([]byte(tt.yaml))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %s, %v; want an *Error", got, err)
			}
			if tt.line > 0 && e.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", e.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to hold %q", err, tt.want)
			}
		})
	}
}

func TestToJSONLines(t *testing.T) {
	src := "name: bot\ncases:\n  - id: a\n    checks:\n      - type: contains\n        value: x\n      - {type: nope}\n"
	_, lines, err := ToJSONLines([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ptr  string
		want int
	}{
		{"", 1},
		{"/name", 1},
		{"/cases", 2},
		{"/cases/0", 3},
		{"/cases/0/checks/0/value", 6},
		{"/cases/0/checks/1", 7},
		{"/cases/0/checks/1/type", 7},
		{"/cases/0/checks/1/missing", 7}, // nearest ancestor
		{"/nope", 1},
	}
	for _, tt := range tests {
		if got := lines.Line(tt.ptr); got != tt.want {
			t.Errorf("Line(%q) = %d, want %d", tt.ptr, got, tt.want)
		}
	}
	_, lines, _ = ToJSONLines([]byte("a/b:\n  c~d: 1\n"))
	if got := lines.Line("/a~1b/c~0d"); got != 2 {
		t.Errorf("escaped pointer: got line %d, want 2", got)
	}
}

// FuzzToJSON: any input converts to valid JSON or an *Error; never a panic.
func FuzzToJSON(f *testing.F) {
	for _, s := range []string{"type: contains\nvalue: x\n", "[1, {a: b}]", "a: &x 1\nb: *x\n", "a: !!binary aGVsbG8=", "? [1]\n: 2", "a: 1\na: 2", "- - - x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := ToJSON(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("ToJSON(%q) = %q, not valid JSON", src, out)
		}
	})
}

// TestLinesPointerBudget: aliases of a mapping under a long key make
// every expanded value's JSON Pointer long; ToJSONLines counts the
// pointers it keeps against the output budget, so the expansion is
// refused within a small multiple of it.
func TestLinesPointerBudget(t *testing.T) {
	key := strings.Repeat("k", 1000)
	var b strings.Builder
	b.WriteString("m: &m {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8}\n")
	b.WriteString("l1: &l1 {")
	for i := range 100 {
		fmt.Fprintf(&b, "%s%d: *m, ", key, i)
	}
	b.WriteString("z: 0}\nl2: &l2 [")
	for range 200 {
		b.WriteString("*l1, ")
	}
	b.WriteString("0]\nl3: [")
	for range 200 {
		b.WriteString("*l2, ")
	}
	b.WriteString("0]\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := ToJSONLines([]byte(b.String()))
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("alias expansion with long pointers converted, want refused")
	}
	if !strings.Contains(err.Error(), "bytes") {
		t.Errorf("err %v, want the byte budget", err)
	}
	t.Logf("refused after %d MiB allocated", (after.TotalAlloc-before.TotalAlloc)>>20)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*MaxOutputBytes {
		t.Errorf("refusing it allocated %d MiB, want under %d", got>>20, 8*MaxOutputBytes>>20)
	}
}
