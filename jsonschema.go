package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"reflect"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ExtractJSON returns the JSON text in a model's output, for custom graders
// that read JSON: the output itself when, trimmed, it starts with '{' or
// '['; otherwise the body of the first ```json (or bare ```) fence;
// otherwise the first bracketed span in the prose that is valid JSON (or,
// when none is, the first bracketed span, so that a parser reports what is
// wrong with it); otherwise the trimmed output. Text after the value's
// closing bracket is dropped. Every JSON grader reads the output through it.
//
// The result is a substring of output and may still be invalid JSON.
func ExtractJSON(output string) string { return fence.JSON(output) }

// parsers pools JSON parsers for a grader; a parser's scratch space is
// reused between grades.
type parsers struct{ pool sync.Pool }

func newParsers(native bool) *parsers {
	ps := &parsers{}
	ps.pool.New = func() any { return &jsonparse.Parser{Native: native} }
	return ps
}

// parse extracts the JSON in output and decodes it. The returned text is
// what was parsed.
func (ps *parsers) parse(output string) (any, string, error) {
	text := fence.JSON(output)
	if text == "" {
		return nil, text, errNoJSON
	}
	p := ps.pool.Get().(*jsonparse.Parser)
	v, err := p.Parse(text)
	ps.pool.Put(p)
	return v, text, err
}

// selectPath extracts the JSON in output, validates all of it and builds
// only the value a singular JSONPath selects.
func (ps *parsers) selectPath(output string, steps []any) (v any, found bool, err error) {
	text := fence.JSON(output)
	if text == "" {
		return nil, false, errNoJSON
	}
	p := ps.pool.Get().(*jsonparse.Parser)
	v, found, err = p.Select(text, steps)
	ps.pool.Put(p)
	return v, found, err
}

var errNoJSON = errors.New("output holds no JSON")

// notJSON is the failed grade for an output that does not parse.
func notJSON(err error) Grade {
	if errors.Is(err, errNoJSON) {
		return Fail(err.Error())
	}
	return Failf("output is not valid JSON: %v", err)
}

// JSONValidOptions configure [NewJSONValid].
type JSONValidOptions struct {
	// Name is shown in results; default "json_valid".
	Name string
}

// JSONValid passes when the output holds one valid JSON value (RFC 8259)
// once Markdown fences and surrounding prose are removed ([ExtractJSON]).
// Anything else fails with the position of the first syntax error. It is
// immutable and safe for concurrent use.
type JSONValid struct {
	name string
	ps   *parsers
}

var _ Grader = (*JSONValid)(nil)

// NewJSONValid returns a json_valid grader.
func NewJSONValid(opts JSONValidOptions) *JSONValid {
	return &JSONValid{name: nameOr(opts.Name, "json_valid"), ps: newParsers(false)}
}

// Name returns the grader's name.
func (g *JSONValid) Name() string { return g.name }

// Grade checks that s.Output holds JSON.
func (g *JSONValid) Grade(_ context.Context, s *Sample) Grade {
	text := fence.JSON(s.Output)
	if text == "" {
		return notJSON(errNoJSON)
	}
	p := g.ps.pool.Get().(*jsonparse.Parser)
	err := p.Check(text)
	g.ps.pool.Put(p)
	if err != nil {
		return notJSON(err)
	}
	return Pass("")
}

// JSONSchemaOptions configure [NewJSONSchema] and [NewJSONSchemaFile]. The
// zero value uses JSON Schema 2020-12 for schemas without "$schema" and
// refuses every "$ref" outside the schema.
type JSONSchemaOptions struct {
	// Files is where "$ref"s to other schema files are read from, relative
	// to the schema ([NewJSONSchemaFile] sets it to the schema's file
	// system). Nil refuses them. Nothing is ever read from the network or
	// from outside Files.
	Files fs.FS
	// Name is shown in results; default "json_schema".
	Name string
}

// JSONSchema passes when the JSON in the output (fences and prose removed,
// [ExtractJSON]) is valid against a JSON Schema. Schemas are JSON Schema
// 2020-12 unless their "$schema" names another draft (4, 6, 7, 2019-09);
// "format" is an annotation, not an assertion, as 2020-12 specifies.
//
// An output that is not JSON fails with the syntax error; an instance that
// breaks the schema fails with the first violation and its location in the
// instance (a JSON pointer). Numbers keep their exact written value.
//
// The schema is compiled once (github.com/santhosh-tekuri/jsonschema/v6). A
// JSONSchema is immutable and safe for concurrent use.
type JSONSchema struct {
	name   string
	schema *jsonschema.Schema
	ps     *parsers
}

var _ Grader = (*JSONSchema)(nil)

// NewJSONSchema compiles schema: JSON text as []byte, json.RawMessage or
// string, or a Go value that encodes as the schema (a map, a struct). It
// returns an error when the schema is not JSON or does not compile (an
// unknown type, a malformed keyword, a "$ref" it cannot resolve).
func NewJSONSchema(schema any, opts JSONSchemaOptions) (*JSONSchema, error) {
	var text []byte
	switch s := schema.(type) {
	case []byte:
		text = s
	case json.RawMessage:
		text = s
	case string:
		text = []byte(s)
	default:
		b, err := json.Marshal(schema)
		if err != nil {
			return nil, fmt.Errorf("proctor: json_schema: schema does not encode as JSON: %w", err)
		}
		text = b
	}
	return compileSchema(text, "schema.json", opts)
}

// MustJSONSchema is [NewJSONSchema] for schemas known to compile; it panics
// otherwise.
func MustJSONSchema(schema any, opts JSONSchemaOptions) *JSONSchema {
	g, err := NewJSONSchema(schema, opts)
	if err != nil {
		panic(fmt.Sprintf("proctor: MustJSONSchema: %v", err))
	}
	return g
}

// NewJSONSchemaFile reads the schema at name in fsys and compiles it;
// "$ref"s to other files resolve relative to it, inside fsys. name is a
// slash-separated path inside fsys ("schemas/ticket.json", "./t.json"); a
// path that escapes fsys ("../x", "/etc/x") is [ErrPathEscapes]. A missing
// file is an error that wraps [fs.ErrNotExist].
func NewJSONSchemaFile(fsys fs.FS, name string, opts JSONSchemaOptions) (*JSONSchema, error) {
	if fsys == nil {
		return nil, errors.New("proctor: json_schema: no file system to read schema files from")
	}
	p, err := confinedPath(name)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: schema file %q: %w", name, err)
	}
	text, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: %w", err)
	}
	opts.Files = fsys
	return compileSchema(text, p, opts)
}

// ErrPathEscapes is wrapped by errors for a file path that would leave the
// file system it is read from.
var ErrPathEscapes = errors.New("path escapes the suite's folder")

// confinedPath cleans a slash-separated relative path and refuses one that
// is absolute or climbs out with "..".
func confinedPath(name string) (string, error) {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) {
		return "", ErrPathEscapes
	}
	p := path.Clean(name)
	if !fs.ValidPath(p) || p == "." {
		return "", ErrPathEscapes
	}
	return p, nil
}

// schemaBase is the URL schemas are compiled under; "$ref"s resolve
// against it and [fileLoader] maps it back into the file system.
const schemaBase = "file:///"

func compileSchema(text []byte, name string, opts JSONSchemaOptions) (*JSONSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(fileLoader{opts.Files})
	loc := schemaBase + name
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("proctor: json_schema: %w", err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: schema does not compile: %w", err)
	}
	return &JSONSchema{name: nameOr(opts.Name, "json_schema"), schema: sch, ps: newParsers(false)}, nil
}

// fileLoader resolves "$ref"s to other schema files inside one fs.FS and
// refuses everything else (other hosts, other schemes, no FS).
type fileLoader struct{ fsys fs.FS }

func (l fileLoader) Load(u string) (any, error) {
	rest, ok := strings.CutPrefix(u, schemaBase)
	if !ok || l.fsys == nil {
		return nil, fmt.Errorf("proctor: schema reference %s: only schema files beside the schema can be referenced", u)
	}
	p, err := url.PathUnescape(rest)
	if err == nil {
		p, err = confinedPath(p)
	}
	if err != nil {
		return nil, fmt.Errorf("proctor: schema reference %s: %w", u, err)
	}
	f, err := l.fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonschema.UnmarshalJSON(io.LimitReader(f, 16<<20))
}

// Name returns the grader's name.
func (g *JSONSchema) Name() string { return g.name }

// Grade validates the JSON in s.Output.
func (g *JSONSchema) Grade(_ context.Context, s *Sample) Grade {
	v, _, err := g.ps.parse(s.Output)
	if err != nil {
		return notJSON(err)
	}
	if err := g.schema.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return Fail(violation(ve))
		}
		return ErrorGrade("json_schema", err)
	}
	return Pass("")
}

// violation describes the first leaf of a validation error tree, e.g.
// "schema violation at /metadata/version: got string, want integer (and 2
// more)".
func violation(ve *jsonschema.ValidationError) string {
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
	msg := first.Error()
	// A leaf reads "at '/a/b': MSG"; keep MSG and write the pointer plainly.
	if i := strings.Index(msg, "': "); strings.HasPrefix(msg, "at '") && i > 0 {
		msg = msg[i+3:]
	}
	r := fmt.Sprintf("schema violation at %s: %s", jsonPointer(first.InstanceLocation), clipRunes(msg, 160))
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

// clipRunes shortens s to n runes with an ellipsis.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// DecodesOptions configure [DecodesInto].
type DecodesOptions struct {
	// AllowUnknownFields accepts object members that T has no field for;
	// by default they fail.
	AllowUnknownFields bool
	// Name is shown in results; default "decodes_into_" and T's name.
	Name string
}

// Decodes passes when the JSON in the output (fences and prose removed)
// decodes into a T with encoding/json: a member of the wrong type, a member
// T has no field for (unless [DecodesOptions.AllowUnknownFields]), or text
// after the value fails, with the first mismatch as the reason. Members T
// has but the output lacks keep their zero value; use [JSONSchema] to
// require them. It is immutable and safe for concurrent use.
type Decodes[T any] struct {
	name string
	opts DecodesOptions
}

var _ Grader = (*Decodes[any])(nil)

// DecodesInto returns a grader that checks that the output decodes into a
// T, the typed counterpart of a JSON Schema:
//
//	proctor.DecodesInto[Ticket](proctor.DecodesOptions{})
func DecodesInto[T any](opts DecodesOptions) *Decodes[T] {
	return &Decodes[T]{name: nameOr(opts.Name, "decodes_into_"+typeName[T]()), opts: opts}
}

var _ Grader = (*Decodes[struct{}])(nil)

func typeName[T any]() string {
	t := reflect.TypeFor[T]()
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}

// Name returns the grader's name.
func (g *Decodes[T]) Name() string { return g.name }

// Grade decodes s.Output into a T.
func (g *Decodes[T]) Grade(_ context.Context, s *Sample) Grade {
	if _, err := decodeJSON[T](s.Output, !g.opts.AllowUnknownFields); err != nil {
		return Failf("output does not decode into %s: %v", typeName[T](), err)
	}
	return Pass("")
}

// DecodeJSON decodes the JSON in output (fences and prose removed, as
// [ExtractJSON] does) into a T, strictly: an object member T has no field
// for, a value of the wrong type or text after the value is an error. It is
// the helper for custom graders that compare fields.
func DecodeJSON[T any](output string) (T, error) {
	return decodeJSON[T](output, true)
}

func decodeJSON[T any](output string, strict bool) (T, error) {
	var v T
	text := fence.JSON(output)
	if text == "" {
		return v, errNoJSON
	}
	dec := json.NewDecoder(strings.NewReader(text))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(&v); err != nil {
		return v, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, errors.New("text after the JSON value")
	}
	return v, nil
}

// jsonSpecs registers the spec types json_valid, json_schema.
func jsonSpecs(m map[string]Builder) {
	m["json_valid"] = func(o *SpecOptions) (Grader, error) {
		return NewJSONValid(JSONValidOptions{Name: o.Name()}), nil
	}
	m["json_schema"] = func(o *SpecOptions) (Grader, error) {
		raw, hasSchema := o.Raw("schema")
		file, hasFile := o.OptString("schema_file")
		if err := o.Err(); err != nil {
			return nil, err
		}
		files := o.config().files
		opts := JSONSchemaOptions{Name: o.Name(), Files: files}
		switch {
		case hasSchema && hasFile:
			o.Errorf("schema_file", "give schema or schema_file, not both")
		case hasSchema:
			if k := jsonKind(raw); k != "an object" && k != "a boolean" {
				o.Errorf("schema", "want a JSON Schema object, got %s", k)
				break
			}
			g, err := NewJSONSchema(json.RawMessage(raw), opts)
			if err != nil {
				o.Wrap("schema", "does not compile", err)
				break
			}
			return g, nil
		case hasFile:
			if files == nil {
				o.Errorf("schema_file", "no folder to read %q from: schema files are read from the suite's folder (WithFiles)", file)
				break
			}
			g, err := NewJSONSchemaFile(files, file, opts)
			if err != nil {
				o.Wrap("schema_file", "cannot load "+file, err)
				break
			}
			return g, nil
		default:
			o.Errorf("schema", "missing: json_schema needs schema (an object) or schema_file (a path)")
		}
		return nil, o.Err()
	}
}
