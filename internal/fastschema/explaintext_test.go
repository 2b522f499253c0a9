package fastschema

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// explainSchemas are schemas whose leaves come from every part of the
// text walk: object and array keywords, member and item order, the
// scalar keywords that end a check, and subschemas left to the decoded
// walk (format, combinators, dependentRequired).
var explainSchemas = []string{
	`{"type":"object","minProperties":2,"maxProperties":3,"required":["id","n"],"properties":{"id":{"type":"string","pattern":"^a","minLength":2},"n":{"type":"integer","minimum":1,"multipleOf":2},"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"enum":["x","y",1]}}},"additionalProperties":false}`,
	`{"prefixItems":[{"const":"a"},{"type":"number","exclusiveMaximum":5}],"items":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`,
	`{"patternProperties":{"^x":{"type":"integer"},"y$":{"maximum":3}},"additionalProperties":{"type":"boolean"},"properties":{"xy":{"const":{"a":[1,2]}}}}`,
	`{"properties":{"a":{"anyOf":[{"type":"string"},{"minimum":10}]},"b":{"oneOf":[{"type":"integer"},{"multipleOf":0.5}]},"c":{"not":{"type":"null"}},"d":{"if":{"type":"string"},"then":{"minLength":3},"else":{"type":"number"}}},"dependentRequired":{"a":["b"]}}`,
	`{"$defs":{"n":{"type":"integer","maximum":9}},"properties":{"r":{"$ref":"#/$defs/n","minimum":2},"f":false,"t":true},"items":{"$ref":"#/$defs/n"}}`,
	`{"type":["object","array"],"properties":{"e":{"enum":[null,true,"é",1.5,[1]]}}}`,
}

// explainDocs are documents for explainSchemas: valid ones, ones failing
// in several places, strings with escapes, repeated and escaped member
// names, and texts that are not JSON.
var explainDocs = []string{
	`{"id":"ab","n":2}`, `{"id":"b","n":0,"tags":[],"z":1,"q":2}`, `{"n":3,"tags":["z",1,"x"]}`, `{"id":"a\u0062","n":2,"tags":["\u0078"]}`,
	`{"id":"ab","id":"ab"}`, `{"i\u0064":"ab","n":2}`, `{}`, `[]`, `["a",4,7]`, `["b",6]`, `["a","b"]`, `[1]`,
	`{"x1":1.5,"xy":{"a":[1,2]},"zy":4,"w":"s","xq":2}`, `{"xy":{"a":[1,3]},"w":true}`,
	`{"a":"s","b":1,"c":null,"d":"ab"}`, `{"a":5,"b":1.0,"c":1,"d":"abc"}`, `{"a":null,"c":0,"d":[]}`,
	`{"r":1,"f":1,"t":2}`, `{"r":12}`, `[1,10,"x"]`, `{"e":"\u00e9"}`, `{"e":[1]}`, `{"e":1.50}`, `{"e":2}`, `"x"`,
	`{"id":"ab","n":2`, `{"id":"ab","n":2}x`, `["a",4,]`, `{"x1":tru}`, ``, ` `, `[1,{"a":"\q"}]`,
}

// sameAsExplain checks ExplainText on doc against Explain on the decoded
// doc (see the grader's differential tests for the validator's side).
func sameAsExplain(t *testing.T, fast *Schema, doc string) (decided bool) {
	t.Helper()
	e, decided, notJSON := fast.ExplainText(doc)
	v, err := jsonparse.Parse(doc)
	switch {
	case notJSON && err == nil, decided && err != nil:
		t.Fatalf("%q: ExplainText not JSON %v, decided %v; parser error %v", doc, notJSON, decided, err)
	case !decided:
		return false
	}
	want, ok := fast.Explain(v)
	if !ok {
		t.Fatalf("%q: ExplainText decided, Explain did not", doc)
	}
	if e.Valid != want.Valid || e.Leaves != want.Leaves || (e.First == nil) != (want.First == nil) {
		t.Fatalf("%q: ExplainText %v/%d, Explain %v/%d", doc, e.Valid, e.Leaves, want.Valid, want.Leaves)
	}
	if e.First != nil && (!slices.Equal(e.First.InstanceLocation, want.First.InstanceLocation) || !reflect.DeepEqual(e.First.ErrorKind, want.First.ErrorKind)) {
		t.Fatalf("%q: ExplainText's first leaf %v %#v, Explain's %v %#v", doc, e.First.InstanceLocation, e.First.ErrorKind, want.First.InstanceLocation, want.First.ErrorKind)
	}
	return true
}

