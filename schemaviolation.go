package proctor

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/kit"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
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
	msg := leafMessage(first.ErrorKind)
	r := fmt.Sprintf("schema violation at %s: %s", jsonPointer(first.InstanceLocation), kit.ClipRunes(msg, 160))
	if leaves > 1 {
		r += fmt.Sprintf(" (and %d more)", leaves-1)
	}
	return r
}

// leafMessage is the validator's message for a leaf error kind. The kinds
// the fast path reports most are written here, word for word as the
// validator writes them but without its message catalog, which costs more
// than the rest of a failing grade; the others (numbers among them, which
// the catalog writes with digit grouping) go through the catalog.
func leafMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Required:
		if len(k.Missing) == 1 {
			return "missing property " + schemaQuote(k.Missing[0])
		}
		return "missing properties " + joinSchemaQuoted(k.Missing)
	case *kind.Type:
		return "got " + k.Got + ", want " + strings.Join(k.Want, " or ")
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, v := range k.Want {
			d, ok := displayPrimitive(v)
			if !ok {
				return "'enum' failed"
			}
			want[i] = d
		}
		if len(want) == 1 {
			return "value must be " + want[0]
		}
		return "value must be one of " + strings.Join(want, ", ")
	case *kind.Const:
		d, ok := displayPrimitive(k.Want)
		if !ok {
			return "'const' failed"
		}
		return "value must be " + d
	case *kind.Pattern:
		return schemaQuote(k.Got) + " does not match pattern " + schemaQuote(k.Want)
	case *kind.AdditionalProperties:
		return "additional properties " + joinSchemaQuoted(k.Properties) + " not allowed"
	case *kind.FalseSchema:
		return "false schema"
	}
	return k.LocalizedString(englishPrinter())
}

// schemaQuote quotes s as the validator's messages do: Go's double-quoted
// form with single quotes around it.
func schemaQuote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

func joinSchemaQuoted(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(schemaQuote(n))
	}
	return b.String()
}

// displayPrimitive writes a JSON scalar as the validator's messages do;
// false for an array or object.
func displayPrimitive(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return schemaQuote(v), true
	case []any, map[string]any:
		return "", false
	}
	return fmt.Sprint(v), true
}

// englishPrinter formats the validator's messages, in English as its own
// Error method does. A Printer is read-only, so one serves every grade.
var englishPrinter = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

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
