package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

// closingGrader counts Close calls, standing in for a grader that holds a
// worker process.
type closingGrader struct{ closed *atomic.Int32 }

func (closingGrader) Name() string { return "closing" }
func (closingGrader) Grade(context.Context, *proctor.Sample) proctor.Grade {
	return proctor.Pass("")
}
func (g closingGrader) Close() error { g.closed.Add(1); return nil }

// TestCloseClosesGraders checks that Suite.Close closes graders holding
// resources, also when they are nested in a combinator, once per compiled
// spec however many cases share it.
func TestCloseClosesGraders(t *testing.T) {
	var closed atomic.Int32
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	src := `name: closing
graders:
  - {type: not, grader: {type: not, grader: {type: closing}}}
cases:
  - {id: a, outputs: [x], checks: [{type: closing}]}
  - {id: b, outputs: [y], checks: [{type: closing}]}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path, suite.Options{Types: map[string]proctor.Builder{
		"closing": func(o *proctor.SpecOptions) (proctor.Grader, error) { return closingGrader{&closed}, nil },
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n := closed.Load(); n != 0 {
		t.Fatalf("closed %d graders before Close", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := closed.Load(); n != 2 {
		t.Errorf("Close closed %d graders, want 2 (one per distinct spec: the nested one and the case check)", n)
	}
}
