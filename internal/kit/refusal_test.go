package kit

import (
	"errors"
	"io"
	"testing"
)

// TestRefusal holds a refusal to its three readings: the package's prefix
// from its Error, "proctor: " from SpecCause, neither from MustFailed, and
// the cause reachable from each.
func TestRefusal(t *testing.T) {
	err := Refuse("agent: ", "tool_sequence: call %d: %w", 2, io.EOF)
	if got, want := err.Error(), "agent: tool_sequence: call 2: EOF"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	spec := SpecCause("agent: ", err)
	if got, want := spec.Error(), "proctor: tool_sequence: call 2: EOF"; got != want {
		t.Errorf("SpecCause = %q, want %q", got, want)
	}
	must := MustFailed("agent.MustX", "$[", err)
	if got, want := must.Error(), `proctor: agent.MustX("$["): tool_sequence: call 2: EOF`; got != want {
		t.Errorf("MustFailed = %q, want %q", got, want)
	}
	for _, e := range []error{err, spec, must} {
		if !errors.Is(e, io.EOF) {
			t.Errorf("%q does not wrap its cause", e)
		}
	}
	other := errors.New("code: line 3: bad")
	if SpecCause("agent: ", other) != other {
		t.Error("SpecCause changed an error of another package")
	}
	if SpecCause("agent: ", nil) != nil {
		t.Error("SpecCause(nil) is not nil")
	}
}
