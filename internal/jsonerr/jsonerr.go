// Package jsonerr rewords encoding/json errors for people who wrote JSON,
// not Go.
package jsonerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// User rewords an encoding/json error in the user's terms: the
// field by its JSON name, the expected kind of value ("a string", not a
// Go type) and, when data is given, the line. Other errors are returned
// as they are.
func User(data []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		where := "the value"
		if te.Field != "" {
			where = fmt.Sprintf("field %q", te.Field)
		}
		return fmt.Errorf("%s%s: want %s, got %s", lineAt(data, te.Offset), where, kindWord(te.Type), valueWord(te.Value))
	case errors.As(err, &se):
		msg := strings.TrimPrefix(se.Error(), "json: ")
		if msg == "unexpected end of JSON input" {
			msg = "it ends too soon"
		}
		return fmt.Errorf("%snot valid JSON: %s", lineAt(data, se.Offset), msg)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("not valid JSON: it ends too soon")
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s", f)
	}
	return err
}

// lineAt is "line N: " for the byte offset in data, or "" without data.
func lineAt(data []byte, off int64) string {
	if len(data) == 0 || off < 0 {
		return ""
	}
	off = min(off, int64(len(data)))
	return fmt.Sprintf("line %d: ", 1+bytes.Count(data[:off], []byte("\n")))
}

// kindWord names what a Go type holds, as a JSON user knows it.
func kindWord(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return kindWord(t.Elem())
	}
	return "another value"
}

// valueWord names the kind of JSON value encoding/json reports ("number",
// "string", "array", ...).
func valueWord(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "true or false"
	case v == "string", v == "number":
		return "a " + v
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	}
	return v
}
