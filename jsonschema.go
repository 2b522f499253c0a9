package proctor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/fastschema"
	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/jsonformat"
	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/nesting"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/internal/schemabound"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ExtractJSON returns the JSON text in a model's output, for custom graders
// that read JSON. An output that, trimmed, is one valid JSON value is that
// value (even a JSON string whose text holds a brace). Otherwise the
// candidates are tried in order and the first that is valid JSON wins: the
// bracketed value the output starts with (prose after it dropped), the body
// of each ```json (or bare ```) fence, then each bracketed span in the
// prose. Fences and prose are read only after the bracketed value the
// output starts with, so that a value nested in a broken one, as in
// `[{"a": 1}`, is never taken. A broken block followed by a corrected one
// yields the corrected one. When nothing is valid, the result is the
// candidate to report the syntax error in: the leading bracketed value, else the first
// fence body, else the first bracketed span, else the trimmed output.
// Every JSON grader reads the output this way.
//
// The result is a substring of output and may still be invalid JSON.
func ExtractJSON(output string) string { return fence.JSON(output) }

// parsers pools JSON parsers for a grader; a parser's scratch space is
// reused between grades. With strict, the whole output (white space
// trimmed) is the only candidate: fences and prose are not looked into.
type parsers struct {
	pool   sync.Pool
	strict bool
}

func newParsers(native, strict bool) *parsers {
	ps := &parsers{strict: strict}
	ps.pool.New = func() any { return &jsonparse.Parser{Native: native} }
	return ps
}

// eachCandidate calls try with each text JSON is read from, in order,
// until try returns true: those of [fence.Candidates], or with strict the
// trimmed output alone (nothing when it is empty).
func (ps *parsers) eachCandidate(output string, try func(c string) (stop bool)) {
	if ps.strict {
		if t := strings.TrimSpace(output); t != "" {
			try(t)
		}
		return
	}
	for c := range fence.Candidates(output) {
		if try(c) {
			return
		}
	}
}

// parse extracts the JSON in output as [ExtractJSON] does (or takes the
// trimmed output, with strict) and decodes it: the first candidate that
// parses. The returned text is what was parsed (or, on a syntax error,
// the text the error is in).
func (ps *parsers) parse(output string) (v any, text string, err error) {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	found := false
	ps.eachCandidate(output, func(c string) bool {
		v, err = p.Parse(c)
		found, text = err == nil, c
		return found
	})
	if !found {
		return nil, "", ps.notParsed(p, output)
	}
	return v, text, nil
}

// A readResult is what a reading of one candidate's text made of it.
type readResult int8

const (
	readOn      readResult = iota // undecided: check and decode the candidate
	readDone                      // decided without decoding: stop at it
	readNotJSON                   // not JSON: skip it
)

// firstValue decodes the candidate [parsers.parse] would decode, or
// returns parse's error when none parses. read is tried on each candidate
// first: when it answers readDone the candidate is taken without being
// decoded (read must only say so of JSON) and done is true; readNotJSON
// skips the candidate unparsed (read must only say so of a text the
// parser refuses). Otherwise the candidate is checked before it is
// decoded: a text that breaks the syntax after the point where read
// stopped would waste the values decoded up to there.
func (ps *parsers) firstValue(output string, read func(string) readResult) (v any, text string, done bool, err error) {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	found := false
	ps.eachCandidate(output, func(c string) bool {
		switch read(c) {
		case readDone:
			found, text, done = true, c, true
			return true
		case readNotJSON:
			return false
		}
		if !p.Valid(c) {
			return false
		}
		var perr error
		if v, perr = p.Parse(c); perr == nil {
			found, text = true, c
		}
		return found
	})
	if !found {
		return nil, "", false, ps.notParsed(p, output)
	}
	return v, text, done, nil
}

// each decodes every candidate in output that parses, in order, and calls
// yield with it until yield returns false. It returns the error for an
// output in which nothing parses.
func (ps *parsers) each(output string, yield func(v any, text string) bool) error {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	parsed := false
	ps.eachCandidate(output, func(c string) bool {
		v, err := p.Parse(c)
		if err != nil {
			return false
		}
		parsed = true
		return !yield(v, c)
	})
	if !parsed {
		return ps.notParsed(p, output)
	}
	return nil
}

