package fastschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
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

// These tests run the whole JSON Schema Test Suite (every draft: the
// required files, and the optional format files with formats asserted)
// through the fast path and through jsonschema/v6, on the same compiled
// schema: wherever the fast path decides a case, its answer must be the
// validator's and, for required cases, the suite's. The json_schema
// grader grades from the fast path (a text read for passing outputs,
// ExplainText for failing ones, Explain for what the text readings leave
// open) when Compile takes the schema, and asks the validator otherwise;
// the root's jsonschema_fast_test.go checks that it does.

// suiteDir is the vendored JSON-Schema-Test-Suite, from this package's
// folder.
const suiteDir = "../../testdata/json-schema-test-suite"

// suitePair is one schema compiled by jsonschema/v6 and, when it is on
// the fast path, by Compile (nil otherwise).
type suitePair struct {
	sch  *jsonschema.Schema
	fast *Schema
}

// suiteDrafts maps the suite's drafts to the validator's.
var suiteDrafts = map[string]*jsonschema.Draft{
	"4": jsonschema.Draft4, "6": jsonschema.Draft6, "7": jsonschema.Draft7,
	"2019-09": jsonschema.Draft2019, "2020-12": jsonschema.Draft2020,
}

// remoteLoader serves the suite's remote "$ref"s
// (http://localhost:1234/...) from its remotes folder and refuses every
// other URL: nothing is fetched.
type remoteLoader struct{ remotes map[string]fs.FS }

func (l remoteLoader) Load(u string) (any, error) {
	for prefix, fsys := range l.remotes {
		if rest, ok := strings.CutPrefix(u, prefix); ok {
			b, err := fs.ReadFile(fsys, rest)
			if err != nil {
				return nil, err
			}
			return jsonschema.UnmarshalJSON(bytes.NewReader(b))
		}
	}
	return nil, fmt.Errorf("remote %s is not in the suite's remotes folder", u)
}

// compileSuite compiles one suite schema under draft as the json_schema
// grader does (the draft for schemas without "$schema", formats asserted
// when formats is set, remotes from the suite's folder), and with the
// fast path.
func compileSuite(t testing.TB, schema json.RawMessage, draft string, formats bool) (suitePair, error) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return suitePair{}, err
	}
	remotes, err := schemasuite.Remotes(os.DirFS(suiteDir))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(suiteDrafts[draft])
	if formats {
		c.AssertFormat()
	}
	c.UseLoader(remoteLoader{remotes})
	if err := c.AddResource("file:///schema.json", doc); err != nil {
		return suitePair{}, err
	}
	sch, err := c.Compile("file:///schema.json")
	if err != nil {
		return suitePair{}, err
	}
	fast, _ := Compile(sch)
	return suitePair{sch, fast}, nil
}

// fastSuiteStats counts, per draft, the suite's schemas and those on the
// fast path, the cases the fast path decided, those it explained (verdict
// and violations) and those it passed reading the text undecoded.
type fastSuiteStats struct{ schemas, fast, cases, decided, explained, text, textExplained int }

// sameExplanation checks the fast path's Explain against jsonschema/v6 on
// v: where the fast path decides, the verdict must be the validator's, the
// number of leaf errors the same, and the first leaf the fast path names
// one of the validator's leaves, message and location alike, and written
// by Message as the validator writes it (the names of
// an additionalProperties leaf compared as a set: the validator lists them
// in Go map order).
func sameExplanation(p suitePair, v any) error {
	e, decided := p.fast.Explain(v)
	if !decided {
		return nil
	}
	err := p.sch.Validate(v)
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
	if got, want := Message(e.First.ErrorKind), e.First.ErrorKind.LocalizedString(englishPrinter()); got != want {
		return fmt.Errorf("Message wrote %q, the validator %q", got, want)
	}
	return nil
}

