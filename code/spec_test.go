package code

import (
	"context"
	"errors"
	"testing"

	"github.com/proctorhq/proctor"
)

// TestSpecs compiles the family's types through a Compiler given Types(),
// as proctor grade does, and checks that bad options are spec errors that
// name the option.
func TestSpecs(t *testing.T) {
	c := proctor.NewCompiler(Types())
	ch, err := c.Compile([]byte(`{"type":"go_compiles"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := ch.Grade(context.Background(), out("func main() {}")); got.Status != proctor.StatusPassed {
		t.Errorf("go_compiles on func main() {}: %v %q, want passed", got.Status, got.Reason)
	}
	for _, tt := range []struct{ spec, option string }{
		{`{"type":"python_compiles","timeout_ms":0}`, "timeout_ms"},
		{`{"type":"go_compiles","strict":true}`, "strict"},
	} {
		_, err := c.Compile([]byte(tt.spec))
		var se *proctor.SpecError
		if !errors.As(err, &se) || se.Option != tt.option {
			t.Errorf("%s: got %v, want a *SpecError naming %q", tt.spec, err, tt.option)
		}
	}
}
