package fastschema

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Message returns the validator's message for a leaf error kind, as its
// own Error method writes it after the location. The kinds the fast path
// reports most are written here, word for word as the validator writes
// them but without its message catalog, which costs more than the rest of
// a failing grade; the others (numbers among them, which the catalog
// writes with digit grouping) go through the catalog.
func Message(k jsonschema.ErrorKind) string {
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
// Error method does. A Printer is read-only, so one serves every message.
var englishPrinter = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })
