package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/proctorhq/proctor/internal/fastschema"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/internal/schemabound"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSONSchemaOptions configure [NewJSONSchema] and [NewJSONSchemaFile]. The
// zero value uses JSON Schema 2020-12 for schemas without "$schema", treats
// "format" and "content*" as annotations, validates the first JSON value
// in the output that parses, refuses every "$ref" outside the schema and
// bounds validation work with [DefaultMaxSchemaVisits].
type JSONSchemaOptions struct {
	// Draft is the draft for schemas without "$schema": "4", "6", "7",
	// "2019-09" or "2020-12" (the default, also for ""). "$schema" always
	// wins.
	Draft string
	// FormatAssertion makes "format" an assertion for the formats date,
	// date-time, time, duration, email, hostname, ipv4, ipv6, uri,
	// uri-reference, iri, uuid, regex, json-pointer and
	// relative-json-pointer (and the other formats the validator knows);
	// an unknown format name stays an annotation.
	FormatAssertion bool
	// ContentAssertion makes "contentEncoding" (base64) and
	// "contentMediaType" (application/json) assertions, and applies
	// "contentSchema" to the decoded content.
	ContentAssertion bool
	// AnyBlock passes when any JSON value in the output validates: the
	// whole output, each fenced block and each bracketed span in the prose
	// (promptfoo's contains-json). By default only the first value that
	// parses is validated.
	AnyBlock bool
	// Strict requires the whole output, white space trimmed, to be the
	// one JSON value validated: no fences, no prose (an API's structured
	// output). It cannot be combined with AnyBlock.
	Strict bool
	// MaxVisits bounds how many schema nodes validation may visit at one
	// position of the instance, worst case over every instance, following
	// "$ref", "allOf", "anyOf", "oneOf", "not", "if"/"then"/"else" and the
	// dependent schemas. A schema over it does not compile. 0 means
	// [DefaultMaxSchemaVisits]. See [JSONSchema] for the bound on work per
	// output.
	MaxVisits int
	// Files is where "$ref"s to other schema files are read from, relative
	// to the schema ([NewJSONSchemaFile] sets it to the schema's file
	// system). Nil refuses them. Nothing is ever read from the network or
	// from outside Files (and [JSONSchemaOptions.Remotes]).
	Files fs.FS
	// Remotes serves "$ref"s to absolute URLs from file systems, offline:
	// a "$ref" whose URL starts with a key is read from that key's file
	// system, at the path that is the rest of the URL after the prefix
	// (percent-decoded; a fragment still selects inside the file). With
	// {"https://example.com/schemas/": fsys},
	// "https://example.com/schemas/common/address.json#/$defs/zip" reads
	// common/address.json from fsys. A prefix that does not end in "/" is
	// read as if it did: "https://example.com/schemas" serves
	// https://example.com/schemas/address.json, never
	// https://example.com/schemas2/address.json. When prefixes overlap
	// the longest wins. A "$ref" to any other URL is refused, as without
	// Remotes, and so is one whose "../" resolves above the prefix, a
	// path that leaves the file system (an encoded "%2e%2e/") and a
	// missing file: the schema does not compile. Nothing is ever fetched
	// from the network. Each key must be an absolute URL with
	// a host and no query or fragment, and each file system non-nil, or
	// the constructor returns an error.
	Remotes map[string]fs.FS
	// Name is shown in results; default "json_schema".
	Name string
}

// DefaultMaxSchemaVisits is the default [JSONSchemaOptions.MaxVisits]:
// 16,384 schema nodes at one instance position. A schema whose
// definitions each reference the next twice through "anyOf" passes it at
// 13 levels (each level visits the definition and its two references).
const DefaultMaxSchemaVisits = 1 << 14

// drafts maps the Draft option to the validator's drafts.
var drafts = map[string]*jsonschema.Draft{
	"": jsonschema.Draft2020, "2020-12": jsonschema.Draft2020, "2019-09": jsonschema.Draft2019,
	"7": jsonschema.Draft7, "6": jsonschema.Draft6, "4": jsonschema.Draft4,
}

// JSONSchema passes when the JSON in the output (fences and prose removed,
// [ExtractJSON]; with [JSONSchemaOptions.Strict], the whole output) is
// valid against a JSON Schema. Schemas are JSON Schema
// 2020-12 unless their "$schema" names another draft (4, 6, 7, 2019-09) or
// [JSONSchemaOptions.Draft] sets another default; "format" is an
// annotation, not an assertion, as 2020-12 specifies, unless
// [JSONSchemaOptions.FormatAssertion] is set.
//
// An output that is not JSON fails with the syntax error; an instance that
// breaks the schema fails with the first violation and its location in the
// instance (a JSON pointer). Numbers keep their exact written value.
//
// The schema is compiled once (github.com/santhosh-tekuri/jsonschema/v6).
// That validator cannot be interrupted, so work is bounded before it
// starts: compiling computes, from the compiled schema, the worst-case
// number of schema nodes visited at one instance position (following
// references and in-place applicators, per depth of the instance) and
// refuses a schema over [JSONSchemaOptions.MaxVisits]; grading refuses
// (not graded, with the reason) an output whose positions times that bound
// exceed a fixed budget of 2^26 visits, and a cancelled context. A
// JSONSchema is immutable and safe for concurrent use.
type JSONSchema struct {
	name     string
	schema   *jsonschema.Schema
	anyBlock bool
	bound    *schemabound.Bound
	ps       *parsers
	fast     *fastschema.Schema // nil: the schema uses keywords outside the fast path
	fastText int                // longest text the fast path reads undecoded (0: none)
}

var _ Grader = (*JSONSchema)(nil)

// NewJSONSchema compiles schema: JSON text as []byte, json.RawMessage or
// string, or a Go value that encodes as the schema (a map, a struct). It
// returns an error when the schema is not JSON or does not compile (an
// unknown type, a malformed keyword, a "$ref" it cannot resolve, more work
// than [JSONSchemaOptions.MaxVisits]).
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
		panic(kit.MustFailed("MustJSONSchema", schema, err))
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
	text, err := readfile.FS(context.Background(), fsys, p, readfile.SpecLimit)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: %w", err)
	}
	opts.Files = fsys
	return compileSchema(text, p, opts)
}

// minTextRead is the shortest text the json_schema grader first reads
// with the fast path's pass-only reading (ReadText, which stops at the
// first violation) before explaining it. A shorter text is explained at
// once: one reading passes or explains it, and the pass-only reading
// would save too little to pay for a second reading of a failing text.
const minTextRead = 64

// Name returns the grader's name.
func (g *JSONSchema) Name() string { return g.name }

// Grade validates the JSON in s.Output: extract, then validate. With
// AnyBlock it passes on the first value that validates and otherwise
// reports the first value's violation.
func (g *JSONSchema) Grade(ctx context.Context, s *Sample) Grade {
	// The fast path reads each candidate's text: once, checking syntax and
	// schema together, to pass it; where that fails, once more to explain
	// the violations (decoding only the values it cannot read in place).
	// A candidate neither reading decides is decoded and explained by the
	// fast path, or by the validator where the fast path cannot tell.
	if !g.anyBlock && g.fast != nil {
		var grade Grade
		v, c, done, err := g.ps.firstValue(s.Output, func(c string) readResult {
			if len(c) > g.fastText || ctx.Err() != nil {
				return readOn
			}
			if len(c) >= minTextRead {
				switch ok, notJSON := g.fast.ReadText(c); {
				case ok:
					grade = Pass("")
					return readDone
				case notJSON:
					return readNotJSON
				}
			}
			e, decided, notJSON := g.fast.ExplainText(c)
			switch {
			case notJSON:
				return readNotJSON
			case !decided:
				return readOn
			case e.Valid:
				grade = Pass("")
			default:
				grade = Fail(violation(e.First, e.Leaves))
			}
			return readDone
		})
		if err != nil {
			return notJSON(err)
		}
		if done {
			return grade
		}
		return g.validate(ctx, v, len(c) <= g.fastText)
	}
	if !g.anyBlock {
		v, _, err := g.ps.parse(s.Output)
		if err != nil {
			return notJSON(err)
		}
		return g.validate(ctx, v, false)
	}
	var first *Grade
	var result Grade
	err := g.ps.each(s.Output, func(v any, _ string) bool {
		result = g.validate(ctx, v, false)
		if result.Status == StatusPassed || result.Status == StatusNotGraded {
			return false
		}
		if first == nil {
			f := result
			first = &f
		}
		return true
	})
	if err != nil {
		return notJSON(err)
	}
	if result.Status == StatusPassed || result.Status == StatusNotGraded || first == nil {
		return result
	}
	if first.Reason != "" {
		first.Reason = "no JSON block validates; the first: " + first.Reason
	}
	return *first
}

// GradeValue grades a decoded JSON value (as encoding/json decodes into
// any) against the schema, as Grade grades the JSON in an output: passed,
// failed with the first violation, or not graded when validating it could
// pass the schema's work bound or ctx ends.
func (g *JSONSchema) GradeValue(ctx context.Context, v any) Grade {
	return g.validate(ctx, v, false)
}

// validate is the validate step for one decoded value: it checks the
// context and the work bound (unless withinBound: the value's text is no
// longer than the bound's safe length), then asks the fast path for the
// verdict and the violations, and the validator where the fast path
// cannot tell.
func (g *JSONSchema) validate(ctx context.Context, v any, withinBound bool) Grade {
	if err := ctx.Err(); err != nil {
		return ErrorGrade("json_schema: not validated", err)
	}
	if !withinBound {
		if err := g.bound.Check(ctx, v); err != nil {
			return ErrorGrade("json_schema: not validated", err)
		}
	}
	if g.fast != nil {
		if e, ok := g.fast.Explain(v); ok {
			if e.Valid {
				return Pass("")
			}
			return Fail(violation(e.First, e.Leaves))
		}
	}
	if err := g.schema.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return Fail(violation(firstLeaf(ve)))
		}
		return ErrorGrade("json_schema", err)
	}
	return Pass("")
}

