package builtin_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
)

// TestSpecTypesBuild holds every documented spec type to one entry that
// builds it: each entry of the families' list and of the full Compiler's
// carries its builder and a name no other entry has, and no family type
// takes the name of one of the root package's own (WithSpecTypes would
// replace it silently).
func TestSpecTypesBuild(t *testing.T) {
	root := map[string]bool{}
	for _, ty := range proctor.NewCompiler().SpecTypes() {
		root[ty.Name] = true
	}
	lists := []struct {
		name  string
		types []proctor.SpecType
	}{
		{"builtin.SpecTypes()", builtin.SpecTypes()},
		{"NewCompiler(builtin.Types()).SpecTypes()", proctor.NewCompiler(builtin.Types()).SpecTypes()},
	}
	for _, l := range lists {
		if len(l.types) == 0 {
			t.Errorf("%s is empty", l.name)
		}
		seen := map[string]int{}
		for i, ty := range l.types {
			switch {
			case ty.Name == "":
				t.Errorf("%s[%d] has no name", l.name, i)
			case ty.Build == nil:
				t.Errorf("%s: %s has no Build", l.name, ty.Name)
			}
			if j, dup := seen[ty.Name]; dup {
				t.Errorf("%s: %s is entry %d and entry %d", l.name, ty.Name, j, i)
			}
			seen[ty.Name] = i
		}
	}
	if n, want := len(lists[1].types), len(root)+len(lists[0].types); n != want {
		t.Errorf("the full Compiler lists %d types, want the root's and the families' %d", n, want)
	}
	for _, ty := range lists[0].types {
		if root[ty.Name] {
			t.Errorf("family type %s has the name of a root type", ty.Name)
		}
	}
}

// TestSpecTypesInReferenceOrder checks that the full Compiler lists its
// types (and so `proctor types` prints them) in the order docs/spec.md
// shows them: by the reference's families, the root package's types first
// within a family.
func TestSpecTypesInReferenceOrder(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "spec.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(string(doc), "\n") {
		if name, ok := strings.CutPrefix(line, "### "); ok {
			want = append(want, name)
		}
	}
	var got []string
	for _, ty := range proctor.NewCompiler(builtin.Types()).SpecTypes() {
		got = append(got, ty.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("SpecTypes lists\n%v\ndocs/spec.md shows\n%v", got, want)
	}
}
