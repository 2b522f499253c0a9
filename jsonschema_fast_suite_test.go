package proctor

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/workload"
)

// The json_schema grader answers "valid" from internal/fastschema when the
// schema stays inside the fast path's keywords, and asks jsonschema/v6
// otherwise. These tests run the whole JSON Schema Test Suite (every
// draft: the required files, and the optional format files under
// FormatAssertion)
// through both: wherever the fast path decides a case, its answer must be
// the validator's and, for required cases, the suite's.

// fastSuiteStats counts, per draft, the suite's schemas and those on the
// fast path, the cases the fast path decided and those it passed reading
// the text undecoded.
type fastSuiteStats struct{ schemas, fast, cases, decided, text int }

// fastSuiteFile runs one suite file through both paths.
func fastSuiteFile(t *testing.T, file, draft string, opts JSONSchemaOptions, required bool, st *fastSuiteStats) {
	t.Helper()
	groups, name := readSuiteFile(t, file)
	opts = suiteOptions(opts, draft)
	for gi, grp := range groups {
		g, err := NewJSONSchema(grp.Schema, opts)
		if err != nil {
			continue // TestJSONSchemaTestSuite reports it
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
			if g.fast.ValidText(string(c.Data)) {
				st.text++
				if !v6 || required && !c.Valid {
					t.Errorf("%s/%d/%d: %s: %s: ValidText true, jsonschema/v6 %v, suite %v", name, gi, ci, grp.Description, c.Description, v6, c.Valid)
				}
			}
			// A text read to "invalid" lets the grader skip Valid.
			if ok, decided := g.fast.DecideText(string(c.Data)); decided && !ok && (v6 || g.fast.Valid(v)) {
				t.Errorf("%s/%d/%d: %s: %s: DecideText invalid, jsonschema/v6 %v", name, gi, ci, grp.Description, c.Description, v6)
			}
			if !decided {
				if g.fast.Valid(v) {
					t.Errorf("%s/%d/%d: Valid true on an undecided case", name, gi, ci)
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
	var all fastSuiteStats
	for _, d := range suiteDrafts {
		t.Run(d.dir, func(t *testing.T) {
			var st fastSuiteStats
			for _, f := range suiteFiles(t, suiteDir+"/tests/"+d.dir+"/*.json") {
				fastSuiteFile(t, f, d.draft, JSONSchemaOptions{}, true, &st)
			}
			for _, f := range suiteFiles(t, suiteDir+"/tests/"+d.dir+"/optional/format/*.json") {
				fastSuiteFile(t, f, d.draft, JSONSchemaOptions{FormatAssertion: true}, false, &st)
			}
			// Most suite schemas exercise one keyword each; the subset
			// covers well over a third of them in every draft.
			if st.fast*3 < st.schemas || st.decided*10 < st.cases*9 {
				t.Errorf("fast path took %d of %d schemas and decided %d of %d cases", st.fast, st.schemas, st.decided, st.cases)
			}
			if st.text == 0 {
				t.Error("ValidText passed no case")
			}
			t.Logf("%s: %d of %d schemas on the fast path; it decided %d of their %d cases, %d passed undecoded", d.dir, st.fast, st.schemas, st.decided, st.cases, st.text)
			all.schemas += st.schemas
			all.fast += st.fast
		})
	}
	t.Logf("all drafts: %d of %d schemas (%.0f%%) on the fast path", all.fast, all.schemas, 100*float64(all.fast)/float64(all.schemas))
}

// TestJSONSchemaFastRealSchemas checks that the workload's and the
// quickstart's schemas take the fast path.
func TestJSONSchemaFastRealSchemas(t *testing.T) {
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
