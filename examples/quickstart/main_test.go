package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickstart: the Go program prints, byte for byte, the report
// README.md shows for proctor run on the same suite, and says a case
// failed.
func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	failed, err := run(context.Background(), nil, &out)
	if err != nil || !failed {
		t.Fatalf("failed %v, err %v; want the failing cases reported", failed, err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "```\nsuite quickstart-support")
	if i < 0 {
		t.Fatal("README.md shows no quickstart report")
	}
	want := s[i+4:]
	want = want[:strings.Index(want, "```")]
	if out.String() != want {
		t.Errorf("the Go quickstart's report differs from README's:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestQuickstartOtherSuite(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ok.yaml")
	os.WriteFile(good, []byte("name: ok\ncases:\n  - {id: a, outputs: [hi], checks: [{type: contains, value: hi}]}\n"), 0o644)
	var out bytes.Buffer
	failed, err := run(context.Background(), []string{good}, &out)
	if err != nil || failed || !strings.HasPrefix(out.String(), "suite ok: 1 case\n") {
		t.Errorf("failed %v, err %v:\n%s", failed, err, out.String())
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("cases:\n  - {id: x, outputs: [a], checks: [{type: contains, vaule: a}]}\n"), 0o644)
	if _, err := run(context.Background(), []string{bad}, &out); err == nil || !strings.Contains(err.Error(), `did you mean "value"`) {
		t.Errorf("a bad spec must stop the run naming the option: got %v", err)
	}
}
