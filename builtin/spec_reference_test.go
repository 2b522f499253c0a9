package builtin_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/internal/specdoc"
	"github.com/proctorhq/proctor/internal/specref"
)

var updateDocs = flag.Bool("update-docs", false, "write docs/spec.md from the Compiler's spec types")

// TestSpecReference keeps the spec reference (each type's documentation,
// rendered to docs/spec.md and printed by proctor types) equal to what the
// full Compiler accepts: the same types, for each the options its builder
// reads (Compiler.Options), examples that compile, and docs/spec.md as
// rendered.
func TestSpecReference(t *testing.T) {
	c := proctor.NewCompiler(builtin.Types())
	types := c.Types()
	ref := specref.Types(c)
	documented := map[string]bool{}
	for _, ty := range ref {
		if documented[ty.Name] {
			t.Errorf("%s is documented twice", ty.Name)
		}
		documented[ty.Name] = true
		if !slices.Contains(types, ty.Name) {
			t.Errorf("%s is documented but the Compiler has no such type", ty.Name)
		}
	}
	for _, typ := range types {
		if !documented[typ] {
			t.Errorf("spec type %s has no entry in internal/specdoc (docs/spec.md)", typ)
		}
	}
	families := map[string]bool{}
	for _, f := range specdoc.Families {
		families[f.Key] = true
	}
	for _, ty := range ref {
		t.Run(ty.Name, func(t *testing.T) {
			if !families[ty.Family] {
				t.Errorf("family %q is not in specdoc.Families", ty.Family)
			}
			if ty.Summary == "" || ty.Example == "" {
				t.Error("no summary or no example")
			}
			reads, ok := c.Options(ty.Name)
			if !ok {
				return
			}
			var docs []string
			for _, o := range ty.Options {
				if o.Name == "" || o.Type == "" || o.Meaning == "" {
					t.Errorf("option %q: type, meaning and name are all needed", o.Name)
				}
				docs = append(docs, o.Name)
			}
			for _, o := range reads {
				if !slices.Contains(docs, o) {
					t.Errorf("option %s is read by the builder but not documented", o)
				}
			}
			for _, o := range docs {
				if !slices.Contains(reads, o) {
					t.Errorf("option %s is documented but the builder does not read it", o)
				}
			}
			ch, err := c.Compile([]byte(ty.Example))
			if err != nil {
				t.Fatalf("example %s does not compile: %v", ty.Example, err)
			}
			if got := ch.Name(); got != ty.Name && !(ty.Family == "tools" && got != "") {
				t.Errorf("example compiles to a check named %q", got)
			}
			_ = proctor.CloseChecks([]proctor.Check{ch})
		})
	}
	got := specdoc.Markdown(ref)
	path := filepath.Join("..", "docs", "spec.md")
	if *updateDocs {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the spec types render; run go test -run TestSpecReference -update-docs ./builtin and commit it", path)
	}
}

// TestCompilerOptions checks the option enumeration itself on a built-in
// type and a custom one, and that an unknown type is reported.
func TestCompilerOptions(t *testing.T) {
	c := proctor.NewCompiler()
	got, ok := c.Options("regex")
	if want := []string{"case_sensitive", "match", "pattern"}; !ok || !slices.Equal(got, want) {
		t.Errorf("Options(regex) = %v, %v; want %v", got, ok, want)
	}
	c.Register("custom", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		o.RequireString("b")
		o.Int("a", 0)
		if err := o.Err(); err != nil {
			return nil, err
		}
		panic("dry run reached the build")
	})
	got, ok = c.Options("custom")
	if want := []string{"a", "b"}; !ok || !slices.Equal(got, want) {
		t.Errorf("Options(custom) = %v, %v; want %v", got, ok, want)
	}
	if _, ok := c.Options("no_such_type"); ok {
		t.Error("Options of an unknown type reports it known")
	}
	// The dry run leaves no trace: the real compile still fails closed.
	if _, err := c.Compile([]byte(`{"type": "regex"}`)); err == nil {
		t.Error("regex without pattern compiled")
	}
}
