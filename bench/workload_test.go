package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ohler55/ojg/jp"
	"github.com/ohler55/ojg/oj"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/workload"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The workload benchmarks grade the sample sets of the benchmark workload
// (internal/workload, generated on first use) one sample per iteration,
// cycling through the set, and report ns/grade beside the bare Go primitive
// doing the same check. pass-rate
// shows whether both sides of a row reach the same verdicts (they differ
// where proctor removes fences and the bare primitive does not).
//
//	go test -run '^$' -bench 'Workload' -benchmem -benchtime=2s ./bench

// benchSamples grades set[i%len(set)] per iteration with grade.
func benchSamples(b *testing.B, set []workload.Sample, grade func(s *workload.Sample) bool) {
	b.Helper()
	if len(set) == 0 {
		b.Fatal("empty sample set: the check selects no sample of the workload")
	}
	b.ReportAllocs()
	i, passed := 0, 0
	for b.Loop() {
		if grade(&set[i]) {
			passed++
		}
		if i++; i == len(set) {
			i = 0
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/grade")
	b.ReportMetric(float64(passed)/float64(b.N), "pass-rate")
}

// benchGrader runs g over the set, one Sample per iteration.
func benchGrader(b *testing.B, set []workload.Sample, g proctor.Grader) {
	b.Helper()
	ctx := context.Background()
	samples := make([]proctor.Sample, len(set))
	for i, s := range set {
		samples[i] = proctor.Sample{Output: s.Output, Expected: proctor.Ptr(s.Expected)}
	}
	k := 0
	benchSamples(b, set, func(*workload.Sample) bool {
		gr := g.Grade(ctx, &samples[k])
		if k++; k == len(samples) {
			k = 0
		}
		return gr.Status == proctor.StatusPassed
	})
}

func BenchmarkWorkloadContains(b *testing.B) {
	c := workload.Load(b, "contains")
	b.Run("proctor", func(b *testing.B) {
		g, err := proctor.NewContains([]string{c.Value}, proctor.ContainsOptions{})
		if err != nil {
			b.Fatal(err)
		}
		benchGrader(b, c.SampleSet, g)
	})
	b.Run("strings.Contains", func(b *testing.B) {
		benchSamples(b, c.SampleSet, func(s *workload.Sample) bool { return strings.Contains(s.Output, c.Value) })
	})
}

func BenchmarkWorkloadExactMatch(b *testing.B) {
	c := workload.Load(b, "exact_match")
	b.Run("proctor", func(b *testing.B) {
		benchGrader(b, c.SampleSet, proctor.NewExactMatch(proctor.ExactMatchOptions{CaseSensitive: true}))
	})
	b.Run("==", func(b *testing.B) {
		benchSamples(b, c.SampleSet, func(s *workload.Sample) bool { return s.Output == s.Expected })
	})
}

func BenchmarkWorkloadRegexFullmatch(b *testing.B) {
	c := workload.Load(b, "regex_fullmatch")
	b.Run("proctor", func(b *testing.B) {
		benchGrader(b, c.SampleSet, proctor.MustRegex(c.Pattern, proctor.RegexOptions{}))
	})
	b.Run("regexp", func(b *testing.B) {
		re := regexp.MustCompile(`^(?:` + c.Pattern + `)$`)
		benchSamples(b, c.SampleSet, func(s *workload.Sample) bool { return re.MatchString(s.Output) })
	})
}

func BenchmarkWorkloadIsJSON(b *testing.B) {
	c := workload.Load(b, "is_json")
	b.Run("proctor", func(b *testing.B) {
		benchGrader(b, c.SampleSet, proctor.NewJSONValid(proctor.JSONValidOptions{}))
	})
	b.Run("json.Valid", func(b *testing.B) {
		benchSamples(b, c.SampleSet, func(s *workload.Sample) bool { return json.Valid([]byte(s.Output)) })
	})
}

// v6Floor decodes text with jsonschema/v6's own decoder (encoding/json,
// UseNumber) and validates it: the bare Go primitive.
func v6Floor(sch *jsonschema.Schema, text string) bool {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	return err == nil && sch.Validate(v) == nil
}

func compileWorkloadSchema(b *testing.B, raw json.RawMessage) *jsonschema.Schema {
	b.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	if err := comp.AddResource("file:///workload.json", doc); err != nil {
		b.Fatal(err)
	}
	return comp.MustCompile("file:///workload.json")
}

// benchSchemaWorkload runs the json_schema grader on a check's samples
// beside jsonschema/v6 with its own decoder, on the whole output or on the
// JSON extracted from it.
// benchSchemaWorkload runs one of the workload's two json_schema checks.
// The whole-output check ("the whole output parses as JSON") is
// json_schema with strict; proctor-extract runs the default grader, which
// also looks into fences and prose, on the same samples.
func benchSchemaWorkload(b *testing.B, check string, extract bool) {
	c := workload.Load(b, check)
	b.Run("proctor", func(b *testing.B) {
		benchGrader(b, c.SampleSet, proctor.MustJSONSchema(c.Schema, proctor.JSONSchemaOptions{Strict: !extract}))
	})
	if !extract {
		b.Run("proctor-extract", func(b *testing.B) {
			benchGrader(b, c.SampleSet, proctor.MustJSONSchema(c.Schema, proctor.JSONSchemaOptions{}))
		})
	}
	b.Run("jsonschema-v6", func(b *testing.B) {
		sch := compileWorkloadSchema(b, c.Schema)
		benchSamples(b, c.SampleSet, func(s *workload.Sample) bool {
			if extract {
				return v6Floor(sch, proctor.ExtractJSON(s.Output))
			}
			return v6Floor(sch, s.Output)
		})
	})
}

func BenchmarkWorkloadJSONSchema(b *testing.B) { benchSchemaWorkload(b, "json_schema", false) }

func BenchmarkWorkloadJSONSchemaExtract(b *testing.B) {
	benchSchemaWorkload(b, "json_schema_extract", true)
}

func BenchmarkWorkloadJSONPathEquals(b *testing.B) {
	c := workload.Load(b, "json_path_equals")
	b.Run("proctor", func(b *testing.B) {
		g, err := proctor.NewJSONPathEquals(c.Path, c.Equals, proctor.JSONPathOptions{})
		if err != nil {
			b.Fatal(err)
		}
		benchGrader(b, c.SampleSet, g)
	})
	b.Run("ojg", func(b *testing.B) {
		x := jp.MustParseString(c.Path)
		benchSamples(b, c.SampleSet, func(s *workload.Sample) bool {
			v, err := oj.ParseString(s.Output)
			if err != nil {
				return false
			}
			got := x.Get(v)
			return len(got) == 1 && got[0] == c.Equals
		})
	})
}

// BenchmarkWorkloadJSONPathEqualsGeneral grades the json_path_equals
// workload with a query of the same meaning that is not singular (a
// union), so every grade parses the whole output and runs the counted
// evaluator instead of the singular fast path.
func BenchmarkWorkloadJSONPathEqualsGeneral(b *testing.B) {
	c := workload.Load(b, "json_path_equals")
	if c.Path != "$.metadata.model" {
		b.Skipf("workload path is %s", c.Path)
	}
	g, err := proctor.NewJSONPathEquals("$.metadata['model','absent']", c.Equals, proctor.JSONPathOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchGrader(b, c.SampleSet, g)
}
