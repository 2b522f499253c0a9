package fastschema

import (
	"bytes"
	"encoding/json"
	"math"
	"path"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/schemasuite"
	"github.com/proctorhq/proctor/internal/workload"
)

// The benchmarks set the fast path beside jsonschema/v6 alone in one run,
// each side doing what the json_schema grader asks of it for one JSON
// text: the verdict and, for an invalid text, how many violations there
// are and the first of them (the reason's material; writing the reason
// costs both sides the same and is left out).

// checker is one side: it checks text against p and returns the verdict
// and the number of violations (-1 when text is not JSON).
type checker func(p suitePair, text string) (valid bool, leaves int)

// fastCheck is the grader's fast path: the pass-only text read, then the
// explaining text read, then Explain on the decoded value, and the
// validator only where neither decides.
func fastCheck(p suitePair, text string) (bool, int) {
	switch ok, notJSON := p.fast.ReadText(text); {
	case ok:
		return true, 0
	case notJSON:
		return false, -1
	}
	switch e, decided, notJSON := p.fast.ExplainText(text); {
	case notJSON:
		return false, -1
	case decided:
		return e.Valid, e.Leaves
	}
	v, err := jsonparse.Parse(text)
	if err != nil {
		return false, -1
	}
	if e, ok := p.fast.Explain(v); ok {
		return e.Valid, e.Leaves
	}
	return v6Value(p, v)
}

// v6Check is the grader without the fast path: parse, validate with
// jsonschema/v6, find the first leaf and count the leaves.
func v6Check(p suitePair, text string) (bool, int) {
	v, err := jsonparse.Parse(text)
	if err != nil {
		return false, -1
	}
	return v6Value(p, v)
}

func v6Value(p suitePair, v any) (bool, int) {
	err := p.sch.Validate(v)
	if err == nil {
		return true, 0
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return false, -1
	}
	leaves := 0
	var first *jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if first == nil {
				first = e
			}
			leaves++
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return false, leaves
}

// suiteCase is one suite case of a fast-path schema, ready to check.
type suiteCase struct {
	p     suitePair
	text  string
	valid bool
	group string // draft, file and the group's description
}

// fastSuiteCases returns the required cases, every draft, of the suite
// schemas that take the fast path, each as compact JSON text.
func fastSuiteCases(tb testing.TB) []suiteCase {
	tb.Helper()
	var out []suiteCase
	for _, d := range schemasuite.Drafts() {
		for _, file := range suiteFiles(tb, "tests/"+d.Dir+"/*.json") {
			groups, _ := readSuiteFile(tb, file)
			for _, grp := range groups {
				p, err := compileSuite(tb, grp.Schema, d.Draft, false)
				if err != nil || p.fast == nil {
					continue
				}
				for _, c := range grp.Tests {
					var text bytes.Buffer
					if err := json.Compact(&text, c.Data); err != nil {
						tb.Fatal(err)
					}
					out = append(out, suiteCase{p, text.String(), c.Valid, d.Dir + "/" + path.Base(file) + ": " + grp.Description})
				}
			}
		}
	}
	return out
}

// TestCheckersAgree holds the two benchmarked sides to the same answers
// on the suite's cases, so that the benchmarks time equal work.
func TestCheckersAgree(t *testing.T) {
	t.Parallel()
	for _, c := range fastSuiteCases(t) {
		fv, fl := fastCheck(c.p, c.text)
		sv, sl := v6Check(c.p, c.text)
		if fv != sv || fl != sl || fv != c.valid {
			t.Errorf("%s: %s: fast path %v with %d violations, jsonschema/v6 %v with %d, suite %v", c.group, c.text, fv, fl, sv, sl, c.valid)
		}
	}
}

// BenchmarkJSONSchemaFastSuite checks every required suite case of the
// fast-path schemas with the fast path ("fast") and with jsonschema/v6
// alone ("v6", the grader before the fast path), split by the suite's
// verdict: a valid case costs the fast path's read, an invalid one its
// explanation (verdict and violations without the validator). One op is
// the whole set.
//
//	go test -run '^$' -bench 'JSONSchemaFastSuite$' -benchmem ./internal/fastschema
func BenchmarkJSONSchemaFastSuite(b *testing.B) {
	cases := fastSuiteCases(b)
	for _, verdict := range []struct {
		name  string
		valid bool
	}{{"valid", true}, {"invalid", false}} {
		var set []suiteCase
		for _, c := range cases {
			if c.valid == verdict.valid {
				set = append(set, c)
			}
		}
		for _, side := range []struct {
			name  string
			check checker
		}{{"fast", fastCheck}, {"v6", v6Check}} {
			b.Run(verdict.name+"/"+side.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for i := range set {
						side.check(set[i].p, set[i].text)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set)), "ns/check")
			})
		}
	}
}

