package suite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestYAMLAliasBytes: an anchored 1 KB string named through nested lists
// of aliases expands to about 10^6 strings (a gigabyte) in a file of a
// few kilobytes; it is refused once the expansion passes its byte budget,
// allocating a small multiple of it, not the gigabyte.
func TestYAMLAliasBytes(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "s: &s %q\n", strings.Repeat("x", 1000))
	prev := "s"
	for lvl := 1; lvl <= 6; lvl++ {
		name := fmt.Sprintf("l%d", lvl)
		fmt.Fprintf(&b, "%s: &%s [%s]\n", name, name, strings.TrimSuffix(strings.Repeat("*"+prev+", ", 10), ", "))
		prev = name
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := parseYAML(context.Background(), []byte(b.String()))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("alias bomb of %d bytes: err %v, want the expansion budget refused", b.Len(), err)
	}
	t.Logf("alias bomb of %d bytes refused after %d MiB allocated", b.Len(), (after.TotalAlloc-before.TotalAlloc)>>20)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*minExpand {
		t.Errorf("refusing the alias bomb allocated %d MiB, want under %d", got>>20, 4*minExpand>>20)
	}
}

// TestYAMLBudgetScalesWithSize: alias-free documents of the densest shapes
// fit the budget the file's size alone gives (without the fixed minimum),
// so plain size is never refused however large the file; the same file
// with aliases does not.
func TestYAMLBudgetScalesWithSize(t *testing.T) {
	const n = 20000
	shapes := map[string]string{
		"flow numbers":   "[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]",
		"flow keys":      "{" + strings.TrimSuffix(genKeys(n), ",") + "}",
		"empty lists":    "[" + strings.TrimSuffix(strings.Repeat("[],", n), ",") + "]",
		"block nulls":    strings.Repeat("-\n", n),
		"block mappings": genBlock(n),
		"suite":          genSuite(n / 10),
	}
	for name, doc := range shapes {
		if _, err := parseYAMLBudget(context.Background(), []byte(doc), expandPerByte*int64(len(doc))); err != nil {
			t.Errorf("%s (%d bytes, alias-free): %v", name, len(doc), err)
		}
	}
	aliased := "a: &a " + strings.Repeat("x", 1000) + "\nb: [" + strings.TrimSuffix(strings.Repeat("*a,", 1000), ",") + "]\n"
	if _, err := parseYAMLBudget(context.Background(), []byte(aliased), expandPerByte*int64(len(aliased))); err == nil {
		t.Errorf("a file of %d bytes naming a 1000-byte string 1000 times passed the budget of its size", len(aliased))
	}
}

func genKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%x,", i)
	}
	return b.String()
}

func genBlock(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%x:\n", i)
	}
	return b.String()
}

func genSuite(cases int) string {
	var b strings.Builder
	b.WriteString("graders:\n  - {type: contains, value: ok}\ncases:\n")
	for i := range cases {
		fmt.Fprintf(&b, "  - id: c%d\n    input: question %d\n    expected: ok\n    outputs: [ok]\n", i, i)
	}
	return b.String()
}

// TestLoadContextStops: a cancelled context stops loading a big suite,
// YAML or JSONL, with an error wrapping the context's.
func TestLoadContextStops(t *testing.T) {
	dir := t.TempDir()
	yml := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(yml, []byte(genSuite(5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&lines, `{"id":"c%d","input":"q","expected":"ok","outputs":["ok"],"checks":[{"type":"contains","value":"ok"}]}`+"\n", i)
	}
	jl := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(jl, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range []string{yml, jl} {
		s, err := LoadContext(ctx, p, Options{})
		if !errors.Is(err, context.Canceled) {
			if s != nil {
				s.Close()
			}
			t.Errorf("%s with a cancelled context: %v, want context.Canceled", filepath.Base(p), err)
		}
		s, err = LoadContext(context.Background(), p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
		s.Close()
	}
}
