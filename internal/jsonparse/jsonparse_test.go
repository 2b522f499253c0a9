package jsonparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// stdDecode is the reference: encoding/json with UseNumber, one value,
// nothing after it.
func stdDecode(s string) (any, bool) {
	if !json.Valid([]byte(s)) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// cases are texts where JSON parsers are known to differ: numbers, escapes,
// surrogates, invalid UTF-8, white space, trailing data.
var cases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `1.0`, `1.5e3`, `1E-2`, `0.1e+2`,
	`12345678901234567890`, `1e400`, `-1e-400`, `0.30000000000000001`, `98249283749234923498293171823948729348710298301928331.1`,
	`01`, `-01`, `1.`, `.5`, `+1`, `1e`, `1e+`, `-`, `0x10`, `NaN`, `Infinity`, `1 2`, `[1,]`, `{"a":1,}`, `[1 2]`, `{"a" 1}`, `{"a":1}}`,
	`"abc"`, `"a\"b"`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\u0041"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`,
	`"\ud800\u0041"`, `"\ud800\ud800"`, `"\u12"`, `"\x41"`, `"\'"`, "\"a\tb\"", "\"\x00\"", "\"\xff\"", "\"a\xe2\x82\"", "\"é\"",
	"\ufeff1", " \t\n\r{\"a\" : [ 1 , 2 ] }\r\n", "{\"a\":1}\x00", `{"a":1,"a":2}`, `{"":""}`, `[[[[]]]]`, `[`, `{`, `"`, `"\`,
	`{"a":{"b":[1,{"c":null}],"d":"e"},"f":false}`, `tru`, `nul`, `truex`, `[true,false,null]`, "\"\u2028\"",
}

func TestParseMatchesEncodingJSON(t *testing.T) {
	var p Parser
	for _, s := range cases {
		want, wantOK := stdDecode(s)
		got, err := p.Parse(s)
		if (err == nil) != wantOK {
			t.Errorf("Parse(%q): err = %v, encoding/json valid = %v", s, err, wantOK)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %#v, want %#v", s, got, want)
		}
		if cerr := p.Check(s); (cerr == nil) != wantOK {
			t.Errorf("Check(%q) = %v, encoding/json valid = %v", s, cerr, wantOK)
		}
	}
}

func TestNative(t *testing.T) {
	p := Parser{Native: true}
	tests := []struct {
		in   string
		want any
	}{
		{`1`, int64(1)},
		{`-0`, int64(0)},
		{`1.0`, 1.0},
		{`1e2`, 100.0},
		{`12345678901234567890`, json.Number("12345678901234567890")},
		{`1e400`, json.Number("1e400")},
		{`0.1234567890123456`, json.Number("0.1234567890123456")},
		{`0.000123456789012345`, 0.000123456789012345},
		{`12345678901234567890.0`, json.Number("12345678901234567890.0")},
		{`[1,"a",0.5]`, []any{int64(1), "a", 0.5}},
	}
	for _, tt := range tests {
		got, err := p.Parse(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %#v, %v, want %#v", tt.in, got, err, tt.want)
		}
	}
}

func TestSyntaxError(t *testing.T) {
	_, err := Parse(`{"a": }`)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != 6 {
		t.Fatalf("got %v, want a *SyntaxError at offset 6", err)
	}
	if !strings.Contains(err.Error(), "offset 6") {
		t.Errorf("error %q does not name the offset", err)
	}
}

func TestDepth(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if _, err := Parse(deep); err == nil {
		t.Errorf("nesting %d deep parsed, want the depth error", maxDepth+1)
	}
	ok := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if _, err := Parse(ok); err != nil {
		t.Errorf("nesting %d deep: %v", maxDepth, err)
	}
}

// TestReuse checks that a Parser reused after an error or a success yields
// independent values.
func TestReuse(t *testing.T) {
	var p Parser
	a, _ := p.Parse(`{"k":[1,2,{"x":"y"}]}`)
	if _, err := p.Parse(`{"k":[1,2,`); err == nil {
		t.Fatal("truncated input parsed")
	}
	b, _ := p.Parse(`{"z":[3]}`)
	want := map[string]any{"k": []any{json.Number("1"), json.Number("2"), map[string]any{"x": "y"}}}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("first value changed to %#v", a)
	}
	if !reflect.DeepEqual(b, map[string]any{"z": []any{json.Number("3")}}) {
		t.Errorf("second value = %#v", b)
	}
}

// walk follows a singular path in a parsed value, the reference for Select.
func walk(v any, steps []any) (any, bool) {
	for _, st := range steps {
		switch st := st.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[st]; !ok {
				return nil, false
			}
		case int:
			a, ok := v.([]any)
			if !ok {
				return nil, false
			}
			if st < 0 {
				st += len(a)
			}
			if st < 0 || st >= len(a) {
				return nil, false
			}
			v = a[st]
		}
	}
	return v, true
}

// paths are singular paths tried on every case.
var paths = [][]any{{}, {"a"}, {"a", "b"}, {0}, {-1}, {1, "a"}, {"k", -1, "x"}, {"a", 0}, {-2}, {""}}

// checkSelect compares Select with Parse followed by walk.
func checkSelect(t *testing.T, s string) {
	t.Helper()
	var p Parser
	for _, path := range paths {
		full, perr := p.Parse(s)
		got, found, err := p.Select(s, path)
		if (err == nil) != (perr == nil) {
			t.Fatalf("Select(%q, %v) err = %v, Parse err = %v", s, path, err, perr)
		}
		if err != nil {
			continue
		}
		want, ok := walk(full, path)
		if found != ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("Select(%q, %v) = %#v, %v, want %#v, %v", s, path, got, found, want, ok)
		}
	}
}

func TestSelect(t *testing.T) {
	for _, s := range append(cases,
		`{"a":{"b":1},"a":{"c":2}}`, `{"a":[1,2],"k":[{"x":1},{"x":"last"}]}`, `[{"a":1},{"a":2}]`,
		`[0,1,2]`, `{"":3}`, `{"a":{"b":[1]}} x`, `[1,2,]`, `{"a":{"b":}}`) {
		checkSelect(t, s)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range cases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p Parser
		got, err := p.Parse(s)
		want, wantOK := stdDecode(s)
		if (err == nil) != wantOK {
			t.Fatalf("Parse(%q): err = %v, encoding/json valid = %v", s, err, wantOK)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("Parse(%q) = %#v, want %#v", s, got, want)
		}
		if cerr := p.Check(s); (cerr == nil) != wantOK {
			t.Fatalf("Check(%q) = %v, want valid %v", s, cerr, wantOK)
		}
		checkSelect(t, s)
	})
}

// doc is a ~1 KB object like the JSON of the benchmark workload.
var doc = func() string {
	var b bytes.Buffer
	b.WriteString(`{"id":"req-0ba3bb82","status":"ok","metadata":{"model":"gpt-4o-mini","version":3,"score":0.57,"latency_ms":4710},`)
	for i := range 12 {
		b.WriteString(`"field_` + string(rune('a'+i)) + `":"A well-designed cache supports the cost per request.",`)
	}
	b.WriteString(`"tags":["a","b","c"],"is_active":true,"location":{"lat":78.7,"lon":60.73}}`)
	return b.String()
}()

func BenchmarkParse(b *testing.B) {
	b.Run("jsonparse", func(b *testing.B) {
		var p Parser
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Parse(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dec := json.NewDecoder(strings.NewReader(doc))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		var p Parser
		b.ReportAllocs()
		for b.Loop() {
			if err := p.Check(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		bs := []byte(doc)
		b.ReportAllocs()
		for b.Loop() {
			json.Valid(bs)
		}
	})
}

// TestUnescape checks every byte against encoding/json: a one-letter escape
// is accepted exactly when encoding/json decodes "\e" to one byte.
func TestUnescape(t *testing.T) {
	for e := range 256 {
		var want string
		err := json.Unmarshal([]byte{'"', '\\', byte(e), '"'}, &want)
		wantOK := err == nil && len(want) == 1
		got, ok := Unescape(byte(e))
		if ok != wantOK || ok && string(got) != want {
			t.Errorf("Unescape(%q) = %q, %v; want %q, %v (encoding/json)", byte(e), got, ok, want, wantOK)
		}
	}
}

// TestPlainRun checks the eight-bytes-at-a-time scan against a byte loop
// with every kind of stopping byte at every offset of a block.
func TestPlainRun(t *testing.T) {
	naive := func(s string, i int) int {
		for i < len(s) && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\' {
			i++
		}
		return i
	}
	for _, stop := range []byte{'"', '\\', 0x00, 0x1f, 0x80, 0xc3, 0xff} {
		for _, near := range []byte{' ', '!', '#', '[', ']', '~', 0x7f, '!' + 1} {
			for n := 0; n < 40; n++ {
				for at := 0; at <= n; at++ {
					b := make([]byte, n)
					for k := range b {
						b[k] = near
					}
					if at < n {
						b[at] = stop
					}
					s := string(b)
					for from := 0; from <= min(n, 9); from++ {
						if got, want := plainRun(s, from), naive(s, from); got != want {
							t.Fatalf("plainRun(%q, %d) = %d, want %d", s, from, got, want)
						}
					}
				}
			}
		}
	}
}

// stringEndCases are strings and near-strings for StringEnd.
var stringEndCases = []string{
	`""`, `"a"`, `"a" `, `"abc`, `"\""`, `"\\"`, `"\/\b\f\n\r\t"`, `"\u00e9\uD800"`, `"\u12"`, `"\u12G4"`,
	`"\q"`, `"\`, `"a\"`, "\"\x01\"", "\"\x7f\"", "\"\xff\xfe\"", `"é😀"`, `x`, ``, `"` + strings.Repeat("a", 40) + `\n"`,
}

// TestStringEnd checks StringEnd against the parser on every case.
func TestStringEnd(t *testing.T) {
	for _, s := range stringEndCases {
		checkStringEnd(t, s)
	}
}

// FuzzStringEnd checks StringEnd against the parser on random texts.
func FuzzStringEnd(f *testing.F) {
	for _, s := range stringEndCases {
		f.Add(s)
	}
	f.Fuzz(checkStringEnd)
}

func checkStringEnd(t *testing.T, s string) {
	end, esc := StringEnd(s, 0)
	want := -1
	if len(s) > 0 && s[0] == '"' {
		want = ValidPrefix(s)
	}
	if end != want {
		t.Fatalf("StringEnd(%q) = %d, the parser reads %d", s, end, want)
	}
	if end > 0 && esc != strings.Contains(s[1:end-1], `\`) {
		t.Fatalf("StringEnd(%q) escaped %v", s, esc)
	}
}

// TestValidQuiet checks that Valid and ValidPrefix answer as Check does
// and build no error for a text that is not JSON.
func TestValidQuiet(t *testing.T) {
	var p Parser
	for _, s := range []string{`{"a":1}`, `[1,2`, `{"a" 1}`, `"\q"`, `tru`, ``, `1 2`, `{"a":[1,{"b":"x"}]}`} {
		if got, want := p.Valid(s), p.Check(s) == nil; got != want {
			t.Errorf("Valid(%q) = %v, Check says %v", s, got, want)
		}
		if n := testing.AllocsPerRun(10, func() { p.Valid(s); ValidPrefix(s) }); n != 0 {
			t.Errorf("Valid and ValidPrefix on %q allocate %v times", s, n)
		}
	}
	if err := p.Check(`{"a" 1}`); err == nil || err.Error() == errQuiet.Error() {
		t.Errorf("Check after Valid: %v, want the syntax error", err)
	}
}

// TestUnquote checks Unquote against Parse on strings with escapes,
// surrogate pairs, invalid UTF-8 and broken ones.
func TestUnquote(t *testing.T) {
	var p Parser
	for _, s := range []string{`"a"`, `""`, `"foo\nbar"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"a\"b\\c\/"`, `"a`, `"\q"`, `"a"x`, `1`, ``} {
		got, err := p.Unquote(s)
		v, perr := Parse(s)
		want, isStr := v.(string)
		switch {
		case (err == nil) != (perr == nil && isStr):
			t.Errorf("Unquote(%q): error %v; Parse %v, %v", s, err, v, perr)
		case err == nil && got != want:
			t.Errorf("Unquote(%q) = %q, Parse %q", s, got, want)
		}
	}
}