// TestExplainText checks ExplainText against Explain on every schema and
// document above, and that it decides what it should read in place.
func TestExplainText(t *testing.T) {
	decided, invalid := 0, 0
	for _, schema := range explainSchemas {
		_, fast := compile(t, schema)
		for _, doc := range explainDocs {
			if sameAsExplain(t, fast, doc) {
				decided++
				if e, _, _ := fast.ExplainText(doc); !e.Valid {
					invalid++
				}
			}
		}
	}
	if decided < len(explainSchemas)*(len(explainDocs)-12) || invalid*4 < decided {
		t.Errorf("ExplainText decided %d of %d, %d of them invalid", decided, len(explainSchemas)*len(explainDocs), invalid)
	}
	// Texts broken where the walk goes are found not JSON.
	for _, schema := range explainSchemas {
		_, fast := compile(t, schema)
		broken := 0
		for _, d := range syntaxCases {
			if _, _, notJSON := fast.ExplainText(d); notJSON {
				broken++
			}
		}
		if broken < 40 {
			t.Errorf("%s: ExplainText found %d texts not JSON, want most of the broken ones", schema, broken)
		}
	}
	_, fast := compile(t, explainSchemas[0])
	for _, doc := range []string{`{"id":"ab","id":"ab","n":2}`, `{"i\u0064":"ab","i\u0064":"ab","n":2}`, strings.Repeat(" ", 10000) + `{}`} {
		if _, decided, notJSON := fast.ExplainText(doc); decided || notJSON {
			t.Errorf("%.30q: decided %v, not JSON %v; want it left to Explain", doc, decided, notJSON)
		}
	}
}

// TestExplainTextLeaf checks the first leaf on documents with several:
// object keywords before members, members in name order, items in order.
func TestExplainTextLeaf(t *testing.T) {
	_, fast := compile(t, explainSchemas[0])
	for doc, want := range map[string]string{
		`{"id":"b","n":0,"tags":[],"z":1,"q":2}`: "at '': maxProperties: got 5, want 3",
		`{"tags":["z",1,"x",2],"n":0,"id":"b"}`:  "at '/id': minLength: got 1, want 2",
		`{"tags":["x",2,"z"],"n":4,"id":"ab"}`:   "at '/tags': maxItems: got 3, want 2",
		`{"tags":["x","q"],"n":4,"id":"ab"}`:     "at '/tags/1': value must be one of 'x', 'y', 1",
	} {
		e, decided, _ := fast.ExplainText(doc)
		if !decided || e.First == nil {
			t.Errorf("%s: not explained", doc)
			continue
		}
		if got := e.First.Error(); got != want {
			t.Errorf("%s: first leaf %q, want %q", doc, got, want)
		}
		sameAsExplain(t, fast, doc)
	}
}

// TestExplainTextAllocs checks that a valid document is explained
// without allocating.
func TestExplainTextAllocs(t *testing.T) {
	_, fast := compile(t, explainSchemas[0])
	doc := `{"id":"ab","n":2,"tags":["x",1]}`
	if e, decided, _ := fast.ExplainText(doc); !decided || !e.Valid {
		t.Fatalf("valid document: %+v, decided %v", e, decided)
	}
	if n := testing.AllocsPerRun(100, func() { fast.ExplainText(doc) }); n != 0 {
		t.Errorf("ExplainText allocates %v times", n)
	}
}

// FuzzExplainText compares ExplainText with Explain on random documents:
// where it decides, the verdict, the leaf count and the first leaf must be
// Explain's; it decides only texts the parser accepts and calls not JSON
// only texts it refuses.
func FuzzExplainText(f *testing.F) {
	var schemas []*Schema
	for _, s := range explainSchemas {
		_, fast := compile(f, s)
		schemas = append(schemas, fast)
	}
	for i, d := range append(explainDocs, syntaxCases...) {
		f.Add(uint8(i), d)
	}
	f.Fuzz(func(t *testing.T, which uint8, doc string) {
		if len(doc) >= maxNesting {
			return
		}
		sameAsExplain(t, schemas[int(which)%len(schemas)], doc)
	})
}

// TestExplainLinear checks that explaining a document that fails at the
// bottom of deep nesting visits each value a bounded number of times, on
// the text and on the decoded value: recording the first leaf must not
// walk the failing branch again at every level.
func TestExplainLinear(t *testing.T) {
	for _, c := range []struct{ schema, open, leaf, close string }{
		{`{"$defs":{"n":{"properties":{"a":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"$ref":"#/$defs/n"}`, `{"a":`, `{"b":1}`, `}`},
		{`{"$defs":{"n":{"items":{"$ref":"#/$defs/n"},"maxItems":1}},"$ref":"#/$defs/n"}`, `[`, `[[],[]]`, `]`},
	} {
		_, fast := compile(t, c.schema)
		const depth = 1500
		doc := strings.Repeat(c.open, depth) + c.leaf + strings.Repeat(c.close, depth)
		x := textExplainer{p: new(jsonparse.Parser)}
		n, _, r := x.value(fast.root, doc, 0, true)
		if r != valid || n != 1 || x.first == nil || len(x.first.InstanceLocation) != depth {
			t.Fatalf("%s: %d leaves (%v), first %v", c.open, n, r, x.first)
		}
		v, err := jsonparse.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		var d explainer
		if n, ok := d.explain(fast.root, v, true); !ok || n != 1 || !slices.Equal(d.first.InstanceLocation, x.first.InstanceLocation) {
			t.Fatalf("%s: Explain %d leaves, first %v; ExplainText's %v", c.open, n, d.first, x.first)
		}
		// Each level is visited through "$ref" and its own keywords.
		for name, steps := range map[string]int{"ExplainText": x.steps, "Explain": d.steps} {
			if steps > 4*depth+20 {
				t.Errorf("%s %s: %d values visited for %d levels", name, c.open, steps, depth)
			}
		}
	}
}
