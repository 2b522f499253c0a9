package proctor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/schemasuite"
	"github.com/proctorhq/proctor/internal/workload"
)

// The json_schema grader grades from internal/fastschema (a text read for
// passing outputs, ExplainText for failing ones, Explain for what the
// text readings leave open) when the schema stays inside the
// fast path's keywords, and asks jsonschema/v6 otherwise. These tests run
// the whole JSON Schema Test Suite (every draft: the required files, and
// the optional format files under FormatAssertion) through both: wherever
// the fast path decides a case, its answer must be the validator's and,
// for required cases, the suite's.

// fastSuiteStats counts, per draft, the suite's schemas and those on the
// fast path, the cases the fast path decided, those it explained (verdict
// and violations) and those it passed reading the text undecoded.
type fastSuiteStats struct{ schemas, fast, cases, decided, explained, text, textExplained int }

// sameExplanation checks the fast path's Explain against jsonschema/v6 on
// v: where the fast path decides, the verdict must be the validator's, the
// number of leaf errors the same, and the first leaf the fast path names
// one of the validator's leaves, message and location alike, and written
// by leafMessage as the validator writes it (the names of
// an additionalProperties leaf compared as a set: the validator lists them
// in Go map order).
func sameExplanation(g *JSONSchema, v any) error {
	e, decided := g.fast.Explain(v)
	if !decided {
		return nil
	}
	err := g.schema.Validate(v)
	if e.Valid != (err == nil) {
		return fmt.Errorf("Explain valid %v, jsonschema/v6 %v", e.Valid, err)
	}
	if err == nil {
		return nil
	}
	var leaves []string
	var walk func(ve *jsonschema.ValidationError)
	walk = func(ve *jsonschema.ValidationError) {
		if len(ve.Causes) == 0 {
			leaves = append(leaves, leafText(ve))
		}
		for _, c := range ve.Causes {
			walk(c)
		}
	}
	walk(err.(*jsonschema.ValidationError))
	if e.Leaves != len(leaves) {
		return fmt.Errorf("Explain found %d violations, jsonschema/v6 %d: %q", e.Leaves, len(leaves), leaves)
	}
	if first := leafText(e.First); !slices.Contains(leaves, first) {
		return fmt.Errorf("Explain's first violation %q is not one of jsonschema/v6's %q", first, leaves)
	}
	if got, want := leafMessage(e.First.ErrorKind), e.First.ErrorKind.LocalizedString(englishPrinter()); got != want {
		return fmt.Errorf("leafMessage wrote %q, the validator %q", got, want)
	}
	return nil
}

// sameTextExplanation checks ExplainText on text against Explain on the
// decoded text: where ExplainText decides, Explain must decide the same
// verdict, the same number of leaves and the same first leaf (location and
// kind alike); it may decide only a text the parser accepts and call not
// JSON only a text the parser refuses. decided reports whether
// ExplainText decided.
func sameTextExplanation(g *JSONSchema, text string) (decided bool, err error) {
	e, decided, notJSON := g.fast.ExplainText(text)
	v, perr := jsonparse.Parse(text)
	switch {
	case notJSON && perr == nil:
		return false, fmt.Errorf("ExplainText: not JSON, but it parses")
	case decided && perr != nil:
		return false, fmt.Errorf("ExplainText decided, but the parser says %v", perr)
	case !decided:
		return false, nil
	}
	d, ok := g.fast.Explain(v)
	if !ok {
		return true, fmt.Errorf("ExplainText decided (valid %v), Explain did not", e.Valid)
	}
	if e.Valid != d.Valid || e.Leaves != d.Leaves {
		return true, fmt.Errorf("ExplainText valid %v with %d leaves, Explain valid %v with %d", e.Valid, e.Leaves, d.Valid, d.Leaves)
	}
	if e.First != nil && (!slices.Equal(e.First.InstanceLocation, d.First.InstanceLocation) || leafText(e.First) != leafText(d.First) ||
		!reflect.DeepEqual(e.First.ErrorKind, d.First.ErrorKind)) {
		return true, fmt.Errorf("ExplainText's first leaf %q %#v, Explain's %q %#v", leafText(e.First), e.First.ErrorKind, leafText(d.First), d.First.ErrorKind)
	}
	return true, nil
}

