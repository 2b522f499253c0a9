package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/kit"
)

// SpecError is a spec that could not be compiled: an unknown type, an
// unknown or ill-typed option, a value out of range, a missing required
// option, a pattern or schema that does not compile. It names the spec, the
// option and what was expected. Err is the underlying cause, if any
// (errors.Is(err, fs.ErrNotExist) works for a missing schema_file).
type SpecError struct {
	// Spec names the spec: its name, or "spec #i" with its type.
	Spec string
	// Option is the option at fault; empty when the spec as a whole is.
	Option string
	// Msg says what was expected.
	Msg string
	// Err is the cause, if any.
	Err error
}

// Error reads "spec S: option O: MSG: CAUSE".
func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString("proctor: spec ")
	b.WriteString(e.Spec)
	if e.Option != "" {
		b.WriteString(": option ")
		b.WriteString(strconv.Quote(e.Option))
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
func (e *SpecError) Unwrap() error { return e.Err }

// Builder builds a [Grader] from a spec's options. It reads each option it
// takes through o; an option it never reads is reported by the [Compiler] as
// unknown. It returns o.Err() (or any error) when an option was wrong.
type Builder func(o *SpecOptions) (Grader, error)

// commonOptions are taken by every spec and handled by the Compiler.
var commonOptions = []string{"type", "name", "required", "criterion", "severity", "turns"}

// Compiler turns declarative specs (JSON objects with a "type" and options,
// described type by type in docs/spec.md) into [Check] values. Loading is fail-closed: anything it does not
// understand is a *[SpecError], never ignored.
//
// A Compiler is safe for concurrent use, Register included: a spec compiled
// after Register returns sees the new type.
type Compiler struct {
	cfg    *config
	family map[string]Builder // from WithSpecTypes; read-only after NewCompiler
	mu     sync.RWMutex
	types  map[string]Builder // from Register
}

// NewCompiler returns a Compiler that knows the built-in spec types and uses
// the injected judges, embedder and files from opts.
func NewCompiler(opts ...CompilerOption) *Compiler {
	cfg := newCompilerConfig(opts)
	family := make(map[string]Builder, len(cfg.specTypes))
	for _, t := range cfg.specTypes {
		family[t.Name] = t.builder()
	}
	return &Compiler{cfg: cfg, family: family, types: map[string]Builder{}}
}

// Register adds (or replaces) a spec type with a custom builder, so specs
// can name custom graders. Built-in types may be replaced.
func (c *Compiler) Register(typ string, b Builder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.types[typ] = b
}

// Types returns the names of the spec types c knows, sorted.
func (c *Compiler) Types() []string {
	seen := map[string]bool{}
	for t := range builtinTypes() {
		seen[t] = true
	}
	for t := range c.family {
		seen[t] = true
	}
	c.mu.RLock()
	for t := range c.types {
		seen[t] = true
	}
	c.mu.RUnlock()
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Options returns the options a spec of type typ reads, sorted, and whether
// c knows typ. The options every spec takes (name, required, criterion,
// severity) are left out unless the type gives one its own meaning, as the
// tool graders do with name.
//
// The list comes from the type's [Builder] itself: Options runs it once on
// an empty spec in a dry mode, where missing or wrong options are not
// recorded as errors, and collects every option it asks for. The built-in
// builders read all their options before acting on any, so their lists are
// complete; a custom builder that reads an option only after another one
// has a given value leaves that option out. A grader the dry run builds is
// closed if it is an io.Closer, and a panic in the builder ends the run
// with the options asked for until then.
func (c *Compiler) Options(typ string) ([]string, bool) {
	b, ok := c.builder(typ)
	if !ok {
		return nil, false
	}
	o := &SpecOptions{c: c, where: "#0", typ: typ, name: typ, raw: map[string]json.RawMessage{}, used: map[string]bool{}, asked: map[string]bool{}, dry: true}
	func() {
		defer func() { _ = recover() }()
		if g, _ := b(o); g != nil {
			if cl, ok := g.(io.Closer); ok {
				_ = cl.Close()
			}
		}
	}()
	return slices.Sorted(maps.Keys(o.asked)), true
}

func (c *Compiler) builder(typ string) (Builder, bool) {
	c.mu.RLock()
	b, ok := c.types[typ]
	c.mu.RUnlock()
	if ok {
		return b, true
	}
	if b, ok = c.family[typ]; ok {
		return b, true
	}
	b, ok = builtinTypes()[typ]
	return b, ok
}

// Compile compiles one spec given as JSON text (for YAML, convert it first
// with the yamlspec subpackage). Any error is a *[SpecError]; in its text
// the spec is named "#0", or by its name option once that is read.
func (c *Compiler) Compile(spec []byte) (Check, error) {
	return c.compile("#0", spec)
}

// CompileAs is [Compiler.Compile] with the label errors name the spec by
// (a file and index, a case id and check number), so a message can point
// at where the spec came from. Nested specs are named from it
// ("label.graders[1]").
func (c *Compiler) CompileAs(label string, spec []byte) (Check, error) {
	return c.compile(label, spec)
}

// CompileContext is [Compiler.CompileAs] under ctx: once ctx ends, no
// further spec (of those nested in this one) starts compiling, and the
// error wraps ctx's error (errors.Is(err, context.DeadlineExceeded)).
// Builders see ctx through [SpecOptions.Context], so that a long compile
// of their own can stop too. Every built-in compile is also bounded in its
// work by limits on what it is given (the spec's size and nesting, a
// schema's depth, a query's nesting), so ctx bounds the wait, and those
// limits bound what runs.
func (c *Compiler) CompileContext(ctx context.Context, label string, spec []byte) (Check, error) {
	return c.compileAt(ctx, label, spec, 0)
}

// CompileList compiles a JSON array of specs, such as a suite's graders.
// An empty array (or null) compiles to no checks. Errors name the spec by
// index. For an OpenAI-evals testing_criteria list, which may also come
// wrapped in an eval's create request, use openaievals.CompileTestingCriteria.
func (c *Compiler) CompileList(specs []byte) ([]Check, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(specs, &raws); err != nil {
		return nil, &SpecError{Spec: "list", Msg: "want a JSON array of spec objects", Err: err}
	}
	out := make([]Check, 0, len(raws))
	for i, r := range raws {
		ch, err := c.compile("#"+strconv.Itoa(i), r)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// CompileValue compiles a spec held as a Go value (a map decoded from YAML
// or built in code); it is encoded to JSON first.
func (c *Compiler) CompileValue(spec any) (Check, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return Check{}, &SpecError{Spec: "#0", Msg: "spec does not encode as JSON", Err: err}
	}
	return c.Compile(b)
}

// compile compiles spec, naming it by where in errors until its own name is
// known.
func (c *Compiler) compile(where string, spec []byte) (Check, error) {
	return c.compileAt(context.Background(), where, spec, 0)
}

func (c *Compiler) compileAt(ctx context.Context, where string, spec []byte, depth int) (Check, error) {
	if depth > maxSpecDepth {
		return Check{}, &SpecError{Spec: where, Msg: fmt.Sprintf("specs nested more than %d deep", maxSpecDepth)}
	}
	if err := ctx.Err(); err != nil {
		return Check{}, &SpecError{Spec: where, Msg: "compile stopped", Err: err}
	}
	o, err := c.newOptions(where, spec)
	if err != nil {
		return Check{}, err
	}
	o.depth, o.ctx = depth, ctx
	typ := o.String("type", "")
	if typ == "" {
		if err := o.Err(); err != nil {
			return Check{}, err
		}
		return Check{}, &SpecError{Spec: o.label(), Option: "type", Msg: "missing: every spec needs a type (one of " + strings.Join(c.Types(), ", ") + ")"}
	}
	o.typ = typ
	b, ok := c.builder(typ)
	if !ok {
		return Check{}, c.unknownType(o, typ)
	}
	o.name = o.String("name", typ)
	ch := Check{
		Required:  o.Bool("required", false),
		Criterion: o.String("criterion", ""),
	}
	if sv, ok := o.OptString("severity"); ok {
		var s Severity
		if err := s.UnmarshalText([]byte(sv)); err != nil || s == SeverityUnset {
			o.Errorf("severity", "want low, medium, high or critical, got %q", sv)
		}
		ch.Severity = s
	}
	o.severity = ch.Severity
	if err := o.Err(); err != nil {
		return Check{}, err
	}
	g, err := b(o)
	if err == nil {
		err = o.Err()
	}
	if err != nil {
		// A required option that looks missing may be misspelled: say so.
		if mis := o.misspelled(); mis != nil {
			return Check{}, mis
		}
		var se *SpecError
		if errors.As(err, &se) {
			return Check{}, err
		}
		return Check{}, &SpecError{Spec: o.label(), Msg: "cannot build grader", Err: err}
	}
	if g == nil {
		return Check{}, &SpecError{Spec: o.label(), Msg: "builder returned no grader"}
	}
	if g = withTurns(o, g); o.Err() != nil {
		return Check{}, o.Err()
	}
	if err := o.unused(); err != nil {
		return Check{}, err
	}
	ch.Grader = g
	return ch, nil
}

// maxSpecDepth bounds how deeply specs nest (not inside all inside any...),
// so that a hostile spec cannot make compiling quadratic or deep.
const maxSpecDepth = 32

func (c *Compiler) newOptions(where string, spec []byte) (*SpecOptions, error) {
	spec = bytes.TrimSpace(spec)
	if len(spec) == 0 || spec[0] != '{' {
		return nil, &SpecError{Spec: where, Msg: "want a JSON object with a \"type\", got " + kit.JSONKind(spec)}
	}
	m, err := decodeObject(spec)
	if err != nil {
		return nil, &SpecError{Spec: where, Msg: "not a JSON object", Err: err}
	}
	return &SpecOptions{c: c, where: where, raw: m, used: make(map[string]bool, len(m)), asked: make(map[string]bool, len(m))}, nil
}

// decodeObject decodes one JSON object into its members, refusing a key
// given twice (JSON decoders disagree on which one wins) and anything after
// the object.
func decodeObject(b []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("option %q given twice", k)
		}
		m[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the spec object")
	}
	return m, nil
}
