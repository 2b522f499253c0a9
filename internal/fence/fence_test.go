package fence

import (
	"encoding/json"
	"slices"
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
		{"string holding a brace", `"{\"foo\": \"bar\"}"`, `"{\"foo\": \"bar\"}"`, "an output that parses whole is the value"},
		{"string holding a brace, spaced", " \"a {b} c\"\n", `"a {b} c"`, "a JSON string is a value, not prose"},
		{"scalar whole", `42`, `42`, "a number parses whole"},
		{"broken fence then corrected", "```json\n{\"a\": }\n```\nSorry, fixed:\n```json\n{\"a\": 1}\n```", `{"a": 1}`, "the first block that parses wins"},
		{"broken object then corrected in prose", `{"a": tru} oops, I meant {"a": true}`, `{"a": true}`, "a later valid span after a broken leading one"},
		{"broken prose spans only", `use {a} or {b}`, `{a}`, "none parses: the first span, for the parser to report"},
		{"broken whole object", `{"a": } {"b": }`, `{"a": } {"b": }`, "starts and ends with braces, nothing parses: the whole"},
		{"fence preferred to later prose", "Note [x].\n```json\n{\"a\":1}\n```\nor [2]", `{"a":1}`, "fences come before prose spans"},
		{"fence with scalar", "```json\n\"hi\"\n```", `"hi"`, "a fence may hold any value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JSON(tt.in); got != tt.want {
				t.Errorf("JSON(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.why)
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	in := "Draft: {\"a\": } then\n```json\n[1,\n```\n```python\nx = {}\n```\n```\n{\"a\": 1}\n```\nand [2] [x"
	want := []string{
		strings.TrimSpace(in),
		"[1,",
		`{"a": 1}`,
		`{"a": }`,
		"[1,\n```\n```python\nx = {}\n```\n```\n{\"a\": 1}\n```\nand [2] [x",
		"{}",
		`{"a": 1}`,
		"[2]",
		"[x",
	}
	got := slices.Collect(Candidates(in))
	if !slices.Equal(got, want) {
		t.Errorf("Candidates:\n got %q\nwant %q", got, want)
	}
	if got := slices.Collect(Candidates("  ")); len(got) != 0 {
		t.Errorf("blank input yielded %q", got)
	}
	// Prose full of brackets that start nothing valid stops after
	// maxCandidates misses; the first miss spans the whole text (the
	// bracket never closes), which was yielded first and is not again.
	many := strings.Repeat("[x ", 100)
	got = slices.Collect(Candidates(many))
	if len(got) != maxCandidates || got[0] != strings.TrimSpace(many) || got[1] == got[0] {
		t.Errorf("got %d candidates (%.20q, %.20q), want the whole and %d misses", len(got), got[0], got[1], maxCandidates-1)
	}
	// Valid spans do not count as misses: all 40 objects are found.
	objs := strings.Repeat(`x {"k":1} `, 40)
	if n := len(slices.Collect(Candidates(objs))); n != 41 {
		t.Errorf("got %d candidates, want the whole and 40 objects", n)
	}
}

func TestFallback(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": }`:             `{"a": }`,
		`{"a": } x`:           `{"a": }`,
		"x\n```json\n{]\n```": `{]`,
		`see {a} and {b}`:     `{a}`,
		`words`:               `words`,
		` `:                   ``,
	} {
		if got := Fallback(in); got != want {
			t.Errorf("Fallback(%q) = %q, want %q", in, got, want)
		}
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
		// JSON is the first candidate that is valid, else the fallback.
		want := Fallback(s)
		for c := range Candidates(s) {
			if c == "" || !strings.Contains(s, c) {
				t.Fatalf("Candidates(%q) yielded %q, empty or not a substring", s, c)
			}
			if json.Valid([]byte(c)) {
				want = c
				break
			}
		}
		if got != want {
			t.Fatalf("JSON(%q) = %q, want %q", s, got, want)
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

// upToValid is seq up to and including its first valid JSON text.
func upToValid(seq []string) []string {
	for i, c := range seq {
		if json.Valid([]byte(c)) {
			return seq[:i+1]
		}
	}
	return seq
}

// sameFirstCandidates checks Candidates against AllCandidates for a
// caller that stops at the first candidate that parses: the same
// candidates in the same order up to that one, but for repeats of earlier
// ones.
func sameFirstCandidates(t *testing.T, s string) {
	t.Helper()
	all := upToValid(slices.Collect(AllCandidates(s)))
	first := upToValid(slices.Collect(Candidates(s)))
	k := 0
	for i, c := range all {
		if k < len(first) && first[k] == c {
			k++
			continue
		}
		if !slices.Contains(all[:i], c) {
			t.Fatalf("%q: Candidates left out %q, which is not a repeat:\n all   %q\n first %q", s, c, all, first)
		}
	}
	if k != len(first) {
		t.Fatalf("%q: Candidates yielded %q beyond AllCandidates' %q", s, first, all)
	}
}

func TestCandidatesRepeats(t *testing.T) {
	for _, s := range []string{
		`{"a": 1`, `{"a": 1} and more`, `{"a": {"b": 2}, "c": [1, 2]`, `[1, {"x": 1}] tail {"y": 2}`,
		"{\"a\": }\n```json\n{\"a\": 1}\n```", `{"k": "}"} x`, `[[[`, `{"a": [1, {"b": ]}`,
	} {
		sameFirstCandidates(t, s)
	}
	// A broken object starting the text: AllCandidates reads it again at
	// its first bracket and yields it a second time; Candidates does not.
	s := `{"a": } {"m": 2}`
	all, first := slices.Collect(AllCandidates(s)), slices.Collect(Candidates(s))
	if want := []string{s, `{"a": }`, `{"m": 2}`}; !slices.Equal(first, want) || len(all) != len(want)+1 {
		t.Errorf("Candidates %q, AllCandidates %q: want %q and one repeat", first, all, want)
	}
}

func FuzzCandidates(f *testing.F) {
	for _, s := range []string{`{"a": 1`, `{"a": 1} x {"b": 2}`, "[1,\n```json\n[2]\n```", `[[{"a":[`, `{"a": "]"} ]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameFirstCandidates(t, s)
	})
}