// leafText prints a leaf error with the property names of an
// additionalProperties leaf sorted.
func leafText(ve *jsonschema.ValidationError) string {
	if k, ok := ve.ErrorKind.(*kind.AdditionalProperties); ok {
		c := *ve
		c.ErrorKind = &kind.AdditionalProperties{Properties: slices.Sorted(slices.Values(k.Properties))}
		ve = &c
	}
	return ve.Error()
}

// fastSuiteFile runs one suite file through both paths.
func fastSuiteFile(t *testing.T, file, draft string, opts JSONSchemaOptions, required bool, st *fastSuiteStats) {
	t.Helper()
	groups, name := readSuiteFile(t, file)
	opts = suiteOptions(opts, draft)
	for gi, grp := range groups {
		g, err := NewJSONSchema(grp.Schema, opts)
		if err != nil {
			continue // conformance's TestJSONSchemaTestSuite reports it
		}
		st.schemas++
		if g.fast == nil {
			continue
		}
		st.fast++
		for ci, c := range grp.Tests {
			st.cases++
			v, err := jsonparse.Parse(string(c.Data))
			if err != nil {
				t.Fatalf("%s/%d/%d: data does not parse: %v", name, gi, ci, err)
			}
			ok, decided := g.fast.Decide(v)
			v6 := g.schema.Validate(v) == nil
			if ok, _ := g.fast.ReadText(string(c.Data)); ok {
				st.text++
				if !v6 || required && !c.Valid {
					t.Errorf("%s/%d/%d: %s: %s: ReadText true, jsonschema/v6 %v, suite %v", name, gi, ci, grp.Description, c.Description, v6, c.Valid)
				}
			}
			if err := sameExplanation(g, v); err != nil {
				t.Errorf("%s/%d/%d: %s: %s: %v", name, gi, ci, grp.Description, c.Description, err)
			}
			if _, explained := g.fast.Explain(v); explained {
				st.explained++
			}
			if decided, err := sameTextExplanation(g, string(c.Data)); err != nil {
				t.Errorf("%s/%d/%d: %s: %s: %q: %v", name, gi, ci, grp.Description, c.Description, c.Data, err)
			} else if decided {
				st.textExplained++
			}
			if !decided {
				if ok {
					t.Errorf("%s/%d/%d: Decide answered valid on an undecided case", name, gi, ci)
				}
				continue
			}
			st.decided++
			if ok != v6 {
				t.Errorf("%s/%d/%d: %s: %s: fast path %v, jsonschema/v6 %v", name, gi, ci, grp.Description, c.Description, ok, v6)
			}
			if required && ok != c.Valid {
				t.Errorf("%s/%d/%d: %s: %s: fast path %v, suite %v", name, gi, ci, grp.Description, c.Description, ok, c.Valid)
			}
		}
	}
}

// TestJSONSchemaFastSuite runs every suite file through both paths; with
// -v it logs the share of schemas on the fast path per draft.
func TestJSONSchemaFastSuite(t *testing.T) {
	t.Parallel()
	var all fastSuiteStats
	for _, d := range schemasuite.Drafts() {
		t.Run(d.Dir, func(t *testing.T) {
			var st fastSuiteStats
			for _, f := range suiteFiles(t, suiteDir+"/tests/"+d.Dir+"/*.json") {
				fastSuiteFile(t, f, d.Draft, JSONSchemaOptions{}, true, &st)
			}
			for _, f := range suiteFiles(t, suiteDir+"/tests/"+d.Dir+"/optional/format/*.json") {
				fastSuiteFile(t, f, d.Draft, JSONSchemaOptions{FormatAssertion: true}, false, &st)
			}
			// Most suite schemas exercise one keyword each; the subset
			// covers well over a third of them in every draft.
			if st.fast*3 < st.schemas || st.decided*10 < st.cases*9 {
				t.Errorf("fast path took %d of %d schemas and decided %d of %d cases", st.fast, st.schemas, st.decided, st.cases)
			}
			if st.text == 0 {
				t.Error("ReadText passed no case")
			}
			if st.explained*10 < st.cases*9 || st.textExplained*10 < st.cases*9 {
				t.Errorf("fast path explained %d of %d cases, %d from the text", st.explained, st.cases, st.textExplained)
			}
			t.Logf("%s: %d of %d schemas on the fast path; it decided %d of their %d cases, explained %d (%d from the text), passed %d undecoded", d.Dir, st.fast, st.schemas, st.decided, st.cases, st.explained, st.textExplained, st.text)
			all.schemas += st.schemas
			all.fast += st.fast
		})
	}
	t.Logf("all drafts: %d of %d schemas (%.0f%%) on the fast path", all.fast, all.schemas, 100*float64(all.fast)/float64(all.schemas))
}

