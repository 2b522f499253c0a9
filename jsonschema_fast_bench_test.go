package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path"
	"testing"
	"time"

	"github.com/proctorhq/proctor/internal/schemasuite"
	"github.com/proctorhq/proctor/internal/workload"
)

// suiteCase is one suite case of a fast-path schema, ready to grade.
type suiteCase struct {
	g     *JSONSchema
	s     Sample
	valid bool
	group string // draft, file and the group's description
}

// fastSuiteCases returns the required cases, every draft, of the suite
// schemas that take the fast path.
func fastSuiteCases(tb testing.TB) []suiteCase {
	tb.Helper()
	var out []suiteCase
	for _, d := range schemasuite.Drafts() {
		files, err := suiteGlob(suiteDir + "/tests/" + d.Dir + "/*.json")
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				tb.Fatal(err)
			}
			var groups []schemasuite.Group
			if err := json.Unmarshal(b, &groups); err != nil {
				tb.Fatal(err)
			}
			for _, grp := range groups {
				g, err := NewJSONSchema(grp.Schema, JSONSchemaOptions{Draft: d.Draft})
				if err != nil || g.fast == nil {
					continue
				}
				for _, c := range grp.Tests {
					var text bytes.Buffer
					if err := json.Compact(&text, c.Data); err != nil {
						tb.Fatal(err)
					}
					out = append(out, suiteCase{g, Sample{Output: text.String()}, c.Valid, d.Dir + "/" + path.Base(file) + ": " + grp.Description})
				}
			}
		}
	}
	return out
}

// BenchmarkJSONSchemaFastSuite grades every required suite case of the
// fast-path schemas with the grader as it is ("fast") and with the fast
// path switched off ("v6", the grader before it), split by the suite's
// verdict: a valid case costs the fast path's check, an invalid one its
// explanation (verdict and reason without the validator). One op is the
// whole set.
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
// in one run, split by verdict (a passing output is only read, a failing
// one read again to explain it).
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

// BenchmarkJSONSchemaFastSuiteSchemas grades each fast-path suite
// schema's required cases with the fast path and without it (jsonschema/v6
// alone, the grader before the fast path), schema by schema, and reports
// how many schemas grade slower with the fast path: "slower" counts any
// slowdown, "slower10%" one of more than a tenth; "-invalid" counts the
// same over each schema's invalid cases only. Each timing grades the
// schema's cases enough times over to last about 50 µs (a schema has one
// to a few tiny documents: timed once, the clock's own cost would be the
// measure), after an untimed run of both sides, in turns, and each side
// keeps its fastest timing over the rounds (b.N). "noise10%" counts the
// schemas whose two timings without the fast path differ by more than a
// tenth: the floor under which "slower10%" means nothing. "worst-ratio"
// is the largest fast-path time over jsonschema/v6's.
//
//	go test -run '^$' -bench 'JSONSchemaFastSuiteSchemas' -benchtime 5x .
func BenchmarkJSONSchemaFastSuiteSchemas(b *testing.B) {
	type group struct {
		fast, slow *JSONSchema
		name       string
		all, bad   []Sample
		t          [2][3]time.Duration // [all, invalid][fast, v6, v6 again], fastest round
		reps       [2]int              // how many times each timing grades the set
	}
	var groups []*group
	byGrader := map[*JSONSchema]*group{}
	for _, c := range fastSuiteCases(b) {
		g := byGrader[c.g]
		if g == nil {
			slow := *c.g
			slow.fast = nil
			g = &group{fast: c.g, slow: &slow, name: c.group}
			byGrader[c.g] = g
			groups = append(groups, g)
		}
		g.all = append(g.all, c.s)
		if !c.valid {
			g.bad = append(g.bad, c.s)
		}
	}
	ctx := context.Background()
	timeSet := func(gr *JSONSchema, set []Sample, reps int) time.Duration {
		start := time.Now()
		for range reps {
			for i := range set {
				gr.Grade(ctx, &set[i])
			}
		}
		return time.Since(start)
	}
	round := 0
	for b.Loop() {
		for _, g := range groups {
			for k, set := range [2][]Sample{g.all, g.bad} {
				if len(set) == 0 {
					continue
				}
				if g.reps[k] == 0 {
					one := timeSet(g.slow, set, 10) / 10
					g.reps[k] = int(min(1000, max(1, 50*time.Microsecond/max(one, 1))))
					g.t[k] = [3]time.Duration{math.MaxInt64, math.MaxInt64, math.MaxInt64}
				}
				// Each side once untimed (the caches then hold this
				// schema's data for both), then the three timings, the
				// first taking turns.
				timeSet(g.fast, set, 1)
				timeSet(g.slow, set, 1)
				for j := range 3 {
					side := (round + j) % 3
					gr := g.slow
					if side == 0 {
						gr = g.fast
					}
					g.t[k][side] = min(g.t[k][side], timeSet(gr, set, g.reps[k]))
				}
			}
		}
		round++
	}
	for k, suffix := range []string{"", "-invalid"} {
		slower, slower10, noise, n := 0, 0, 0, 0
		worst := 0.0 // the largest ratio of fast-path time to jsonschema/v6 time
		for _, g := range groups {
			if k == 1 && len(g.bad) == 0 {
				continue
			}
			n++
			f, s := g.t[k][0], g.t[k][1]
			worst = max(worst, float64(f)/float64(s))
			if f > s {
				slower++
				b.Logf("slower with the fast path: %s%s: %v, without %v", g.name, suffix, f, s)
			}
			if f*10 > s*11 {
				slower10++
			}
			if a, b := g.t[k][1], g.t[k][2]; max(a, b)*10 > min(a, b)*11 {
				noise++
			}
		}
		b.ReportMetric(float64(n), "schemas"+suffix)
		b.ReportMetric(float64(slower), "slower"+suffix)
		b.ReportMetric(float64(slower10), "slower10%"+suffix)
		b.ReportMetric(float64(noise), "noise10%"+suffix)
		b.ReportMetric(worst, "worst-ratio"+suffix)
	}
}
