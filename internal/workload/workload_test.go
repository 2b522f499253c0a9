package workload

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hashes below were taken from the files the original generator wrote
// (seed 20240611, 20,000 and 1,000 samples); Generate must keep writing the
// same bytes or every recorded benchmark figure loses its meaning.
const sha1000 = "ba45f0f45579fa7869387877786b4ff6b13abdde9dde06e295cdcb0fe776dd9f"

func hashOf(t *testing.T, n int) string {
	t.Helper()
	h := sha256.New()
	if err := Generate(h, n, Seed); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestGenerateSameBytes(t *testing.T) {
	if got := hashOf(t, 1000); got != sha1000 {
		t.Errorf("1,000 samples: sha256 %s, want %s", got, sha1000)
	}
}

func TestGenerateShape(t *testing.T) {
	var buf bytes.Buffer
	if err := Generate(&buf, 300, Seed); err != nil {
		t.Fatal(err)
	}
	samples, err := parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 300 {
		t.Fatalf("%d samples, want 300", len(samples))
	}
	kinds := map[string]int{}
	for _, s := range samples {
		kinds[s.Kind]++
		if n := len(s.Output); n < shortest || n > longest {
			t.Errorf("%s: output of %d bytes, outside [%d, %d]", s.ID, n, shortest, longest)
		}
	}
	for _, k := range []string{"prose", "json", "json_fenced", "json_invalid"} {
		if kinds[k] == 0 {
			t.Errorf("no sample of kind %s in %v", k, kinds)
		}
	}
}

// TestEnsureWritesThenRefusesOtherBytes generates the whole workload the
// way the benchmarks get it; ensure checks that its sha256 is SHA256.
func TestEnsureWritesThenRefusesOtherBytes(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("generates the whole workload (a few seconds; much longer under -race); the 1,000-sample hash is checked by TestGenerateSameBytes")
	}
	path := filepath.Join(t.TempDir(), "sub", "w.jsonl")
	data, err := ensure(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(data, []byte{'\n'}); got != Samples {
		t.Fatalf("%d lines, want %d", got, Samples)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ensure(path); err == nil || !strings.Contains(err.Error(), "not the benchmark workload") {
		t.Fatalf("ensure on other bytes: %v, want a refusal", err)
	}
}

func TestLookup(t *testing.T) {
	c, err := lookup("levenshtein")
	if err != nil {
		t.Fatal(err)
	}
	if c.MinSimil != 0.8 || c.Limit != 2000 || len(c.Kinds) != 1 || c.Kinds[0] != "prose" {
		t.Errorf("levenshtein = %+v", c)
	}
	c, err = lookup("json_path_equals")
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "$.metadata.model" || c.Equals != "gpt-4o-mini" || len(c.Schema) == 0 {
		t.Errorf("json_path_equals = %+v", c)
	}
	if _, err := lookup("nope"); err == nil {
		t.Error("lookup of an unknown check succeeded")
	}
}
