package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
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
		family[t.Name] = t.Build
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

// SpecOptions gives a [Builder] typed access to a spec's options. Each
// getter marks the option as read; an option of the wrong type or out of
// range is recorded with [SpecOptions.Errorf] and reported by Err. Getters
// keep returning the default after an error, so a builder can read every
// option and return o.Err() once.
type SpecOptions struct {
	c        *Compiler
	where    string
	typ      string
	name     string
	severity Severity
	depth    int // how deeply this spec is nested in others
	ctx      context.Context
	raw      map[string]json.RawMessage
	used     map[string]bool // options present and read
	asked    map[string]bool // options a getter asked for, present or not
	errs     []error
	dry      bool // Compiler.Options's run: record no errors
}

// Context returns the context the spec is compiled under
// ([Compiler.CompileContext]; context.Background otherwise), for a builder
// whose own work is long enough to stop when it ends.
func (o *SpecOptions) Context() context.Context {
	if o.ctx == nil {
		return context.Background()
	}
	return o.ctx
}

// Type returns the spec's type.
func (o *SpecOptions) Type() string { return o.typ }

// Name returns the spec's name option, or its type when it has none.
func (o *SpecOptions) Name() string { return o.name }

// Severity returns the spec's severity option ([SeverityUnset] when absent).
func (o *SpecOptions) Severity() Severity { return o.severity }

func (o *SpecOptions) label() string {
	switch {
	case o.name != "" && o.name != o.typ:
		return fmt.Sprintf("%q (%s, type %s)", o.name, o.where, o.typ)
	case o.typ != "":
		return fmt.Sprintf("%s (type %s)", o.where, o.typ)
	}
	return o.where
}

// Has reports whether the option is present (even as null), and marks it
// read.
func (o *SpecOptions) Has(key string) bool {
	o.asked[key] = true
	_, ok := o.raw[key]
	if ok {
		o.used[key] = true
	}
	return ok
}

// Raw returns the option's JSON text and marks it read.
func (o *SpecOptions) Raw(key string) (json.RawMessage, bool) {
	o.asked[key] = true
	r, ok := o.raw[key]
	if ok {
		o.used[key] = true
	}
	return r, ok
}

// Errorf records a problem with option key ("" for the spec as a whole).
func (o *SpecOptions) Errorf(key, format string, args ...any) {
	if o.dry {
		return
	}
	o.errs = append(o.errs, &SpecError{Spec: o.label(), Option: key, Msg: fmt.Sprintf(format, args...)})
}

// Wrap records err as the cause of a problem with option key.
func (o *SpecOptions) Wrap(key, msg string, err error) {
	if o.dry {
		return
	}
	o.errs = append(o.errs, &SpecError{Spec: o.label(), Option: key, Msg: msg, Err: err})
}

// Err returns the first problem recorded, or nil.
func (o *SpecOptions) Err() error {
	if len(o.errs) == 0 {
		return nil
	}
	return o.errs[0]
}

