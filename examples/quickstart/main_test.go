package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden")

func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), nil, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"flaky", "not graded", "pass rate: 60.0% (6 of 10 cases", "6 passed, 4 failed, 1 flaky, 1 not graded", "skipped mentions-order"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	path := filepath.Join("testdata", "report.golden")
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("report differs from %s:\n%s", path, got)
	}
}

func TestQuickstartSuiteFromFile(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{filepath.Join("testdata", "suite.json")}, &out)
	if err != nil || !strings.Contains(out.String(), "capital-of-france         flaky") {
		t.Errorf("got %v:\n%s", err, out.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"cases":[{"id":"x","outputs":["a"],"checks":[{"type":"contains","valu":"a"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{bad}, &out); err == nil || !strings.Contains(err.Error(), "valu") {
		t.Errorf("a bad spec must stop the run naming the option: got %v", err)
	}
}
