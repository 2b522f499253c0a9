package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ItemSchemaGrader is the name of the check a case whose item does not
// match the suite's data_source_config.item_schema gets instead of its own:
// it is not graded, and its reason reads "FILE:LINE: FIELD: what was
// expected", FIELD being the case's item and the instance location, such
// as cases[2].item/tags/1.
const ItemSchemaGrader = "item_schema"

var dataSourceKeys = []string{"type", "item_schema", "include_sample_schema"}

// decodeDataSource reads data_source_config as OpenAI evals have it:
// {type: custom, item_schema: {...}, include_sample_schema: bool}. The
// item schema is compiled once; include_sample_schema is accepted and
// ignored (it tells OpenAI to add the sample to the template namespace,
// which proctor always does).
func (s *Suite) decodeDataSource(n *node) error {
	const at = "data_source_config"
	if err := s.checkKeys(n, at, dataSourceKeys); err != nil {
		return err
	}
	t := n.get("type")
	if t == nil {
		return s.errAt(n, at+".type", "missing: want custom")
	}
	typ, err := s.str(t, at+".type")
	if err != nil {
		return err
	}
	if typ != "custom" {
		return s.errAt(t, at+".type", "want custom (the only data source a suite file describes), got %q", typ)
	}
	if v := n.get("include_sample_schema"); v != nil && v.what() != "a boolean" {
		return s.errAt(v, at+".include_sample_schema", "want a boolean, got %s", v.what())
	}
	sn := n.get("item_schema")
	if sn == nil {
		return s.errAt(n, at+".item_schema", "missing: want a JSON Schema object for each case's item")
	}
	if sn.kind != kindMap {
		return s.errAt(sn, at+".item_schema", "want a JSON Schema object, got %s", sn.what())
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sn.JSON()))
	if err != nil {
		return &Error{File: s.Path, Line: sn.line, Field: at + ".item_schema", Msg: "not JSON", Err: err}
	}
	c := jsonschema.NewCompiler()
	// References resolve inside the schema only: nothing is read from
	// disk or the network.
	c.UseLoader(jsonschema.SchemeURLLoader{})
	const loc = "proctor:item_schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return &Error{File: s.Path, Line: sn.line, Field: at + ".item_schema", Msg: "not a JSON Schema", Err: err}
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return &Error{File: s.Path, Line: sn.line, Field: at + ".item_schema", Msg: "does not compile", Err: err}
	}
	s.itemSchema = sch
	return nil
}

// checkItem validates a case's item (an empty object when the case has
// none) against the suite's item schema and returns "" or the reason the
// case is not graded: the file, the line and the field of the first value
// at fault, and what was expected.
func (s *Suite) checkItem(cn *node, at string) string {
	if s.itemSchema == nil {
		return ""
	}
	in := cn.get("item")
	var v any = map[string]any{}
	if in != nil {
		v = in.value()
	}
	err := s.itemSchema.Validate(v)
	if err == nil {
		return ""
	}
	field, line, msg := at+".item", cn.line, err.Error()
	if in != nil {
		line = in.line
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		leaf := firstLeaf(ve)
		field += pointer(leaf.InstanceLocation)
		if in != nil {
			line = lineOf(in, leaf.InstanceLocation)
		}
		msg = leafMessage(leaf)
	}
	return fmt.Sprintf("%s:%d: %s: %s", filepath.Base(s.Path), line, field, msg)
}

// value returns n as the JSON Schema library reads JSON: maps, slices,
// strings, bools, nil and json.Number, without encoding it as text first.
func (n *node) value() any {
	switch n.kind {
	case kindMap:
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k] = n.items[i].value()
		}
		return m
	case kindSeq:
		a := make([]any, len(n.items))
		for i, it := range n.items {
			a[i] = it.value()
		}
		return a
	}
	switch n.what() {
	case "a string":
		var s string
		_ = json.Unmarshal(n.raw, &s)
		return s
	case "a boolean":
		return n.raw[0] == 't'
	case "a number":
		return json.Number(n.raw)
	}
	return nil
}

// firstLeaf returns the first error with no causes: the value at fault.
func firstLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve
}

// leafMessage is the message of a leaf error without the location the
// library puts first.
func leafMessage(ve *jsonschema.ValidationError) string {
	out := ve.BasicOutput()
	for _, u := range append([]jsonschema.OutputUnit{*out}, out.Errors...) {
		if u.Error != nil {
			return u.Error.String()
		}
	}
	return ve.Error()
}

// pointer writes an instance location as a JSON Pointer ("" for the root).
func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// lineOf returns the line of the value at loc under n, or of the deepest
// value found on the way.
func lineOf(n *node, loc []string) int {
	line := n.line
	for _, t := range loc {
		switch n.kind {
		case kindMap:
			i := -1
			for j, k := range n.keys {
				if k == t {
					i = j
				}
			}
			if i < 0 {
				return line
			}
			line, n = n.keyLines[i], n.items[i]
		case kindSeq:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(n.items) {
				return line
			}
			n = n.items[i]
			line = n.line
		default:
			return line
		}
	}
	return line
}

// notGradedCase turns c into a case that is not graded for reason: one
// attempt, one required check that cannot decide, no subject call and none
// of the suite's or the case's checks.
func notGradedCase(c proctor.Case, reason string) proctor.Case {
	c.Outputs = []proctor.Sample{{}}
	c.Attempts = 1
	c.Checks = []proctor.Check{{
		Grader: proctor.Func(ItemSchemaGrader, func(context.Context, *proctor.Sample) proctor.Grade {
			return proctor.NotGraded(reason)
		}),
		Required: true,
	}}
	return c
}
