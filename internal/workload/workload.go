// Package workload loads the shared benchmark workload (../shared/bench in
// the development tree) for the benchmarks that compare proctor's graders
// with the alternatives' published figures.
//
// The workload file is generated, not committed:
//
//	(cd ../shared/bench/workload && go run . -out /tmp/proctor-workload.jsonl)
//
// Benchmarks find it through $PROCTOR_WORKLOAD (default
// /tmp/proctor-workload.jsonl) and skip when it is absent.
package workload

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Sample is one line of the workload.
type Sample struct {
	ID       string `json:"id"`
	Output   string `json:"output"`
	Expected string `json:"expected"`
	Kind     string `json:"kind"`
}

// Check is one entry of graders.json's "checks" with the sample set it runs
// on. Options a check does not have are left zero.
type Check struct {
	Raw       map[string]json.RawMessage // every option as raw JSON
	Kinds     []string                   // sample kinds kept; nil keeps all
	Limit     int                        // at most this many samples; 0: no limit
	Pattern   string                     // regex_fullmatch
	Value     string                     // contains
	Path      string                     // json_path_equals
	Equals    any                        // json_path_equals
	MinScore  float64                    // rouge and bleu thresholds
	MinSimil  float64                    // levenshtein threshold
	Schema    json.RawMessage            // graders.json's shared schema
	SampleSet []Sample                   // the samples the check runs on, in file order
}

// Path returns the workload file's path.
func Path() string {
	if p := os.Getenv("PROCTOR_WORKLOAD"); p != "" {
		return p
	}
	return filepath.Join(os.TempDir(), "proctor-workload.jsonl")
}

// sharedDir returns ../shared/bench relative to the module root, found from
// this source file's location.
func sharedDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "bench")
}

// Load reads the workload and graders.json and returns the named check with
// its sample set, or skips tb when either file is missing.
func Load(tb testing.TB, check string) *Check {
	tb.Helper()
	samples, err := readSamples(Path())
	if err != nil {
		tb.Skipf("shared workload not available (%v); generate it: (cd ../shared/bench/workload && go run . -out %s)", err, Path())
	}
	gb, err := os.ReadFile(filepath.Join(sharedDir(), "graders.json"))
	if err != nil {
		tb.Skipf("graders.json not available: %v", err)
	}
	var g struct {
		Schema json.RawMessage                       `json:"schema"`
		Checks map[string]map[string]json.RawMessage `json:"checks"`
	}
	if err := json.Unmarshal(gb, &g); err != nil {
		tb.Fatalf("graders.json: %v", err)
	}
	raw, ok := g.Checks[check]
	if !ok {
		tb.Fatalf("graders.json has no check %q", check)
	}
	c := &Check{Raw: raw, Schema: g.Schema}
	var set struct {
		Kinds []string `json:"kinds"`
		Limit *int     `json:"limit"`
	}
	_ = json.Unmarshal(raw["sample_set"], &set)
	c.Kinds = set.Kinds
	if set.Limit != nil {
		c.Limit = *set.Limit
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(raw[k], &s)
		return s
	}
	c.Pattern, c.Value, c.Path = str("pattern"), str("value"), str("path")
	if r, ok := raw["equals"]; ok {
		_ = json.Unmarshal(r, &c.Equals)
	}
	if r, ok := raw["min_score"]; ok {
		_ = json.Unmarshal(r, &c.MinScore)
	}
	if r, ok := raw["min_similarity"]; ok {
		_ = json.Unmarshal(r, &c.MinSimil)
	}
	for _, s := range samples {
		if len(c.Kinds) > 0 && !contains(c.Kinds, s.Kind) {
			continue
		}
		c.SampleSet = append(c.SampleSet, s)
		if c.Limit > 0 && len(c.SampleSet) == c.Limit {
			break
		}
	}
	return c
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func readSamples(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Sample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var s Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, sc.Err()
}
