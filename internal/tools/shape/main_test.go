package main

import (
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWithout: the -without globs leave the files they match out of the
// root's count and out of the package whose index is counted, and a bad
// glob is an error rather than a filter that matches nothing.
func TestWithout(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go":      "package p\n\n// A is a.\ntype A int\n",
		"b.go":      "package p\n\n// B is b.\ntype B int\n\n// Name is b's.\nfunc (B) Name() string { return \"\" }\n",
		"b_test.go": "package p\n",
		"README.md": "p\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	skip, err := skipper("b*.go")
	if err != nil {
		t.Fatal(err)
	}
	c, err := rootFiles(dir, skip)
	if err != nil {
		t.Fatal(err)
	}
	if c != (fileCount{all: 2, code: 1, test: 0}) {
		t.Errorf("rootFiles without b*.go = %+v, want 2 files, 1 code, 0 test", c)
	}
	none, _ := skipper("")
	if c, _ := rootFiles(dir, none); c != (fileCount{all: 4, code: 2, test: 1}) {
		t.Errorf("rootFiles = %+v, want 4 files, 2 code, 1 test", c)
	}
	fset := token.NewFileSet()
	pkg, err := parsePackage(fset, dir, skip)
	if err != nil {
		t.Fatal(err)
	}
	if got := indexEntries(fset, pkg); !slices.Equal(got, []string{"type A"}) {
		t.Errorf("index without b*.go = %q, want only type A", got)
	}
	if _, err := skipper("a.go,["); err == nil {
		t.Error("skipper accepted the glob \"[\"")
	}
}