// TestJSONSchemaFastRealSchemas checks that the workload's and the
// quickstart's schemas take the fast path.
func TestJSONSchemaFastRealSchemas(t *testing.T) {
	t.Parallel()
	ticket, err := os.ReadFile("examples/quickstart/testdata/schemas/ticket.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{
		"workload":   workload.Load(t, "json_schema").Schema,
		"quickstart": ticket,
		"ticket":     []byte(ticketSchema),
	} {
		g, err := NewJSONSchema(raw, JSONSchemaOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.fast == nil {
			t.Errorf("%s schema is not on the fast path", name)
		}
	}
}

// TestJSONSchemaFastReasons checks that a failing output still gets the
// validator's reason and a passing one passes on either path.
func TestJSONSchemaFastReasons(t *testing.T) {
	g := MustJSONSchema(ticketSchema, JSONSchemaOptions{})
	if g.fast == nil {
		t.Fatal("ticket schema not on the fast path")
	}
	ctx := context.Background()
	if got := g.Grade(ctx, &Sample{Output: `{"id":"T-1","urgent":true}`}); got.Status != StatusPassed {
		t.Errorf("valid ticket: %v %s", got.Status, got.Reason)
	}
	got := g.Grade(ctx, &Sample{Output: `{"id":"T-1","urgent":"yes"}`})
	slow := *g
	slow.fast = nil
	want := slow.Grade(ctx, &Sample{Output: `{"id":"T-1","urgent":"yes"}`})
	if got.Status != StatusFailed || got.Reason != want.Reason || !strings.Contains(got.Reason, "/urgent") {
		t.Errorf("invalid ticket: got %v %q, want failed %q", got.Status, got.Reason, want.Reason)
	}
}

// TestLeafMessage checks leafMessage against the validator's own wording
// on names and values that need quoting.
func TestLeafMessage(t *testing.T) {
	odd := []string{"", "a", `it's`, `say "hi"`, "tab\there", "é😀", "\x01\x7f", `back\slash`, "\xff"}
	kinds := []jsonschema.ErrorKind{
		&kind.Required{Missing: odd[:1]}, &kind.Required{Missing: odd},
		&kind.Type{Got: "string", Want: []string{"integer", "null"}},
		&kind.Enum{Got: "x", Want: []any{"a", json.Number("1.50"), true, nil, `it's`}},
		&kind.Enum{Got: "x", Want: []any{"a"}}, &kind.Enum{Got: "x", Want: []any{"a", []any{}}},
		&kind.Const{Got: 1, Want: json.Number("2")}, &kind.Const{Got: 1, Want: map[string]any{}},
		&kind.AdditionalProperties{Properties: odd}, &kind.FalseSchema{},
	}
	for _, s := range odd {
		kinds = append(kinds, &kind.Pattern{Got: s, Want: "^" + s + "$"}, &kind.Const{Want: s})
	}
	for _, k := range kinds {
		if got, want := leafMessage(k), k.LocalizedString(englishPrinter()); got != want {
			t.Errorf("%#v: leafMessage %q, the validator %q", k, got, want)
		}
	}
}

// The suite's files, read here for the fast path's tests, its fuzz seeds
// and its benchmarks; conformance/jsonschema_suite_test.go runs the suite
// itself through the public API.

const suiteDir = "testdata/json-schema-test-suite"

func suiteFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := schemasuite.Files(os.DirFS("."), pattern)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// readSuiteFile reads one file of the JSON Schema Test Suite and returns
// its groups and its name without the extension.
func readSuiteFile(t *testing.T, file string) ([]schemasuite.Group, string) {
	t.Helper()
	groups, name, err := schemasuite.Read(os.DirFS("."), file)
	if err != nil {
		t.Fatal(err)
	}
	return groups, name
}

// suiteOptions sets the draft and serves the suite's remote schemas from
// the vendored remotes folder (never the network).
func suiteOptions(opts JSONSchemaOptions, draft string) JSONSchemaOptions {
	opts.Draft = draft
	opts.Remotes, _ = schemasuite.Remotes(os.DirFS(suiteDir))
	return opts
}
