// Package yamlspec converts YAML documents to JSON, so that proctor's spec
// compiler and suite loader, which read JSON, take YAML too without the
// root package importing a YAML library.
//
// The conversion is strict, in the spirit of proctor's fail-closed spec
// loading: one document only; mapping keys must be strings and appear
// once; merge keys (<<), custom tags, .inf and .nan are refused; aliases
// are expanded, but within a budget of nodes, so an alias bomb is an error
// rather than a hang. Every error is an [*Error] carrying the line and
// column it is about.
//
//	b, err := yamlspec.ToJSON(src)
//	if err != nil { ... }
//	check, err := proctor.NewCompiler().Compile(b)
//
// [ToJSONLines] also returns the line each JSON value came from, keyed by
// its JSON Pointer (RFC 6901), so that an error found later in the JSON can
// point at the YAML line.
package yamlspec

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ohler55/ojg"
	"go.yaml.in/yaml/v3"
)

// Limits of a conversion.
const (
	// MaxBytes is the largest YAML input converted.
	MaxBytes = 32 << 20
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth = 256
	// MaxNodes bounds the nodes written, counting each alias expansion in
	// full, for inputs of up to MaxNodes bytes; a larger input may write
	// as many nodes as it has bytes, so that no alias-free document is
	// refused for its size (a node takes at least one byte to write).
	MaxNodes = 1 << 20
	// MaxOutputBytes bounds the JSON written, which aliases can make larger
	// than the input, plus (for [ToJSONLines]) the JSON Pointers of the
	// lines kept.
	MaxOutputBytes = 2 * MaxBytes
)

// Error is a YAML document that could not be converted: Line and Column
// (1-based; 0 when unknown) say where, Msg what was wrong.
type Error struct {
	// Line is the 1-based line, 0 when unknown.
	Line int
	// Column is the 1-based column, 0 when unknown.
	Column int
	// Msg says what was wrong.
	Msg string
	// Err is the YAML parser's error, when it was the parser that failed.
	Err error
}

// Error reads "yaml: line L, column C: MSG".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("yaml")
	if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ", column %d", e.Column)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the parser's error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Lines maps the JSON Pointer of each value in a converted document ("" for
// the root, "/cases/0/checks/1/type" for a member deep inside) to the
// 1-based YAML line it came from. For a mapping member it is the line of
// its key.
type Lines map[string]int

// Line returns the line of the value at pointer, or of its nearest
// ancestor that has one; 0 when there is none.
func (l Lines) Line(pointer string) int {
	for {
		if n, ok := l[pointer]; ok {
			return n
		}
		i := strings.LastIndexByte(pointer, '/')
		if i < 0 {
			return 0
		}
		pointer = pointer[:i]
	}
}

// ToJSON converts one YAML document to compact JSON. Mapping keys keep
// their order. Plain scalars take YAML 1.2 core types (null, booleans,
// integers in decimal, octal or hex, floats); timestamps and binary
// values are kept as the strings written.
func ToJSON(src []byte) ([]byte, error) {
	b, _, err := convert(src, false)
	return b, err
}

// ToJSONLines is [ToJSON] that also returns the line of every value.
func ToJSONLines(src []byte) ([]byte, Lines, error) {
	return convert(src, true)
}

func convert(src []byte, withLines bool) ([]byte, Lines, error) {
	if len(src) > MaxBytes {
		return nil, nil, &Error{Msg: fmt.Sprintf("document is %d bytes, more than the %d allowed", len(src), MaxBytes)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, nil, &Error{Msg: "empty document"}
		}
		return nil, nil, parseError(err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		if err != nil {
			return nil, nil, parseError(err)
		}
		return nil, nil, &Error{Line: next.Line, Column: next.Column, Msg: "want one YAML document, found another"}
	}
	if doc.Kind == 0 {
		return nil, nil, &Error{Msg: "empty document"}
	}
	c := &converter{out: make([]byte, 0, len(src)), maxNodes: max(MaxNodes, len(src))}
	if withLines {
		c.lines = Lines{}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) != 1 {
			return nil, nil, &Error{Line: root.Line, Column: root.Column, Msg: "want one YAML document"}
		}
		root = root.Content[0]
	}
	if err := c.node(root, "", 0); err != nil {
		return nil, nil, err
	}
	return c.out, c.lines, nil
}

// parseError turns the parser's "yaml: line N: msg" into an *Error.
func parseError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{Msg: msg, Err: err}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, convErr := strconv.Atoi(rest[:i]); convErr == nil {
				e.Line, e.Msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return e
}

type converter struct {
	out   []byte
	lines Lines
	nodes int
	// maxNodes is the node budget; ptrBytes the pointers kept in lines.
	maxNodes int
	ptrBytes int
	// expanding holds the aliases being expanded, to refuse a cycle.
	expanding []*yaml.Node
}