// sameTextExplanation checks ExplainText on text against Explain on the
// decoded text: where ExplainText decides, Explain must decide the same
// verdict, the same number of leaves and the same first leaf (location and
// kind alike); it may decide only a text the parser accepts and call not
// JSON only a text the parser refuses. decided reports whether
// ExplainText decided.
func sameTextExplanation(p suitePair, text string) (decided bool, err error) {
	e, decided, notJSON := p.fast.ExplainText(text)
	v, perr := jsonparse.Parse(text)
	switch {
	case notJSON && perr == nil:
		return false, fmt.Errorf("ExplainText: not JSON, but it parses")
	case decided && perr != nil:
		return false, fmt.Errorf("ExplainText decided, but the parser says %v", perr)
	case !decided:
		return false, nil
	}
	d, ok := p.fast.Explain(v)
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
func fastSuiteFile(t *testing.T, file, draft string, formats, required bool, st *fastSuiteStats) {
	t.Helper()
	groups, name := readSuiteFile(t, file)
	for gi, grp := range groups {
		p, err := compileSuite(t, grp.Schema, draft, formats)
		if err != nil {
			continue // conformance's TestJSONSchemaTestSuite reports it
		}
		st.schemas++
		if p.fast == nil {
			continue
		}
		st.fast++
		for ci, c := range grp.Tests {
			st.cases++
			v, err := jsonparse.Parse(string(c.Data))
			if err != nil {
				t.Fatalf("%s/%d/%d: data does not parse: %v", name, gi, ci, err)
			}
			ok, decided := p.fast.Decide(v)
			v6 := p.sch.Validate(v) == nil
			if ok, _ := p.fast.ReadText(string(c.Data)); ok {
				st.text++
				if !v6 || required && !c.Valid {
					t.Errorf("%s/%d/%d: %s: %s: ReadText true, jsonschema/v6 %v, suite %v", name, gi, ci, grp.Description, c.Description, v6, c.Valid)
				}
			}
			if err := sameExplanation(p, v); err != nil {
				t.Errorf("%s/%d/%d: %s: %s: %v", name, gi, ci, grp.Description, c.Description, err)
			}
			if _, explained := p.fast.Explain(v); explained {
				st.explained++
			}
			if decided, err := sameTextExplanation(p, string(c.Data)); err != nil {
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
			for _, f := range suiteFiles(t, "tests/"+d.Dir+"/*.json") {
				fastSuiteFile(t, f, d.Draft, false, true, &st)
			}
			for _, f := range suiteFiles(t, "tests/"+d.Dir+"/optional/format/*.json") {
				fastSuiteFile(t, f, d.Draft, true, false, &st)
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

// TestJSONSchemaFastRealSchemas checks that the workload's schema takes
// the fast path (the root's test of the same name checks the grader's
// schemas: the workload's, the quickstart's and its ticket schema).
func TestJSONSchemaFastRealSchemas(t *testing.T) {
	t.Parallel()
	if _, ok := Compile(compileV6(t, string(workload.Load(t, "json_schema").Schema))); !ok {
		t.Error("workload schema is not on the fast path")
	}
}

// TestLeafMessage checks Message against the validator's own wording
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
		if got, want := Message(k), k.LocalizedString(englishPrinter()); got != want {
			t.Errorf("%#v: Message %q, the validator %q", k, got, want)
		}
	}
}

// The suite's files, read here for the fast path's tests, its fuzz seeds
// and its benchmarks; conformance/jsonschema_suite_test.go runs the suite
// itself through the public API.

func suiteFiles(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := schemasuite.Files(os.DirFS(suiteDir), pattern)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// readSuiteFile reads one file of the JSON Schema Test Suite and returns
// its groups and its name without the extension.
func readSuiteFile(t testing.TB, file string) ([]schemasuite.Group, string) {
	t.Helper()
	groups, name, err := schemasuite.Read(os.DirFS(suiteDir), file)
	if err != nil {
		t.Fatal(err)
	}
	return groups, name
}