// workloadText is the JSON text the json_schema grader reads in one
// workload output: its first candidate (the output whole, a fence, a
// leading value or a bracketed span) that parses.
func workloadText(output string) (string, bool) {
	for c := range fence.Candidates(output) {
		if _, err := jsonparse.Parse(c); err == nil {
			return c, true
		}
	}
	return "", false
}

// BenchmarkJSONSchemaFastWorkload checks the JSON of the workload's
// json_schema sample set with the fast path and with jsonschema/v6
// alone, in one run, split by verdict (a passing text is only read, a
// failing one read again to explain it). Outputs with no JSON in them are
// left out: neither side sees them.
//
//	go test -run '^$' -bench 'JSONSchemaFastWorkload' -benchmem -benchtime=20000x ./internal/fastschema
func BenchmarkJSONSchemaFastWorkload(b *testing.B) {
	c := workload.Load(b, "json_schema")
	sch := compileV6(b, string(c.Schema))
	fast, ok := Compile(sch)
	if !ok {
		b.Fatal("workload schema not on the fast path")
	}
	p := suitePair{sch, fast}
	sets := map[string][]string{}
	for _, s := range c.SampleSet {
		text, ok := workloadText(s.Output)
		if !ok {
			continue
		}
		sets["all"] = append(sets["all"], text)
		if valid, _ := v6Check(p, text); valid {
			sets["passing"] = append(sets["passing"], text)
		} else {
			sets["failing"] = append(sets["failing"], text)
		}
	}
	for _, verdict := range []string{"all", "passing", "failing"} {
		set := sets[verdict]
		if len(set) == 0 {
			b.Fatalf("no %s text in the workload", verdict)
		}
		for _, side := range []struct {
			name  string
			check checker
		}{{"fast", fastCheck}, {"v6", v6Check}} {
			b.Run(verdict+"/"+side.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					side.check(p, set[i])
					if i++; i == len(set) {
						i = 0
					}
				}
			})
		}
	}
}

// BenchmarkJSONSchemaFastSuiteSchemas checks each fast-path suite
// schema's required cases with the fast path and with jsonschema/v6
// alone (fastCheck and v6Check), schema by schema, and reports
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
//	go test -run '^$' -bench 'JSONSchemaFastSuiteSchemas' -benchtime 5x ./internal/fastschema
func BenchmarkJSONSchemaFastSuiteSchemas(b *testing.B) {
	type group struct {
		p        suitePair
		name     string
		all, bad []string
		t        [2][3]time.Duration // [all, invalid][fast, v6, v6 again], fastest round
		reps     [2]int              // how many times each timing grades the set
	}
	var groups []*group
	bySchema := map[*Schema]*group{}
	for _, c := range fastSuiteCases(b) {
		g := bySchema[c.p.fast]
		if g == nil {
			g = &group{p: c.p, name: c.group}
			bySchema[c.p.fast] = g
			groups = append(groups, g)
		}
		g.all = append(g.all, c.text)
		if !c.valid {
			g.bad = append(g.bad, c.text)
		}
	}
	timeSet := func(check checker, p suitePair, set []string, reps int) time.Duration {
		start := time.Now()
		for range reps {
			for _, text := range set {
				check(p, text)
			}
		}
		return time.Since(start)
	}
	round := 0
	for b.Loop() {
		for _, g := range groups {
			for k, set := range [2][]string{g.all, g.bad} {
				if len(set) == 0 {
					continue
				}
				if g.reps[k] == 0 {
					one := timeSet(v6Check, g.p, set, 10) / 10
					g.reps[k] = int(min(1000, max(1, 50*time.Microsecond/max(one, 1))))
					g.t[k] = [3]time.Duration{math.MaxInt64, math.MaxInt64, math.MaxInt64}
				}
				// Each side once untimed (the caches then hold this
				// schema's data for both), then the three timings, the
				// first taking turns.
				timeSet(fastCheck, g.p, set, 1)
				timeSet(v6Check, g.p, set, 1)
				for j := range 3 {
					side := (round + j) % 3
					check := v6Check
					if side == 0 {
						check = fastCheck
					}
					g.t[k][side] = min(g.t[k][side], timeSet(check, g.p, set, g.reps[k]))
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