func errAt(n *yaml.Node, format string, args ...any) error {
	return &Error{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

func (c *converter) node(n *yaml.Node, ptr string, depth int) error {
	c.nodes++
	if c.nodes > c.maxNodes {
		return errAt(n, "document expands to more than %d nodes (aliases are expanded in full)", c.maxNodes)
	}
	if depth > MaxDepth {
		return errAt(n, "nested more than %d deep", MaxDepth)
	}
	if len(c.out)+c.ptrBytes > MaxOutputBytes {
		return errAt(n, "document expands to more than %d bytes of JSON (aliases are expanded in full)", MaxOutputBytes)
	}
	if c.lines != nil {
		if _, ok := c.lines[ptr]; !ok {
			c.lines[ptr] = n.Line
			c.ptrBytes += len(ptr)
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		return c.mapping(n, ptr, depth)
	case yaml.SequenceNode:
		c.out = append(c.out, '[')
		for i, item := range n.Content {
			if i > 0 {
				c.out = append(c.out, ',')
			}
			if err := c.node(item, c.child(ptr, strconv.Itoa(i)), depth+1); err != nil {
				return err
			}
		}
		c.out = append(c.out, ']')
		return nil
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.AliasNode:
		for _, a := range c.expanding {
			if a == n.Alias {
				return errAt(n, "alias *%s refers to itself", n.Value)
			}
		}
		c.expanding = append(c.expanding, n.Alias)
		err := c.node(n.Alias, ptr, depth+1)
		c.expanding = c.expanding[:len(c.expanding)-1]
		return err
	}
	return errAt(n, "unsupported YAML node")
}

// child returns the pointer of a member, or "" when lines are not kept.
func (c *converter) child(ptr, token string) string {
	if c.lines == nil {
		return ""
	}
	return ptr + "/" + token
}

func (c *converter) mapping(n *yaml.Node, ptr string, depth int) error {
	c.out = append(c.out, '{')
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return errAt(k, "mapping key is a %s: keys must be strings", kindName(k))
		}
		if k.ShortTag() == "!!merge" {
			return errAt(k, "merge keys (<<) are not supported: write the keys out")
		}
		if k.ShortTag() != "!!str" {
			return errAt(k, "mapping key %q is a %s: keys must be strings (quote it)", k.Value, tagName(k.ShortTag()))
		}
		if line, dup := seen[k.Value]; dup {
			return errAt(k, "key %q given twice (first on line %d)", k.Value, line)
		}
		seen[k.Value] = k.Line
		if i > 0 {
			c.out = append(c.out, ',')
		}
		c.out = ojg.AppendJSONString(c.out, k.Value, false)
		c.out = append(c.out, ':')
		child := c.child(ptr, escapePointer(k.Value))
		if c.lines != nil {
			if _, ok := c.lines[child]; !ok {
				c.ptrBytes += len(child)
			}
			c.lines[child] = k.Line
		}
		if err := c.node(v, child, depth+1); err != nil {
			return err
		}
	}
	c.out = append(c.out, '}')
	return nil
}

func (c *converter) scalar(n *yaml.Node) error {
	switch tag := n.ShortTag(); tag {
	case "!!str", "!!timestamp", "!!binary":
		c.out = ojg.AppendJSONString(c.out, n.Value, false)
	case "!!null":
		c.out = append(c.out, "null"...)
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return errAt(n, "%v", err)
		}
		c.out = strconv.AppendBool(c.out, b)
	case "!!int":
		var v any
		if err := n.Decode(&v); err != nil {
			return errAt(n, "%v", err)
		}
		switch x := v.(type) {
		case int:
			c.out = strconv.AppendInt(c.out, int64(x), 10)
		case int64:
			c.out = strconv.AppendInt(c.out, x, 10)
		case uint64:
			c.out = strconv.AppendUint(c.out, x, 10)
		case float64:
			return c.float(n, x)
		default:
			return errAt(n, "integer %q out of range", n.Value)
		}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return errAt(n, "%v", err)
		}
		return c.float(n, f)
	default:
		return errAt(n, "tag %s is not supported", tag)
	}
	return nil
}

func (c *converter) float(n *yaml.Node, f float64) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return errAt(n, "%s has no JSON form", n.Value)
	}
	c.out = strconv.AppendFloat(c.out, f, 'g', -1, 64)
	return nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	}
	return "node"
}

func tagName(tag string) string {
	switch tag {
	case "!!int":
		return "integer"
	case "!!float":
		return "float"
	case "!!bool":
		return "boolean"
	case "!!null":
		return "null"
	}
	return tag
}

// escapePointer escapes a key for a JSON Pointer: ~ as ~0, / as ~1.
func escapePointer(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
