// Package workload provides the benchmark workload: 20,000 generated
// samples (prose answers and JSON objects, see [Generate]) and the checks
// the workload benchmarks run on them (checks.json), so that every figure
// in BENCHMARKS.md can be measured again from a clone of the repository.
//
// The workload file is generated on first use, written to the user's cache
// directory (or to $PROCTOR_WORKLOAD when set) and checked against
// [SHA256] when read: a benchmark never measures other data, and never
// skips silently. [Load] reads and parses it once per process. To write the file yourself:
//
//	go run ./internal/workload/gen -out /tmp/proctor-workload.jsonl
package workload

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// Sample is one line of the workload.
type Sample struct {
	ID       string `json:"id"`
	Output   string `json:"output"`
	Expected string `json:"expected"`
	Kind     string `json:"kind"`
}

// Check is one entry of checks.json's "checks" with the sample set it runs
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
	Schema    json.RawMessage            // the JSON Schema the schema checks use
	SampleSet []Sample                   // the samples the check runs on, in file order
}

//go:embed checks.json
var checksJSON []byte

// Path returns where the workload file is kept: $PROCTOR_WORKLOAD when set,
// else a file in the user's cache directory named after its hash.
func Path() string {
	if p := os.Getenv("PROCTOR_WORKLOAD"); p != "" {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "proctor", "workload-"+SHA256[:12]+".jsonl")
}

// Data returns the workload file's bytes, generating the file first when it
// does not exist. It fails tb when the file cannot be written or read, or
// when its bytes are not the workload's (hash other than [SHA256]).
func Data(tb testing.TB) []byte {
	tb.Helper()
	data, err := ensure(Path())
	if err != nil {
		tb.Fatalf("benchmark workload: %v", err)
	}
	return data
}

// ensure reads the workload at path, writing it there first if absent.
func ensure(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		data, err = write(path)
	}
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != SHA256 {
		return nil, fmt.Errorf("%s is not the benchmark workload (sha256 %x, want %s); delete it and it is generated again", path, sum, SHA256)
	}
	return data, nil
}

// write generates the workload into path through a temporary file, so that
// a reader never sees half a file.
func write(path string) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(50 << 20)
	if err := Generate(&buf, Samples, Seed); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".workload-*")
	if err != nil {
		return nil, err
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return buf.Bytes(), nil
}

// Load returns the named check of checks.json with its sample set, reading
// (and if need be generating) the workload. It fails tb on any error.
func Load(tb testing.TB, check string) *Check {
	tb.Helper()
	samples, err := allSamples()
	if err != nil {
		tb.Fatalf("benchmark workload: %v", err)
	}
	c, err := lookup(check)
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range samples {
		if len(c.Kinds) > 0 && !slices.Contains(c.Kinds, s.Kind) {
			continue
		}
		c.SampleSet = append(c.SampleSet, s)
		if c.Limit > 0 && len(c.SampleSet) == c.Limit {
			break
		}
	}
	return c
}

// allSamples reads, checks and parses the workload once: every check's
// sample set is a selection from the same 20,000 samples, and a test or
// benchmark run loads several.
var allSamples = sync.OnceValues(func() ([]Sample, error) {
	data, err := ensure(Path())
	if err != nil {
		return nil, err
	}
	return parse(data)
})

// lookup returns the named check of checks.json, without samples.
func lookup(check string) (*Check, error) {
	var file struct {
		Schema json.RawMessage                       `json:"schema"`
		Checks map[string]map[string]json.RawMessage `json:"checks"`
	}
	if err := json.Unmarshal(checksJSON, &file); err != nil {
		return nil, fmt.Errorf("checks.json: %w", err)
	}
	raw, ok := file.Checks[check]
	if !ok {
		return nil, fmt.Errorf("checks.json has no check %q", check)
	}
	c := &Check{Raw: raw, Schema: file.Schema}
	var set struct {
		Kinds []string `json:"kinds"`
		Limit *int     `json:"limit"`
	}
	opts := []struct {
		key string
		dst any
	}{
		{"sample_set", &set}, {"pattern", &c.Pattern}, {"value", &c.Value}, {"path", &c.Path},
		{"equals", &c.Equals}, {"min_score", &c.MinScore}, {"min_similarity", &c.MinSimil},
	}
	for _, o := range opts {
		if r, ok := raw[o.key]; ok {
			if err := json.Unmarshal(r, o.dst); err != nil {
				return nil, fmt.Errorf("checks.json: %s.%s: %w", check, o.key, err)
			}
		}
	}
	c.Kinds = set.Kinds
	if set.Limit != nil {
		c.Limit = *set.Limit
	}
	return c, nil
}

func parse(data []byte) ([]Sample, error) {
	out := make([]Sample, 0, Samples)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		var s Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}