// notParsed is the error for an output in which no candidate parses: the
// syntax error in [fence.Fallback] (with strict, in the trimmed output),
// or errNoJSON.
func (ps *parsers) notParsed(p *jsonparse.Parser, output string) error {
	text := ""
	if ps.strict {
		text = strings.TrimSpace(output)
	} else {
		text = fence.Fallback(output)
	}
	if text == "" {
		return errNoJSON
	}
	if err := p.Check(text); err != nil {
		return err
	}
	return errNoJSON // unreachable: the text is a candidate that failed
}

// selectPath extracts the JSON in output as [ExtractJSON] does, validates
// all of it and builds only the value a singular JSONPath selects.
func (ps *parsers) selectPath(output string, steps []any) (v any, found bool, err error) {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	parsed := false
	ps.eachCandidate(output, func(c string) bool {
		var serr error
		v, found, serr = p.Select(c, steps)
		parsed = serr == nil
		return parsed
	})
	if !parsed {
		return nil, false, ps.notParsed(p, output)
	}
	return v, found, nil
}

var errNoJSON = errors.New("output holds no JSON")

// notJSON is the failed grade for an output that does not parse.
func notJSON(err error) Grade {
	if errors.Is(err, errNoJSON) {
		return Fail(err.Error())
	}
	return Failf("output is not valid JSON: %v", err)
}

// JSONValidOptions configure [NewJSONValid]. The zero value extracts the
// JSON from fences and prose.
type JSONValidOptions struct {
	// Strict requires the whole output, white space trimmed, to be one
	// JSON value: no fences, no prose.
	Strict bool
	// Name is shown in results; default "json_valid".
	Name string
}

// JSONValid passes when the output holds one valid JSON value (RFC 8259)
// once Markdown fences and surrounding prose are removed ([ExtractJSON]),
// or, with [JSONValidOptions.Strict], when the whole trimmed output is one.
// Anything else fails with the position of the first syntax error. It is
// immutable and safe for concurrent use.
type JSONValid struct {
	name string
	ps   *parsers
}

var _ Grader = (*JSONValid)(nil)

// NewJSONValid returns a json_valid grader.
func NewJSONValid(opts JSONValidOptions) *JSONValid {
	return &JSONValid{name: cmp.Or(opts.Name, "json_valid"), ps: newParsers(false, opts.Strict)}
}

// Name returns the grader's name.
func (g *JSONValid) Name() string { return g.name }

// Grade checks that s.Output holds JSON.
func (g *JSONValid) Grade(_ context.Context, s *Sample) Grade {
	p := g.ps.pool.Get().(*jsonparse.Parser)
	defer g.ps.pool.Put(p)
	valid := false
	g.ps.eachCandidate(s.Output, func(c string) bool {
		valid = p.Valid(c)
		return valid
	})
	if !valid {
		return notJSON(g.ps.notParsed(p, s.Output))
	}
	return Pass("")
}

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
	// from outside Files.
	Files fs.FS
	// Name is shown in results; default "json_schema".
	Name string

	// remotes maps URL prefixes (http://localhost:1234/) to file systems
	// their "$ref"s are read from, for the conformance suite's remote
	// schemas. Nothing else sets it.
	remotes map[string]fs.FS
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

// MaxSchemaDepth is how deeply a JSON Schema's text (and each file it
// references) may nest objects and arrays. The validator's compile checks
// a schema against its metaschema in time that grows faster than the
// square of the depth (3,000 nested anyOf take over a minute), so the text
// is scanned for its depth before it is parsed, and a deeper schema is
// refused with [ErrSchemaTooDeep].
const MaxSchemaDepth = 128

// ErrSchemaTooDeep is wrapped by the error for a schema nested deeper than
// [MaxSchemaDepth].
var ErrSchemaTooDeep = errors.New("proctor: schema nested too deeply")

