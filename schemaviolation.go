package proctor

import (
	"fmt"
	"strings"

	"github.com/proctorhq/proctor/internal/fastschema"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// firstLeaf returns the first leaf of a validation error tree and the
// number of its leaves.
func firstLeaf(ve *jsonschema.ValidationError) (*jsonschema.ValidationError, int) {
	leaves := 0
	var first *jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if first == nil {
				first = e
			}
			leaves++
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if first == nil {
		first = ve
	}
	return first, leaves
}

// violation describes a validation error by its first leaf and the count
// of leaves, e.g. "schema violation at /metadata/version: got string,
// want integer (and 2 more)".
func violation(first *jsonschema.ValidationError, leaves int) string {
	// The leaf's message without the validator's "at '/a/b': " prefix; the
	// pointer is written plainly below.
	msg := fastschema.Message(first.ErrorKind)
	r := fmt.Sprintf("schema violation at %s: %s", jsonPointer(first.InstanceLocation), kit.ClipRunes(msg, 160))
	if leaves > 1 {
		r += fmt.Sprintf(" (and %d more)", leaves-1)
	}
	return r
}

// jsonPointer writes an instance location as an RFC 6901 pointer; the root
// is "/" here, for readability.
func jsonPointer(loc []string) string {
	if len(loc) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}
