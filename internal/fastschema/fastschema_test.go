package fastschema

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// validText is ReadText's first answer.
func validText(s *Schema, text string) bool {
	ok, _ := s.ReadText(text)
	return ok
}

// decidedValid reports whether Decide answers "valid".
func decidedValid(s *Schema, v any) bool {
	ok, decided := s.Decide(v)
	return ok && decided
}

// compileV6 compiles schema with the validator.
func compileV6(t testing.TB, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("file:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("file:///s.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// compile compiles schema with the validator and the fast path, which
// must take it.
func compile(t testing.TB, schema string) (*jsonschema.Schema, *Schema) {
	t.Helper()
	sch := compileV6(t, schema)
	fast, ok := Compile(sch)
	if !ok {
		t.Fatalf("%s: not on the fast path", schema)
	}
	return sch, fast
}

// TestNumbers checks the exact arithmetic against the validator on the
// cases where float64 alone would answer wrongly.
func TestNumbers(t *testing.T) {
	cases := []struct {
		schema string
		docs   []string
	}{
		{`{"multipleOf":0.1}`, []string{"0.3", "0.30000000000000004", "1e-1", "7", "0.35"}},
		{`{"multipleOf":0.01}`, []string{"1.1", "4.53", "0.075", "19.99"}},
		{`{"multipleOf":3}`, []string{"9", "-9", "10", "9.0", "1e20", "12345678901234567890"}},
		{`{"multipleOf":0.123456789}`, []string{"1e308", "0.246913578", "-0.370370367", "0", "-0", "1.23456789e-1", "2e-9"}},
		{`{"multipleOf":1.5e-300}`, []string{"3e-300", "4.5e-300", "1e-300", "1e300"}},
		{`{"type":"integer"}`, []string{"1", "1.0", "1e2", "1.5", "1e-2", "-0", "1e400"}},
		{`{"maximum":9007199254740993}`, []string{"9007199254740992", "9007199254740993", "9007199254740994", "1e400"}},
		{`{"exclusiveMinimum":0.1}`, []string{"0.1", "0.10000000000000001", "0.1000000000000000055511151231257827", "1e-400"}},
		{`{"const":1}`, []string{"1", "1.0", "10e-1", "1.0000000000000001", "true", `"1"`}},
		{`{"enum":[0.1,"a",null,[1]]}`, []string{"0.1", "1e-1", `"a"`, "null", "[1.0]", "[2]", "false"}},
		{`{"minLength":2,"maxLength":3}`, []string{`"é"`, `"éé"`, `"😀😀😀"`, `"😀😀😀😀"`, `"\u00e9\u00e9"`}},
	}
	for _, c := range cases {
		sch, fast := compile(t, c.schema)
		for _, d := range c.docs {
			v, err := jsonparse.Parse(d)
			if err != nil {
				t.Fatal(err)
			}
			want := sch.Validate(v) == nil
			ok, decided := fast.Decide(v)
			if !decided || ok != want {
				t.Errorf("%s on %s: fast path %v (decided %v), validator %v", c.schema, d, ok, decided, want)
			}
			if validText(fast, d) && !want {
				t.Errorf("%s on %s: ReadText true, validator false", c.schema, d)
			}
			if e, decided := fast.Explain(v); !decided || e.Valid != want || (e.Leaves == 0) != want {
				t.Errorf("%s on %s: Explain %+v (decided %v), validator %v", c.schema, d, e, decided, want)
			}
		}
	}
}

// TestRefused checks that keywords outside the subset keep the validator.
func TestRefused(t *testing.T) {
	for _, schema := range []string{
		`{"uniqueItems":true}`,
		`{"contains":{"type":"string"}}`,
		`{"propertyNames":{"maxLength":3}}`,
		`{"unevaluatedProperties":false}`,
		`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"$dynamicAnchor":"x","$dynamicRef":"#x"}`,
	} {
		if _, ok := Compile(compileV6(t, schema)); ok {
			t.Errorf("%s: compiled, want the validator", schema)
		}
	}
}

// TestReadTextAllocs checks that a valid document is read without
// allocating.
func TestReadTextAllocs(t *testing.T) {
	_, fast := compile(t, `{"type":"object","required":["id","n"],"properties":{"id":{"type":"string","pattern":"^a"},"n":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"enum":["x","y"]}}},"additionalProperties":false}`)
	doc := `{"id":"abc","n":3,"tags":["x","y"]}`
	if !validText(fast, doc) {
		t.Fatal("valid document not passed")
	}
	if n := testing.AllocsPerRun(100, func() { validText(fast, doc) }); n != 0 {
		t.Errorf("ReadText allocates %v times", n)
	}
	for _, bad := range []string{`{"id":"abc"}`, `{"id":"b","n":3}`, `{"id":"a","n":0}`, `{"id":"a","n":1,"x":1}`, `{"id":"a","n":1,"tags":["z"]}`} {
		if validText(fast, bad) {
			t.Errorf("%s passed", bad)
		}
	}
}

// TestReadTextUndecided checks that what the text alone cannot read is
// left to the decoded path, which still answers valid.
func TestReadTextUndecided(t *testing.T) {
	cases := []struct{ schema, doc string }{
		{`{"properties":{"a":{"const":"é"}}}`, `{"a":"\u00e9"}`},
		{`{"enum":["x",{"a":1}]}`, `{"a":1}`},
		{`{"anyOf":[{"type":"string"},{"not":{"type":"null"}}]}`, `1`},
		{`{"items":{"maxLength":1}}`, `["\u00e9"]`},
		{`{"required":["é"]}`, `{"\u00e9":1}`},
	}
	for _, c := range cases {
		sch, fast := compile(t, c.schema)
		v, err := jsonparse.Parse(c.doc)
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(v) != nil || !decidedValid(fast, v) {
			t.Fatalf("%s on %s: want valid on the tree path", c.schema, c.doc)
		}
		if e, ok := fast.Explain(v); !ok || !e.Valid {
			t.Errorf("%s on %s: Explain %+v (decided %v), want valid", c.schema, c.doc, e, ok)
		}
		if validText(fast, c.doc) {
			t.Errorf("%s on %s: ReadText true, want it left to the decoded path", c.schema, c.doc)
		}
	}
}

// textSchemas are schemas whose text walk reads objects, arrays, strings
// and numbers, and one that only skips.
var textSchemas = []string{
	`{}`,
	`{"type":["object","array","string","number","boolean","null"]}`,
	`{"properties":{"a":{"type":"integer"},"b":{"items":{"type":["string","number"]}}},"additionalProperties":{"type":["array","object","string","boolean","null","number"]}}`,
	`{"items":{"anyOf":[{"type":"string","maxLength":5},{"type":"object","properties":{"x":{"enum":[1,"y",null,true]}}},{"type":["number","array","boolean","null"]}]}}`,
}

// syntaxCases are texts around JSON's syntax, most of them not JSON.
var syntaxCases = []string{
	``, ` `, `{`, `[`, `}`, `]`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`,
	`{,}`, `[,]`, `{"a":}`, `{"a"}`, `{1:2}`, `{a:1}`, `{"a":1}}`, `[1]]`, `{}x`, `[] []`,
	`tru`, `truex`, `nul`, `True`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x1`, `NaN`,
	`"abc`, "\"a\x01\"", `"\q"`, `"\u12"`, `"\u12G4"`, `{"a":"\q"}`, `["a\`, `{"a":[1,{"b":}]}`,
	"{\"a\":1}\x00", `[1,2,3`, `{"a":{"b":{"c":[1,2,{"d":tru}]}}}`, `{"b":[1,"x",]}`,
	`{"a":1}`, `[1,"ab",{"x":1}]`, `"ab"`, `1e5`, `-0.5E-3`, `{"b":[1,"x"],"z":{"q":[]}}`, ` [ 1 , { "x" : null } ] `,
	`{"a":1,"a":"x"}`, `{"a":"x","a":1}`, `[1x2]`, `{"a":1x"b":2}`, `{"a"x1}`, `[[1]x[2]]`, `{"a":{}x"b":[]}`,
}

// TestReadTextSyntax checks that ReadText checks syntax as it reads:
// it may pass a text only when the parser accepts it and the validator
// passes its value.
func TestReadTextSyntax(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	for _, schema := range textSchemas {
		sch, fast := compile(t, schema)
		passed := 0
		for _, d := range append(syntaxCases, deep, `{"a":`+deep+`}`) {
			if !validText(fast, d) {
				continue
			}
			passed++
			v, err := jsonparse.Parse(d)
			if err != nil {
				t.Errorf("%s: ReadText passed %.40q, which does not parse: %v", schema, d, err)
				continue
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s: ReadText passed %.40q, the validator fails it: %v", schema, d, err)
			}
		}
		if passed < 5 {
			t.Errorf("%s: ReadText passed %d texts, want the valid ones", schema, passed)
		}
	}
}

// FuzzReadText reads random texts against schemas that walk every kind
// of value: ReadText may pass only what parses and validates, and call
// not JSON only what the parser refuses.
func FuzzReadText(f *testing.F) {
	for i, d := range syntaxCases {
		f.Add(uint8(i), d)
	}
	type compiled struct {
		sch  *jsonschema.Schema
		fast *Schema
	}
	var schemas []compiled
	for _, s := range textSchemas {
		sch, fast := compile(f, s)
		schemas = append(schemas, compiled{sch, fast})
	}
	f.Fuzz(func(t *testing.T, which uint8, doc string) {
		c := schemas[int(which)%len(schemas)]
		ok, notJSON := c.fast.ReadText(doc)
		v, err := jsonparse.Parse(doc)
		if notJSON && (ok || err == nil) {
			t.Fatalf("ReadText called %q not JSON (ok %v); parser error %v", doc, ok, err)
		}
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("ReadText passed %q, which does not parse: %v", doc, err)
		}
		if err := c.sch.Validate(v); err != nil {
			t.Fatalf("ReadText passed %q, the validator fails it: %v", doc, err)
		}
	})
}

// TestReadTextNotJSON checks that ReadText calls a text not JSON only
// when the parser refuses it, and does so for texts broken where the
// reading goes.
func TestReadTextNotJSON(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	for _, schema := range textSchemas {
		_, fast := compile(t, schema)
		broken := 0
		for _, d := range append(syntaxCases, deep, `{"a":`+deep+`}`) {
			ok, notJSON := fast.ReadText(d)
			_, err := jsonparse.Parse(d)
			if notJSON && (ok || err == nil) {
				t.Errorf("%s: ReadText called %.40q not JSON (ok %v); parser error %v", schema, d, ok, err)
			}
			if notJSON {
				broken++
			}
		}
		if broken < 30 {
			t.Errorf("%s: ReadText found %d texts not JSON, want most of the broken ones", schema, broken)
		}
	}
}

// TestIsInteger checks the digit reading against exact arithmetic.
func TestIsInteger(t *testing.T) {
	for _, x := range []string{
		"0", "-0", "7", "-12", "1.0", "1.5", "1.50e1", "1.25e1", "1e308", "1e-1", "10e-1", "100e-2", "-0.0e-5",
		"12.340e2", "12.345e2", "0.001e3", "0.0015e3", "5e0", "5.1e0", "1E+2", "1.01E+1", "0e-400", "1e-400",
		"123456789012345678901234567890", "1.5e9999", "15e-9999",
	} {
		r, ok := new(big.Rat).SetString(x)
		if !ok {
			t.Fatalf("%s: big.Rat cannot read it", x)
		}
		if got := isInteger(json.Number(x)); got != r.IsInt() {
			t.Errorf("isInteger(%s) = %v, want %v", x, got, r.IsInt())
		}
	}
}

// FuzzIsInteger checks isInteger against exact arithmetic on any number
// the parser accepts.
func FuzzIsInteger(f *testing.F) {
	for _, s := range []string{"1.50e1", "1e308", "-0.001e3", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := jsonparse.Parse(s)
		x, isNum := v.(json.Number)
		if err != nil || !isNum || len(s) > 40 {
			return
		}
		r, ok := new(big.Rat).SetString(string(x))
		if ok && isInteger(x) != r.IsInt() {
			t.Fatalf("isInteger(%s) = %v, exact arithmetic %v", x, isInteger(x), r.IsInt())
		}
	})
}
