package fastschema

import (
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/schemasuite"
	"github.com/proctorhq/proctor/internal/workload"
)

// fastCorpus is every suite schema (required files, every draft) that
// takes the fast path, with the suite's data as seeds.
type fastCorpus struct {
	pairs []suitePair
	seeds [][]byte
}

// fastSuiteCorpus reads the corpus, failing tb on a suite file it cannot
// read.
func fastSuiteCorpus(tb testing.TB) *fastCorpus {
	tb.Helper()
	fc := &fastCorpus{}
	for _, d := range schemasuite.Drafts() {
		for _, file := range suiteFiles(tb, "tests/"+d.Dir+"/*.json") {
			groups, _ := readSuiteFile(tb, file)
			for _, grp := range groups {
				p, err := compileSuite(tb, grp.Schema, d.Draft, false)
				if err != nil || p.fast == nil {
					continue
				}
				fc.pairs = append(fc.pairs, p)
				for _, c := range grp.Tests {
					fc.seeds = append(fc.seeds, c.Data)
				}
			}
		}
	}
	return fc
}

// FuzzFastSchema validates random documents against the suite's fast-path
// schemas and the workload's schema: whenever the fast path decides, its
// answer must be jsonschema/v6's, its explanation the validator's (see
// sameExplanation) and its text readings those of the decoded value (see
// sameTextExplanation). The root's FuzzJSONSchemaFastGrade checks the
// grader's grades with and without the fast path.
func FuzzFastSchema(f *testing.F) {
	fc := fastSuiteCorpus(f)
	c := workload.Load(f, "json_schema")
	sch := compileV6(f, string(c.Schema))
	wl, ok := Compile(sch)
	if !ok {
		f.Fatal("workload schema not on the fast path")
	}
	pairs := append(fc.pairs[:len(fc.pairs):len(fc.pairs)], suitePair{sch, wl})
	for i, s := range fc.seeds {
		f.Add(uint16(i), string(s))
	}
	for i, s := range c.SampleSet[:200] {
		f.Add(uint16(len(pairs)-1-i%2), s.Output)
	}
	f.Fuzz(func(t *testing.T, which uint16, doc string) {
		p := pairs[int(which)%len(pairs)]
		if v, err := jsonparse.Parse(doc); err == nil {
			ok, decided := p.fast.Decide(v)
			if v6 := p.sch.Validate(v) == nil; decided && ok != v6 {
				t.Fatalf("schema %s: %q: fast path %v, jsonschema/v6 %v", p.sch.Location, doc, ok, v6)
			}
			if err := sameExplanation(p, v); err != nil {
				t.Fatalf("schema %s: %q: %v", p.sch.Location, doc, err)
			}
		}
		if _, err := sameTextExplanation(p, doc); err != nil {
			t.Fatalf("schema %s: %q: %v", p.sch.Location, doc, err)
		}
	})
}
