package fastschema

import (
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compile(t *testing.T, schema string) (*jsonschema.Schema, *Schema) {
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
			if fast.ValidText(d) && !want {
				t.Errorf("%s on %s: ValidText true, validator false", c.schema, d)
			}
			if ok, decided := fast.DecideText(d); decided && ok != want {
				t.Errorf("%s on %s: DecideText %v, validator %v", c.schema, d, ok, want)
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
		if _, ok := Compile(sch); ok {
			t.Errorf("%s: compiled, want the validator", schema)
		}
	}
}

// TestValidTextAllocs checks that a valid document is read without
// allocating.
func TestValidTextAllocs(t *testing.T) {
	_, fast := compile(t, `{"type":"object","required":["id","n"],"properties":{"id":{"type":"string","pattern":"^a"},"n":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"enum":["x","y"]}}},"additionalProperties":false}`)
	doc := `{"id":"abc","n":3,"tags":["x","y"]}`
	if !fast.ValidText(doc) {
		t.Fatal("valid document not passed")
	}
	if n := testing.AllocsPerRun(100, func() { fast.ValidText(doc) }); n != 0 {
		t.Errorf("ValidText allocates %v times", n)
	}
	for _, bad := range []string{`{"id":"abc"}`, `{"id":"b","n":3}`, `{"id":"a","n":0}`, `{"id":"a","n":1,"x":1}`, `{"id":"a","n":1,"tags":["z"]}`} {
		if fast.ValidText(bad) {
			t.Errorf("%s passed", bad)
		}
		if ok, decided := fast.DecideText(bad); ok || !decided {
			t.Errorf("%s: DecideText %v (decided %v), want decided invalid", bad, ok, decided)
		}
	}
}

// TestDecideTextUndecided checks that what the text alone cannot read is
// left undecided, so that the tree path still gets to answer valid.
func TestDecideTextUndecided(t *testing.T) {
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
		if sch.Validate(v) != nil || !fast.Valid(v) {
			t.Fatalf("%s on %s: want valid on the tree path", c.schema, c.doc)
		}
		if ok, decided := fast.DecideText(c.doc); decided {
			t.Errorf("%s on %s: DecideText decided %v, want undecided", c.schema, c.doc, ok)
		}
	}
}
