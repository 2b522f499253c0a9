package proctor

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"

	"github.com/proctorhq/proctor/internal/fence"
)

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