// specDraft reads the draft option: "4", "6", "7", "2019-09" or "2020-12",
// and the numbers 4, 6 and 7 written bare.
func specDraft(o *SpecOptions) string {
	if raw, ok := o.Raw("draft"); ok && kit.JSONKind(raw) == "a number" {
		n := o.Int("draft", 0)
		if d := strconv.Itoa(n); n > 0 && drafts[d] != nil {
			return d
		}
		o.Errorf("draft", "want one of 4, 6, 7, 2019-09, 2020-12, got %s", raw)
		return ""
	}
	return o.Enum("draft", "2020-12", "4", "6", "7", "2019-09", "2020-12")
}

// jsonValidSpec builds a json_valid grader from its spec.
func jsonValidSpec(o *SpecOptions) (Grader, error) {
	strict := o.Bool("strict", false)
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewJSONValid(JSONValidOptions{Name: o.Name(), Strict: strict}), nil
}

// jsonSchemaSpec builds a json_schema grader from its spec.
func jsonSchemaSpec(o *SpecOptions) (Grader, error) {
	raw, hasSchema := o.Raw("schema")
	file, hasFile := o.OptString("schema_file")
	files := o.config().files
	opts := JSONSchemaOptions{
		Name:             o.Name(),
		Files:            files,
		Draft:            specDraft(o),
		FormatAssertion:  o.Bool("format_assertion", false),
		ContentAssertion: o.Bool("content_assertion", false),
		AnyBlock:         o.Bool("any_block", false),
		Strict:           o.Bool("strict", false),
		MaxVisits:        o.Int("max_visits", DefaultMaxSchemaVisits),
	}
	if opts.MaxVisits < 1 {
		o.Errorf("max_visits", "want a positive number, got %d", opts.MaxVisits)
	}
	if opts.Strict && opts.AnyBlock {
		o.Errorf("strict", "cannot be combined with any_block: strict validates the whole output, any_block every block in it")
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	switch {
	case hasSchema && hasFile:
		o.Errorf("schema_file", "give schema or schema_file, not both")
	case hasSchema:
		if k := kit.JSONKind(raw); k != "an object" && k != "a boolean" {
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

// jsonSpecTypes documents the structure family's spec types json_valid and
// json_schema, for [Compiler.SpecTypes], with their builders.
func jsonSpecTypes() []SpecType {
	return []SpecType{
		{Name: "json_valid", Build: jsonValidSpec, Family: "structure", Summary: "the output holds valid JSON",
			About: "An output that parses whole is the value; otherwise the first fenced block or bracketed span in the prose that parses is taken, never a piece of a broken value the output starts with: `[{\"a\": 1}` and `{a: {\"b\": 1}}` fail, while a broken fenced block followed by a corrected one passes.",
			Options: []SpecOptionDoc{
				{"strict", "boolean", "false", "The whole trimmed output must be JSON: no fences or prose around it."},
			},
			Example: `{"type": "json_valid"}`},
		{Name: "json_schema", Build: jsonSchemaSpec, Family: "structure", Summary: "the output's JSON is accepted by a JSON Schema",
			About: "JSON Schema 2020-12 unless the schema's $schema names another draft.",
			Options: []SpecOptionDoc{
				{"schema", "object", "", "The schema, inline. Give schema or schema_file. Objects and arrays may nest at most 128 levels deep (in each file it references too); a deeper schema is refused before it compiles."},
				{"schema_file", "string", "", "A path to the schema, inside the suite's folder (from Go: the files given with WithFiles). The same depth limit holds."},
				{"draft", "string or number", "2020-12", "The draft for a schema without $schema: 4, 6, 7, 2019-09 or 2020-12. $schema wins when present."},
				{"format_assertion", "boolean", "false", "Assert formats (date, date-time, time, email, hostname, ipv4, ipv6, uri, uri-reference, uuid, regex, duration, json-pointer, ...) instead of treating them as annotations."},
				{"content_assertion", "boolean", "false", "Assert contentEncoding and contentMediaType."},
				{"any_block", "boolean", "false", "Pass when any JSON block of the output validates, not only the first that parses."},
				{"strict", "boolean", "false", "The whole trimmed output must be the JSON value: no fences or prose around it (an API's structured output). Not with any_block."},
				{"max_visits", "integer > 0", "16384", "Bound on the schema nodes one position of the output may visit through $ref and applicators; a schema over it is refused at load, and an output that would exceed it is not graded."},
			},
			Example: `{"type": "json_schema", "schema": {"type": "object", "required": ["id"]}}`},
	}
}
