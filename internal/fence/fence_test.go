package fence

import (
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	tests := []struct {
		name, in, want, why string
	}{
		{"bare object", `{"a":1}`, `{"a":1}`, "already JSON"},
		{"white space", "  \n{\"a\":1}\n ", `{"a":1}`, "trimmed"},
		{"array", `[1,2]`, `[1,2]`, "arrays too"},
		{"trailing prose", `{"a":1} hope this helps`, `{"a":1}`, "text after the closing brace is dropped"},
		{"trailing prose with braces in strings", `{"a":"}"} done`, `{"a":"}"}`, "a brace in a string does not close the value"},
		{"escaped quote in string", `{"a":"\"}"} x`, `{"a":"\"}"}`, "an escaped quote does not end the string"},
		{"json fence", "Here:\n```json\n{\"a\":1}\n```\nBye", `{"a":1}`, "fence body"},
		{"JSON fence upper", "```JSON\n[1]\n```", `[1]`, "info string is case-insensitive"},
		{"bare fence", "Result:\n```\n{\"a\":1}\n```", `{"a":1}`, "fence without info"},
		{"other fence skipped", "```python\nx = {1}\n```\n```json\n{\"b\":2}\n```", `{"b":2}`, "only json or bare fences"},
		{"unclosed fence", "```json\n{\"a\":1}", `{"a":1}`, "an unclosed fence runs to the end"},
		{"fence inside string", "```json\n{\"a\":\"x```y\"}\n```", "{\"a\":\"x```y\"}", "the closing fence must start a line"},
		{"prose then object", `The answer is {"a":1}.`, `{"a":1}`, "braces found in prose"},
		{"prose with bracket first", `Options [a] or [b]: {"x":1}`, `{"x":1}`, "the first valid span wins over invalid ones"},
		{"prose invalid only", `See [a] here`, `[a]`, "no valid span: the first, for the parser to reject"},
		{"no json", `just words`, `just words`, "nothing bracketed: the trimmed text"},
		{"empty", "   ", "", "empty stays empty"},
		{"unclosed object", `{"a":`, `{"a":`, "starts with { but never closes: left for the parser"},
		{"unclosed in prose", `x {"a": [1`, `{"a": [1`, "runs to the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JSON(tt.in); got != tt.want {
				t.Errorf("JSON(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.why)
			}
		})
	}
}

func TestBody(t *testing.T) {
	tests := []struct {
		in, lang, want string
		ok             bool
	}{
		{"```go\npackage x\n```", "go", "package x\n", true},
		{"```Go\nx\n```", "go", "x\n", true},
		{"```\nx\n```", "go", "x\n", true},
		{"no fence", "go", "", false},
		{"```js\nx\n```", "go", "", false},
		{"````json\nx\n````", "json", "x\n", true},
		{"```json", "json", "", false},
		{"  ```json\n{}\n  ```", "json", "{}\n", true},
	}
	for _, tt := range tests {
		got, ok := Body(tt.in, tt.lang)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Body(%q, %q) = %q, %v, want %q, %v", tt.in, tt.lang, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSpan(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`{}`, 2}, {`[]x`, 2}, {`{"a":[1,{}]}tail`, 12}, {`{"a":"]"}`, 9}, {`{`, 1}, {`x`, 0}, {``, 0}, {`{"\\"}`, 6},
	}
	for _, tt := range tests {
		if got := Span(tt.in); got != tt.want {
			t.Errorf("Span(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "x\n```json\n[1]\n```\ny", `a {"b": "}"} c`, "```", "```json\n", `[[[`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := JSON(s)
		if !strings.Contains(s, got) {
			t.Fatalf("JSON(%q) = %q, not a substring of the input", s, got)
		}
		if body, ok := Body(s, "json"); ok && !strings.Contains(s, body) {
			t.Fatalf("Body(%q) = %q, not a substring of the input", s, body)
		}
		if n := Span(s); n < 0 || n > len(s) {
			t.Fatalf("Span(%q) = %d, out of range", s, n)
		}
	})
}

func BenchmarkJSON(b *testing.B) {
	body := "{\n" + strings.Repeat("  \"key\": \"a value of a typical length for an answer\",\n", 24) + "  \"last\": 1\n}"
	for name, s := range map[string]string{
		"bare":   body,
		"fenced": "Sure! Below is the structured result.\n\n```json\n" + body + "\n```\n\nLet me know if you need any changes.",
		"prose":  "The result is " + body + " as requested.",
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				JSON(s)
			}
		})
	}
}
