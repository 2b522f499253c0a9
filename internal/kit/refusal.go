package kit

import (
	"fmt"
	"strings"
)

// Refuse returns the error a family package's constructor refuses its
// arguments with: fmt.Errorf(prefix+format, a...), prefix being the
// package's name and ": " ("agent: tool_sequence: empty tool name"), so %w
// wraps a cause.
func Refuse(prefix, format string, a ...any) error {
	return fmt.Errorf(prefix+format, a...)
}

// SpecCause returns err as a spec's error shows a family constructor's
// refusal: with the package's prefix read as "proctor: ", as spec errors
// have always read ("option \"names\": invalid: proctor: tool_sequence:
// empty tool name"). errors.Is and errors.As see err itself. An error
// that does not start with prefix is returned as it is.
func SpecCause(prefix string, err error) error {
	if err == nil || !strings.HasPrefix(err.Error(), prefix) {
		return err
	}
	return &specCause{prefix: prefix, err: err}
}

// specCause is SpecCause's error.
type specCause struct {
	prefix string
	err    error
}

func (e *specCause) Error() string {
	return "proctor: " + strings.TrimPrefix(e.err.Error(), e.prefix)
}

func (e *specCause) Unwrap() error { return e.err }