// unread returns the options the spec gives that no getter read, sorted.
func (o *SpecOptions) unread() []string {
	var keys []string
	for k := range o.raw {
		if !o.used[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// unused reports options no getter read: unknown to this type.
func (o *SpecOptions) unused() error {
	keys := o.unread()
	if len(keys) == 0 {
		return nil
	}
	var known []string
	for k := range o.asked {
		if !slices.Contains(commonOptions, k) {
			known = append(known, k)
		}
	}
	sort.Strings(known)
	takes := "name, required, criterion, severity"
	if len(known) > 0 {
		takes = strings.Join(known, ", ") + ", and " + takes
	}
	msg := fmt.Sprintf("unknown option for type %s (it takes %s)", o.typ, takes)
	if want, ok := o.suggest(keys[0], false); ok {
		msg = fmt.Sprintf("unknown option; did you mean %q? (type %s takes %s)", want, o.typ, takes)
	}
	return &SpecError{Spec: o.label(), Option: keys[0], Msg: msg}
}

// misspelled returns an error for an option that no getter read and that
// looks like a misspelling of one the builder asked for and did not find,
// or nil. A builder that fails for a missing required option ("value")
// then reports the typo the user made ("vaule") instead.
func (o *SpecOptions) misspelled() *SpecError {
	for _, k := range o.unread() {
		if want, ok := o.suggest(k, true); ok {
			return &SpecError{Spec: o.label(), Option: k, Msg: fmt.Sprintf("unknown option; did you mean %q?", want)}
		}
	}
	return nil
}

// suggest returns the option this type takes that key most likely
// misspells: the nearest by edit distance (ignoring case), within 2 edits
// and fewer than half of key's letters. With absentOnly it considers only
// options the spec does not give.
func (o *SpecOptions) suggest(key string, absentOnly bool) (string, bool) {
	words := make([]string, 0, len(o.asked))
	for k := range o.asked {
		if _, given := o.raw[k]; !absentOnly || !given {
			words = append(words, k)
		}
	}
	return nearest(key, words)
}

func isNull(r json.RawMessage) bool { return string(bytes.TrimSpace(r)) == "null" }

// OptString returns a string option and whether it was present. A present
// option that is not a string is recorded as an error.
func (o *SpecOptions) OptString(key string) (string, bool) {
	r, ok := o.Raw(key)
	if !ok {
		return "", false
	}
	var s string
	if len(bytes.TrimSpace(r)) == 0 || bytes.TrimSpace(r)[0] != '"' || json.Unmarshal(r, &s) != nil {
		o.Errorf(key, "want a string, got %s", kit.JSONKind(r))
		return "", false
	}
	return s, true
}

// String returns a string option, or def when absent.
func (o *SpecOptions) String(key, def string) string {
	if s, ok := o.OptString(key); ok {
		return s
	}
	return def
}

// RequireString returns a string option that must be present and non-empty.
func (o *SpecOptions) RequireString(key string) string {
	o.asked[key] = true
	if _, ok := o.raw[key]; !ok {
		o.Errorf(key, "missing: type %s needs it", o.typ)
		return ""
	}
	s, ok := o.OptString(key)
	if ok && s == "" {
		o.Errorf(key, "must not be empty")
	}
	return s
}

// Bool returns a boolean option, or def when absent.
func (o *SpecOptions) Bool(key string, def bool) bool {
	r, ok := o.Raw(key)
	if !ok {
		return def
	}
	switch string(bytes.TrimSpace(r)) {
	case "true":
		return true
	case "false":
		return false
	}
	o.Errorf(key, "want true or false, got %s", kit.JSONKind(r))
	return def
}

// OptFloat returns a finite number option and whether it was present.
func (o *SpecOptions) OptFloat(key string) (float64, bool) {
	r, ok := o.Raw(key)
	if !ok {
		return 0, false
	}
	var n json.Number
	if json.Unmarshal(r, &n) != nil || kit.JSONKind(r) != "a number" {
		o.Errorf(key, "want a number, got %s", kit.JSONKind(r))
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		o.Errorf(key, "want a finite number, got %s", n)
		return 0, false
	}
	return f, true
}

// Float returns a number option, or def when absent.
func (o *SpecOptions) Float(key string, def float64) float64 {
	if f, ok := o.OptFloat(key); ok {
		return f
	}
	return def
}

// Threshold returns the "threshold" option (def when absent), which must lie
// in [0, 1].
func (o *SpecOptions) Threshold(def float64) float64 {
	f, ok := o.OptFloat("threshold")
	if !ok {
		return def
	}
	if f < 0 || f > 1 {
		o.Errorf("threshold", "want a number in [0, 1], got %v", f)
		return def
	}
	return f
}

// OptInt returns an integer option and whether it was present.
func (o *SpecOptions) OptInt(key string) (int, bool) {
	f, ok := o.OptFloat(key)
	if !ok {
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		o.Errorf(key, "want an integer, got %v", f)
		return 0, false
	}
	return int(f), true
}

// Int returns an integer option, or def when absent.
func (o *SpecOptions) Int(key string, def int) int {
	if n, ok := o.OptInt(key); ok {
		return n
	}
	return def
}

// OptStrings returns a []string option and whether it was present.
func (o *SpecOptions) OptStrings(key string) ([]string, bool) {
	r, ok := o.Raw(key)
	if !ok {
		return nil, false
	}
	var ss []string
	if kit.JSONKind(r) != "an array" || json.Unmarshal(r, &ss) != nil {
		o.Errorf(key, "want an array of strings, got %s", kit.JSONKind(r))
		return nil, false
	}
	return ss, true
}

// Strings returns a []string option (nil when absent).
func (o *SpecOptions) Strings(key string) []string {
	ss, _ := o.OptStrings(key)
	return ss
}

// Enum returns a string option that must be one of allowed; def when absent.
func (o *SpecOptions) Enum(key, def string, allowed ...string) string {
	s, ok := o.OptString(key)
	if !ok {
		return def
	}
	if !slices.Contains(allowed, s) {
		o.Errorf(key, "want one of %s, got %q", strings.Join(allowed, ", "), s)
		return def
	}
	return s
}

// Decode decodes the option into v (any JSON-decodable Go value), reporting
// whether it was present. Unknown fields in objects are errors.
func (o *SpecOptions) Decode(key string, v any) bool {
	r, ok := o.Raw(key)
	if !ok {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		o.Wrap(key, "cannot decode", err)
		return false
	}
	return true
}

// Value decodes the option as a generic JSON value (numbers as float64)
// and reports whether it was present.
func (o *SpecOptions) Value(key string) (any, bool) {
	r, ok := o.Raw(key)
	if !ok {
		return nil, false
	}
	var v any
	if err := json.Unmarshal(r, &v); err != nil {
		o.Wrap(key, "not JSON", err)
		return nil, false
	}
	return v, true
}

// Check compiles the option as a nested spec (the "grader" of not).
func (o *SpecOptions) Check(key string) (Check, bool) {
	r, ok := o.Raw(key)
	if !ok {
		o.Errorf(key, "missing: type %s needs a nested spec", o.typ)
		return Check{}, false
	}
	ch, err := o.CompileNested(key, r)
	if err != nil {
		o.errs = append(o.errs, err)
		return Check{}, false
	}
	return ch, true
}

// CompileNested compiles spec, written by the builder itself (a metric
// spec a wrapper grader delegates to, say), as if it were the nested spec
// at option key: the Compiler's types and injected dependencies apply, the
// nesting depth is counted, and an error (a *[SpecError]) names the spec
// at key. The builder returns the error, or says more about it.
func (o *SpecOptions) CompileNested(key string, spec []byte) (Check, error) {
	return o.c.compileAt(o.Context(), o.where+"."+key, spec, o.depth+1)
}

// Checks compiles the option as a list of nested specs (the "graders" of
// all and any). A JSON object maps names to specs, as OpenAI's multi has it;
// then each check's name is its key unless the spec names itself.
func (o *SpecOptions) Checks(key string) ([]Check, []string, bool) {
	r, ok := o.Raw(key)
	if !ok {
		o.Errorf(key, "missing: type %s needs a list of specs", o.typ)
		return nil, nil, false
	}
	var out []Check
	var keys []string
	switch kit.JSONKind(r) {
	case "an array":
		var raws []json.RawMessage
		if err := json.Unmarshal(r, &raws); err != nil {
			o.Wrap(key, "want an array of specs", err)
			return nil, nil, false
		}
		for i, sub := range raws {
			ch, err := o.c.compileAt(o.Context(), fmt.Sprintf("%s.%s[%d]", o.where, key, i), sub, o.depth+1)
			if err != nil {
				o.errs = append(o.errs, err)
				return nil, nil, false
			}
			out = append(out, ch)
			keys = append(keys, ch.Name())
		}
	case "an object":
		dec := json.NewDecoder(bytes.NewReader(r))
		if _, err := dec.Token(); err != nil {
			o.Wrap(key, "want an object of specs", err)
			return nil, nil, false
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				o.Wrap(key, "want an object of specs", err)
				return nil, nil, false
			}
			k := t.(string)
			if slices.Contains(keys, k) {
				o.Errorf(key, "spec %q given twice", k)
				return nil, nil, false
			}
			var sub json.RawMessage
			if err := dec.Decode(&sub); err != nil {
				o.Wrap(key, "want an object of specs", err)
				return nil, nil, false
			}
			ch, err := o.c.compileAt(o.Context(), fmt.Sprintf("%s.%s.%s", o.where, key, k), sub, o.depth+1)
			if err != nil {
				o.errs = append(o.errs, err)
				return nil, nil, false
			}
			out = append(out, ch)
			keys = append(keys, k)
		}
	default:
		o.Errorf(key, "want an array of specs, got %s", kit.JSONKind(r))
		return nil, nil, false
	}
	if len(out) == 0 {
		o.Errorf(key, "must hold at least one spec")
		return nil, nil, false
	}
	return out, keys, true
}

// Config gives builders of built-in types the injected dependencies.
func (o *SpecOptions) config() *config { return o.c.cfg }

// Injected returns what the Compiler building this spec was given for its
// graders, as one CompilerOption: the judges and their policy, the embedder, the
// files spec options may read and the network policy. A builder in any
// package hands it to [NewJudging] or to its own constructors' options, so
// its grader is configured as the built-in ones are.
func (o *SpecOptions) Injected() CompilerOption { return configOption(o.config()) }
