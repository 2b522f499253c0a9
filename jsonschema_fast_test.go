package proctor

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/schemasuite"
	"github.com/proctorhq/proctor/internal/workload"
)

// The json_schema grader grades from internal/fastschema when the schema
// stays inside the fast path's keywords. internal/fastschema's own tests
// hold the fast path to jsonschema/v6 on the JSON Schema Test Suite and
// on fuzzed documents, and benchmark the two side by side; these check
// that the grader takes the fast path and that its grades are the ones
// it gives with the fast path switched off.

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

// fastGraders returns a grader for every suite schema (required files,
// every draft) that takes the fast path, with the suite's data as seeds.
func fastGraders(tb testing.TB) (graders []*JSONSchema, seeds []string) {
	tb.Helper()
	suite := os.DirFS("testdata/json-schema-test-suite")
	for _, d := range schemasuite.Drafts() {
		files, err := schemasuite.Files(suite, "tests/"+d.Dir+"/*.json")
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range files {
			groups, _, err := schemasuite.Read(suite, file)
			if err != nil {
				tb.Fatal(err)
			}
			for _, grp := range groups {
				g, err := NewJSONSchema(grp.Schema, JSONSchemaOptions{Draft: d.Draft})
				if err != nil || g.fast == nil {
					continue
				}
				graders = append(graders, g)
				for _, c := range grp.Tests {
					seeds = append(seeds, string(c.Data))
				}
			}
		}
	}
	return graders, seeds
}

// FuzzJSONSchemaFastGrade grades random outputs against the suite's
// fast-path schemas and the workload's schema: the grader's grade must be
// the one it gives without the fast path (see sameGrade).
// internal/fastschema's FuzzFastSchema holds the fast path's verdicts and
// explanations to jsonschema/v6 on the same seeds.
func FuzzJSONSchemaFastGrade(f *testing.F) {
	graders, seeds := fastGraders(f)
	c := workload.Load(f, "json_schema")
	wl := MustJSONSchema(c.Schema, JSONSchemaOptions{})
	if wl.fast == nil {
		f.Fatal("workload schema not on the fast path")
	}
	graders = append(graders, wl)
	for i, s := range seeds {
		f.Add(uint16(i), s)
	}
	for i, s := range c.SampleSet[:200] {
		f.Add(uint16(len(graders)-1-i%2), s.Output)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, which uint16, doc string) {
		g := graders[int(which)%len(graders)]
		slow := *g
		slow.fast = nil
		got, want := g.Grade(ctx, &Sample{Output: doc}), slow.Grade(ctx, &Sample{Output: doc})
		if !sameGrade(got, want) {
			t.Fatalf("%q: grade %v %q, without the fast path %v %q", doc, got.Status, got.Reason, want.Status, want.Reason)
		}
	})
}

// TestJSONSchemaFastWorkload grades every sample of both workload sample
// sets with and without the fast path: the grades must be identical.
func TestJSONSchemaFastWorkload(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, check := range []string{"json_schema", "json_schema_extract"} {
		c := workload.Load(t, check)
		g := MustJSONSchema(c.Schema, JSONSchemaOptions{})
		slow := *g
		slow.fast = nil
		passed := 0
		for _, s := range c.SampleSet {
			sm := &Sample{Output: s.Output}
			got, want := g.Grade(ctx, sm), slow.Grade(ctx, sm)
			if !sameGrade(got, want) {
				t.Fatalf("%s %s: grade %v %q, without the fast path %v %q", check, s.ID, got.Status, got.Reason, want.Status, want.Reason)
			}
			if got.Status == StatusPassed {
				passed++
			}
		}
		if passed == 0 || passed == len(c.SampleSet) {
			t.Errorf("%s: %d of %d pass; want a mix", check, passed, len(c.SampleSet))
		}
	}
}

// sameGrade compares grades from the grader with and without the fast
// path: the same status and the same reason, except where the validator's
// own wording follows Go's map order and differs run to run: with several
// violations its first may be another (the count must still agree), and
// an additionalProperties violation lists names in any order.
func sameGrade(a, b Grade) bool {
	if a.Status != b.Status {
		return false
	}
	if i := strings.LastIndex(a.Reason, " (and "); i >= 0 && strings.HasSuffix(a.Reason, " more)") {
		return strings.HasSuffix(b.Reason, a.Reason[i:])
	}
	if strings.Contains(a.Reason, "additional properties") {
		return sortedWords(a.Reason) == sortedWords(b.Reason)
	}
	return a.Reason == b.Reason
}

// sortedWords is s's words sorted, for comparing name lists in any order.
func sortedWords(s string) string {
	w := strings.Fields(strings.ReplaceAll(s, ",", " "))
	slices.Sort(w)
	return strings.Join(w, " ")
}
