package proctor

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/fastschema"
	"github.com/proctorhq/proctor/internal/jsonformat"
	"github.com/proctorhq/proctor/internal/nesting"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/internal/schemabound"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

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
	remotes, err := remoteSources(opts.Remotes)
	if err != nil {
		return nil, err
	}
	c.UseLoader(fileLoader{opts.Files, remotes})
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

// remoteSource is one [JSONSchemaOptions.Remotes] entry: a URL prefix
// ending in "/" and the file system its "$ref"s are read from.
type remoteSource struct {
	prefix string
	fsys   fs.FS
}

// remoteSources checks the Remotes option and returns its entries, each
// prefix ending in "/", longest prefix first (so that it wins).
func remoteSources(remotes map[string]fs.FS) ([]remoteSource, error) {
	out := make([]remoteSource, 0, len(remotes))
	for prefix, fsys := range remotes {
		u, err := url.Parse(prefix)
		switch {
		case err != nil:
			return nil, fmt.Errorf("proctor: json_schema: Remotes prefix %q: %w", prefix, err)
		case !u.IsAbs() || u.Host == "":
			return nil, fmt.Errorf("proctor: json_schema: Remotes prefix %q is not an absolute URL with a host (want one like https://example.com/schemas/)", prefix)
		case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(prefix, "#"):
			return nil, fmt.Errorf("proctor: json_schema: Remotes prefix %q has a query or fragment: want a URL prefix like https://example.com/schemas/", prefix)
		case fsys == nil:
			return nil, fmt.Errorf("proctor: json_schema: Remotes prefix %q has a nil file system", prefix)
		}
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		out = append(out, remoteSource{prefix, fsys})
	}
	slices.SortFunc(out, func(a, b remoteSource) int {
		return cmp.Or(cmp.Compare(len(b.prefix), len(a.prefix)), strings.Compare(a.prefix, b.prefix))
	})
	return out, nil
}

// fileLoader resolves "$ref"s to other schema files inside one fs.FS and
// to the URLs under the Remotes prefixes (longest prefix first), and
// refuses everything else (other hosts, other schemes, no FS).
type fileLoader struct {
	fsys    fs.FS
	remotes []remoteSource
}

func (l fileLoader) Load(u string) (any, error) {
	fsys := l.fsys
	rest, ok := strings.CutPrefix(u, schemaBase)
	for _, r := range l.remotes {
		if tail, found := strings.CutPrefix(u, r.prefix); found {
			fsys, rest, ok = r.fsys, tail, true
			break
		}
	}
	if !ok || fsys == nil {
		return nil, fmt.Errorf("proctor: schema reference %s: only schema files beside the schema and URLs under a Remotes prefix can be referenced", u)
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
