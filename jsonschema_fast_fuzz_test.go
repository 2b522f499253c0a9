package proctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/schemasuite"
	"github.com/proctorhq/proctor/internal/workload"
)

// fastCorpus is every suite schema (required files, every draft) that
// takes the fast path, and the workload's schema last, with the suite's
// data as seeds.
type fastCorpus struct {
	graders []*JSONSchema
	seeds   [][]byte
}

var loadFastCorpus = sync.OnceValues(func() (*fastCorpus, error) {
	fc := &fastCorpus{}
	for _, d := range schemasuite.Drafts() {
		files, err := suiteGlob(suiteDir + "/tests/" + d.Dir + "/*.json")
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			var groups []schemasuite.Group
			if err := json.Unmarshal(b, &groups); err != nil {
				return nil, err
			}
			for _, grp := range groups {
				g, err := NewJSONSchema(grp.Schema, JSONSchemaOptions{Draft: d.Draft})
				if err != nil || g.fast == nil {
					continue
				}
				fc.graders = append(fc.graders, g)
				for _, c := range grp.Tests {
					fc.seeds = append(fc.seeds, c.Data)
				}
			}
		}
	}
	return fc, nil
})

// FuzzFastSchema validates random documents against the suite's fast-path
// schemas and the workload's schema: whenever the fast path decides, its
// answer must be jsonschema/v6's, and the grader's grade must be the one
// it gives without the fast path (see sameGrade).
func FuzzFastSchema(f *testing.F) {
	fc, err := loadFastCorpus()
	if err != nil {
		f.Fatal(err)
	}
	c := workload.Load(f, "json_schema")
	wl := MustJSONSchema(c.Schema, JSONSchemaOptions{})
	if wl.fast == nil {
		f.Fatal("workload schema not on the fast path")
	}
	graders := append(fc.graders[:len(fc.graders):len(fc.graders)], wl)
	for i, s := range fc.seeds {
		f.Add(uint16(i), string(s))
	}
	for i, s := range c.SampleSet[:200] {
		f.Add(uint16(len(graders)-1-i%2), s.Output)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, which uint16, doc string) {
		g := graders[int(which)%len(graders)]
		if v, err := jsonparse.Parse(doc); err == nil {
			ok, decided := g.fast.Decide(v)
			if v6 := g.schema.Validate(v) == nil; decided && ok != v6 {
				t.Fatalf("schema %s: %q: fast path %v, jsonschema/v6 %v", g.schema.Location, doc, ok, v6)
			}
			if err := sameExplanation(g, v); err != nil {
				t.Fatalf("schema %s: %q: %v", g.schema.Location, doc, err)
			}
		}
		if _, err := sameTextExplanation(g, doc); err != nil {
			t.Fatalf("schema %s: %q: %v", g.schema.Location, doc, err)
		}
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

func suiteGlob(pattern string) ([]string, error) {
	files, err := fs.Glob(os.DirFS("."), pattern)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no suite files for %s", pattern)
	}
	return files, err
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
