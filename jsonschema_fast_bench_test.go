package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/proctorhq/proctor/internal/workload"
)

// suiteCase is one suite case of a fast-path schema, ready to grade.
type suiteCase struct {
	g     *JSONSchema
	s     Sample
	valid bool
}

// fastSuiteCases returns the required cases, every draft, of the suite
// schemas that take the fast path.
func fastSuiteCases(tb testing.TB) []suiteCase {
	tb.Helper()
	var out []suiteCase
	for _, d := range suiteDrafts {
		files, err := suiteGlob(suiteDir + "/tests/" + d.dir + "/*.json")
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				tb.Fatal(err)
			}
			var groups []suiteGroup
			if err := json.Unmarshal(b, &groups); err != nil {
				tb.Fatal(err)
			}
			for _, grp := range groups {
				g, err := NewJSONSchema(grp.Schema, JSONSchemaOptions{Draft: d.draft})
				if err != nil || g.fast == nil {
					continue
				}
				for _, c := range grp.Tests {
					var text bytes.Buffer
					if err := json.Compact(&text, c.Data); err != nil {
						tb.Fatal(err)
					}
					out = append(out, suiteCase{g, Sample{Output: text.String()}, c.Valid})
				}
			}
		}
	}
	return out
}

// BenchmarkJSONSchemaFastSuite grades every required suite case of the
// fast-path schemas with the grader as it is ("fast") and with the fast
// path switched off ("v6", the grader before it), split by the suite's
// verdict: a valid case costs the fast check alone, an invalid one the
// fast check plus the validator run that builds the reason. One op is
// the whole set.
//
//	go test -run '^$' -bench 'JSONSchemaFastSuite' -benchmem .
func BenchmarkJSONSchemaFastSuite(b *testing.B) {
	cases := fastSuiteCases(b)
	ctx := context.Background()
	for _, verdict := range []struct {
		name  string
		valid bool
	}{{"valid", true}, {"invalid", false}} {
		for _, path := range []string{"fast", "v6"} {
			b.Run(verdict.name+"/"+path, func(b *testing.B) {
				var set []suiteCase
				for _, c := range cases {
					if c.valid != verdict.valid {
						continue
					}
					if path == "v6" {
						slow := *c.g
						slow.fast = nil
						c.g = &slow
					}
					set = append(set, c)
				}
				b.ReportAllocs()
				for b.Loop() {
					for i := range set {
						set[i].g.Grade(ctx, &set[i].s)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set)), "ns/grade")
			})
		}
	}
}

// BenchmarkJSONSchemaFastWorkload grades the workload's json_schema
// sample set with the grader as it is and with the fast path switched off,
// in one run, split by verdict (the failing outputs also pay for the
// validator's reason).
//
//	go test -run '^$' -bench 'JSONSchemaFastWorkload' -benchmem -benchtime=20000x .
func BenchmarkJSONSchemaFastWorkload(b *testing.B) {
	c := workload.Load(b, "json_schema")
	g := MustJSONSchema(c.Schema, JSONSchemaOptions{})
	slow := *g
	slow.fast = nil
	ctx := context.Background()
	sets := map[bool][]Sample{}
	for _, s := range c.SampleSet {
		sm := Sample{Output: s.Output}
		pass := g.Grade(ctx, &sm).Status == StatusPassed
		sets[pass] = append(sets[pass], sm)
	}
	for _, verdict := range []struct {
		name string
		pass bool
	}{{"all", false}, {"passing", true}, {"failing", false}} {
		set := sets[verdict.pass]
		if verdict.name == "all" {
			set = nil
			for _, s := range c.SampleSet {
				set = append(set, Sample{Output: s.Output})
			}
		}
		for _, path := range []struct {
			name string
			g    *JSONSchema
		}{{"fast", g}, {"v6", &slow}} {
			b.Run(verdict.name+"/"+path.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					path.g.Grade(ctx, &set[i])
					if i++; i == len(set) {
						i = 0
					}
				}
			})
		}
	}
}
