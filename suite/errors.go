package suite

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem in a suite file: where it is and what was expected.
// Err is the cause, if any (a *[proctor.SpecError] for a spec the compiler
// refused, an *os.PathError for a file that could not be read).
type Error struct {
	// File is the suite file's path.
	File string
	// Line is the 1-based line of the value at fault; 0 when unknown.
	Line int
	// Field is the path to the value, such as cases[2].checks[0].
	Field string
	// Msg says what was expected.
	Msg string
	// Err is the cause.
	Err error
}

// Error reads "FILE:LINE: FIELD: MSG: CAUSE".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func (s *Suite) errAt(n *node, field, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.line
	}
	return &Error{File: s.Path, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}