// schemaDepthOK refuses schema text nested deeper than MaxSchemaDepth.
func schemaDepthOK(text []byte) error {
	if d := nesting.JSON(text, MaxSchemaDepth); d > MaxSchemaDepth {
		return fmt.Errorf("%w: objects and arrays nest more than %d levels deep (the limit)", ErrSchemaTooDeep, MaxSchemaDepth)
	}
	return nil
}

// ErrPathEscapes is wrapped by errors for a file path that would leave the
// file system it is read from.
var ErrPathEscapes = errors.New("proctor: path escapes the suite's folder")

// ErrSchemaTooComplex is wrapped by the error for a schema whose
// validation could visit more schema nodes at one instance position than
// [JSONSchemaOptions.MaxVisits] allows.
var ErrSchemaTooComplex = schemabound.ErrTooComplex

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

// compileSchema is the compile step: it compiles the schema text and
// computes the bound on validation work.
func compileSchema(text []byte, name string, opts JSONSchemaOptions) (*JSONSchema, error) {
	draft, ok := drafts[opts.Draft]
	if !ok {
		return nil, fmt.Errorf("proctor: json_schema: unknown draft %q: want 4, 6, 7, 2019-09 or 2020-12", opts.Draft)
	}
	if opts.MaxVisits < 0 {
		return nil, fmt.Errorf("proctor: json_schema: MaxVisits %d is negative", opts.MaxVisits)
	}
	if opts.Strict && opts.AnyBlock {
		return nil, errors.New("proctor: json_schema: Strict and AnyBlock exclude each other: Strict validates the whole output, AnyBlock every block in it")
	}
	if err := schemaDepthOK(text); err != nil {
		return nil, fmt.Errorf("proctor: json_schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	if opts.FormatAssertion {
		c.AssertFormat()
		for _, f := range assertedFormats() {
			c.RegisterFormat(f)
		}
	}
	if opts.ContentAssertion {
		c.AssertContent()
	}
	c.UseLoader(fileLoader{opts.Files, opts.remotes})
	loc := schemaBase + name
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("proctor: json_schema: %w", err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: schema does not compile: %w", err)
	}
	limit := opts.MaxVisits
	if limit == 0 {
		limit = DefaultMaxSchemaVisits
	}
	var visit func(*jsonschema.Schema)
	if opts.FormatAssertion {
		// The validator checks "regex" with the engine that compiles
		// "pattern" (Go's RE2) and lets no format replace it; the
		// compiled nodes take the ECMA-262 check instead.
		re := ecmaRegexFormat()
		visit = func(s *jsonschema.Schema) {
			if s.Format != nil && s.Format.Name == "regex" {
				s.Format = re
			}
		}
	}
	bound, err := schemabound.New(sch, limit, visit)
	if err != nil {
		return nil, fmt.Errorf("proctor: json_schema: %w", err)
	}
	fast, _ := fastschema.Compile(sch)
	return &JSONSchema{name: cmp.Or(opts.Name, "json_schema"), schema: sch, anyBlock: opts.AnyBlock, bound: bound, ps: newParsers(false, opts.Strict), fast: fast, fastText: bound.SafeLength()}, nil
}

// assertedFormats are the validator's own format checks, each followed by
// the stricter check of internal/jsonformat for the same format, and the
// checks that replace the validator's (so that the JSON Schema Test
// Suite's format cases agree). Built once; immutable.
var assertedFormats = sync.OnceValue(func() []*jsonschema.Format {
	var out []*jsonschema.Format
	for _, name := range slices.Sorted(maps.Keys(jsonformat.Replacements)) {
		check := jsonformat.Replacements[name]
		out = append(out, &jsonschema.Format{Name: name, Validate: func(v any) error {
			if s, ok := v.(string); ok {
				return check(s)
			}
			return nil
		}})
	}
	for _, name := range slices.Sorted(maps.Keys(jsonformat.Checks)) {
		extra := jsonformat.Checks[name]
		base := func(any) error { return nil }
		// The validator's own check, read from a schema that uses it.
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource("file:///f.json", map[string]any{"format": name}); err == nil {
			if sch, err := c.Compile("file:///f.json"); err == nil && sch.Format != nil {
				base = sch.Format.Validate
			}
		}
		out = append(out, &jsonschema.Format{Name: name, Validate: func(v any) error {
			if err := base(v); err != nil {
				return err
			}
			if s, ok := v.(string); ok {
				return extra(s)
			}
			return nil
		}})
	}
	return out
})

// ecmaRegexFormat is the "regex" format as ECMA-262 defines it.
var ecmaRegexFormat = sync.OnceValue(func() *jsonschema.Format {
	return &jsonschema.Format{Name: "regex", Validate: func(v any) error {
		if s, ok := v.(string); ok {
			return jsonformat.Regex(s)
		}
		return nil
	}}
})

// fileLoader resolves "$ref"s to other schema files inside one fs.FS (and,
// in tests, to the conformance suite's remotes) and refuses everything
// else (other hosts, other schemes, no FS).
type fileLoader struct {
	fsys    fs.FS
	remotes map[string]fs.FS
}

func (l fileLoader) Load(u string) (any, error) {
	fsys := l.fsys
	rest, ok := strings.CutPrefix(u, schemaBase)
	for prefix, rfs := range l.remotes {
		if r, found := strings.CutPrefix(u, prefix); found {
			fsys, rest, ok = rfs, r, true
		}
	}
	if !ok || fsys == nil {
		return nil, fmt.Errorf("proctor: schema reference %s: only schema files beside the schema can be referenced", u)
	}
	p, err := url.PathUnescape(rest)
	if err == nil {
		p, err = confinedPath(p)
	}
	if err != nil {
		return nil, fmt.Errorf("proctor: schema reference %s: %w", u, err)
	}
	text, err := readfile.FS(context.Background(), fsys, p, readfile.SpecLimit)
	if err != nil {
		return nil, err
	}
	if err := schemaDepthOK(text); err != nil {
		return nil, fmt.Errorf("proctor: schema reference %s: %w", u, err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(text))
}

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

// minTextRead is the shortest text the json_schema grader first reads
// with the fast path's pass-only reading (ReadText, which stops at the
// first violation) before explaining it. A shorter text is explained at
// once: one reading passes or explains it, and the pass-only reading
// would save too little to pay for a second reading of a failing text.
const minTextRead = 64

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
	return &Decodes[T]{name: cmp.Or(opts.Name, "decodes_into_"+typeName[T]()), opts: opts}
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
// for, a value of the wrong type or text after the value is an error. Use
// it when the output must hold exactly T's fields; a custom grader that
// reads a few fields of a model's answer should call [DecodeJSONWith] with
// [DecodeOptions.AllowUnknownFields], so a key the model adds does not
// break it.
func DecodeJSON[T any](output string) (T, error) {
	return decodeJSON[T](output, true)
}

// DecodeOptions configure [DecodeJSONWith].
type DecodeOptions struct {
	// AllowUnknownFields ignores object members T has no field for, at
	// any depth; by default they are an error. A value of the wrong type
	// and text after the value are errors either way.
	AllowUnknownFields bool
}

// DecodeJSONWith is [DecodeJSON] with options: with AllowUnknownFields it
// is the helper for custom graders that check some fields of the output
// and ignore the rest.
func DecodeJSONWith[T any](output string, opts DecodeOptions) (T, error) {
	return decodeJSON[T](output, !opts.AllowUnknownFields)
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

// jsonSpecs registers the spec types json_valid, json_schema.
func jsonSpecs(m map[string]Builder) {
	m["json_valid"] = func(o *SpecOptions) (Grader, error) {
		strict := o.Bool("strict", false)
		if err := o.Err(); err != nil {
			return nil, err
		}
		return NewJSONValid(JSONValidOptions{Name: o.Name(), Strict: strict}), nil
	}
	m["json_schema"] = func(o *SpecOptions) (Grader, error) {
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
}
