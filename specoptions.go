package proctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
)

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
	if !kit.InUnit(f) {
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

// Built is the last line of a builder that reads its options and then
// calls a constructor: it returns g when no option was refused and err is
// nil; else the spec's error, the first problem an option recorded, or err
// recorded against option key. The getters refuse most bad values; Built
// keeps a value they let through and the constructor refuses (a threshold
// out of range) from being graded.
func (o *SpecOptions) Built(key string, g Grader, err error) (Grader, error) {
	if e := o.Err(); e != nil {
		return nil, e
	}
	if err != nil {
		o.Wrap(key, "", err)
		return nil, o.Err()
	}
	return g, nil
}

// Config gives builders of built-in types the injected dependencies.
func (o *SpecOptions) config() *config { return o.c.cfg }

// Injected returns what the Compiler building this spec was given for its
// graders, as one CompilerOption: the judges and their policy, the embedder, the
// files spec options may read and the network policy. A builder in any
// package hands it to [NewJudging] or to its own constructors' options, so
// its grader is configured as the built-in ones are.
func (o *SpecOptions) Injected() CompilerOption { return configOption(o.config()) }

// OptThreshold returns the threshold option, read as [SpecOptions.Threshold]
// reads it, or nil when the spec does not give one, so that a builder can
// leave the grader's own default in place.
func (o *SpecOptions) OptThreshold() *float64 {
	if !o.Has("threshold") {
		return nil
	}
	t := o.Threshold(0)
	return &t
}

// specGrader is [SpecOptions.Built] for a constructor that returns a
// concrete grader type: a nil *T never becomes a non-nil Grader.
func specGrader[G Grader](o *SpecOptions, key string, g G, err error) (Grader, error) {
	if err != nil {
		return o.Built(key, nil, err)
	}
	return o.Built(key, g, nil)
}
