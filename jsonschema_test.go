package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// ticketSchema is the support-ticket schema of the CLI's black-box checks.
const ticketSchema = `{"type":"object","required":["id","urgent"],"properties":{"id":{"type":"string"},"urgent":{"type":"boolean"}}}`

func gradeOutput(g Grader, output string) Grade {
	return g.Grade(context.Background(), &Sample{Output: output})
}

func TestJSONValid(t *testing.T) {
	tests := []struct {
		name, output string
		want         Status
		why          string
	}{
		{"object", `{"a": 1}`, StatusPassed, "plain JSON"},
		{"scalar", `42`, StatusPassed, "any JSON value"},
		{"fenced", "Sure:\n```json\n[1, 2]\n```\nAnything else?", StatusPassed, "fences and prose are removed first"},
		{"prose around", `The result is {"ok": true}.`, StatusPassed, "the object is found in prose"},
		{"broken", `{"a": }`, StatusFailed, "the contract's broken JSON"},
		{"python literals", `{"a": True}`, StatusFailed, "True is not JSON"},
		{"trailing comma", `[1,]`, StatusFailed, "trailing commas are not JSON"},
		{"empty", "  ", StatusFailed, "no JSON at all"},
		{"words", "no json here", StatusFailed, "prose only"},
		{"leading zero", `[01]`, StatusFailed, "numbers follow RFC 8259"},
		{"string holding a brace", `"{\"foo\": \"bar\"}"`, StatusPassed, "a JSON string is a value, whatever its text"},
		{"broken then corrected", "```json\n{\"a\": }\n```\nFixed:\n```json\n{\"a\": 1}\n```", StatusPassed, "the first block that parses"},
		{"broken then corrected in prose", `{"a": tru} I mean {"a": true}`, StatusPassed, "the first span that parses"},
	}
	g := NewJSONValid(JSONValidOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gradeOutput(g, tt.output)
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
			if got.Status == StatusFailed && got.Reason == "" {
				t.Error("failed without a reason")
			}
		})
	}
}

func TestJSONValidStrict(t *testing.T) {
	g := NewJSONValid(JSONValidOptions{Strict: true})
	for out, want := range map[string]Status{
		` {"a": 1}` + "\n":         StatusPassed,
		`"{\"foo\": \"bar\"}"`:     StatusPassed,
		`42`:                       StatusPassed,
		"```json\n{\"a\": 1}\n```": StatusFailed,
		`The result is {"a": 1}.`:  StatusFailed,
		`{"a": 1} hope this helps`: StatusFailed,
		"":                         StatusFailed,
		`{"a": 1} {"b": 2}`:        StatusFailed,
	} {
		if got := gradeOutput(g, out); got.Status != want {
			t.Errorf("strict %q: got %v (%s), want %v", out, got.Status, got.Reason, want)
		}
	}
}

// TestJSONSchemaExtraction covers the extraction rules through the
// json_schema grader: the suite's content and format cases whose data is
// a JSON string holding a brace, and the first candidate that parses.
func TestJSONSchemaExtraction(t *testing.T) {
	str := MustJSONSchema(`{"type":"string"}`, JSONSchemaOptions{})
	obj := MustJSONSchema(`{"type":"object","required":["a"]}`, JSONSchemaOptions{})
	tests := []struct {
		name   string
		g      *JSONSchema
		output string
		want   Status
	}{
		{"string holding an object", str, `"{\"foo\": \"bar\"}"`, StatusPassed},
		{"string holding a brace", str, `"{"`, StatusPassed},
		{"broken fence then corrected", obj, "```json\n{\"a\": }\n```\n```json\n{\"a\": 1}\n```", StatusPassed},
		{"only the first value that parses", obj, "```json\n{\"b\": 1}\n```\n```json\n{\"a\": 1}\n```", StatusFailed},
		{"nothing parses", obj, `{"a": } and {"a": ]`, StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gradeOutput(tt.g, tt.output); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
}

// TestJSONBrokenLeadingValue: no JSON grader takes a value nested in a
// broken value the output starts with. The first cases are autoevals'
// ValidJSON cases (py/autoevals/test_json.py, test_valid_json,
// braintrustdata/autoevals@3d1422ec5a585939031bb382efaae7f6353ab5a4), whose
// default check is an object or an array; the rest are the CLI's checks
// of the same rule.
func TestJSONBrokenLeadingValue(t *testing.T) {
	objOrArr := MustJSONSchema(`{"type":["object","array"]}`, JSONSchemaOptions{})
	anyBlock := MustJSONSchema(`{"type":["object","array"]}`, JSONSchemaOptions{AnyBlock: true})
	hasA, err := NewJSONPathExists("$..a", true, JSONPathOptions{})
	if err != nil {
		t.Fatal(err)
	}
	graders := []Grader{NewJSONValid(JSONValidOptions{}), objOrArr, anyBlock, hasA, DecodesInto[any](DecodesOptions{})}
	tests := []struct {
		output string
		want   Status
	}{
		{`{ "a": 1, "b": "hello" }`, StatusPassed},
		{`[{ "a": 1 }]`, StatusPassed},
		{`[{ "a": 1 }`, StatusFailed},
		{`{ "mapping": { "a": "foo", "b": "bar" }, "extra": 4 }`, StatusPassed},
		{`{ mapping: { "a": "foo", "b": "bar" }, "extra": 4 }`, StatusFailed},
		{`{ mapping: { "a": "foo" }, "extra": 4 }`, StatusFailed},
		{"Here it is:\n```json\n{\"a\": 1,}\n```\nFixed:\n```json\n{\"a\": 1}\n```", StatusPassed},
		{`The ticket is {"a": 7} as asked.`, StatusPassed},
		{`{"a": tru} I mean {"a": true}`, StatusPassed},
	}
	for _, tt := range tests {
		for _, g := range graders {
			if got := gradeOutput(g, tt.output); got.Status != tt.want {
				t.Errorf("%s on %q: got %v (%s), want %v", g.Name(), tt.output, got.Status, got.Reason, tt.want)
			}
		}
	}
}

func TestJSONSchemaAnyBlock(t *testing.T) {
	g := MustJSONSchema(`{"type":"object","required":["a"]}`, JSONSchemaOptions{AnyBlock: true})
	tests := []struct {
		output string
		want   Status
		reason string
	}{
		{"```json\n{\"b\": 1}\n```\n```json\n{\"a\": 1}\n```", StatusPassed, ""},
		{`First {"b": 1}, then [1], then {"a": 2}.`, StatusPassed, ""},
		{`{"b": 1} and {"c": 2}`, StatusFailed, "no JSON block validates; the first: schema violation at /"},
		{`no json`, StatusFailed, "not valid JSON"},
		{`{"a": }`, StatusFailed, "not valid JSON"},
	}
	for _, tt := range tests {
		got := gradeOutput(g, tt.output)
		if got.Status != tt.want || !strings.Contains(got.Reason, tt.reason) {
			t.Errorf("%q: got %v (%s), want %v with %q", tt.output, got.Status, got.Reason, tt.want, tt.reason)
		}
	}
}

// TestJSONSchemaStrict: with Strict the whole trimmed output is the value
// validated, on the fast path and on the validator's path alike; fences
// and prose fail with the syntax error instead of being looked into.
func TestJSONSchemaStrict(t *testing.T) {
	// uniqueItems keeps the second schema off the fast path.
	for _, schema := range []string{`{"type":"object","required":["a"]}`, `{"type":"object","required":["a"],"uniqueItems":true}`} {
		g := MustJSONSchema(schema, JSONSchemaOptions{Strict: true})
		loose := MustJSONSchema(schema, JSONSchemaOptions{})
		tests := []struct {
			output string
			want   Status
			reason string
		}{
			{" {\"a\": 1}\n", StatusPassed, ""},
			{`{"b": 1}`, StatusFailed, "schema violation at /: missing property 'a'"},
			{"```json\n{\"a\": 1}\n```", StatusFailed, "not valid JSON"},
			{`The result is {"a": 1}.`, StatusFailed, "not valid JSON"},
			{`{"a": 1} hope this helps`, StatusFailed, "not valid JSON"},
			{`{"a": 1} {"a": 2}`, StatusFailed, "not valid JSON"},
			{"  \n", StatusFailed, "output holds no JSON"},
		}
		for _, tt := range tests {
			got := gradeOutput(g, tt.output)
			if got.Status != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("%s %q: got %v (%s), want %v with %q", schema, tt.output, got.Status, got.Reason, tt.want, tt.reason)
			}
			// Where the output is one JSON value, strict and the default agree.
			if json.Valid([]byte(tt.output)) {
				if l := gradeOutput(loose, tt.output); l.Status != got.Status || l.Reason != got.Reason {
					t.Errorf("%s %q: strict %v, default %v", schema, tt.output, got, l)
				}
			}
		}
	}
	if _, err := NewJSONSchema(`{}`, JSONSchemaOptions{Strict: true, AnyBlock: true}); err == nil {
		t.Error("Strict with AnyBlock compiled")
	}
}

func TestJSONSchemaAssertions(t *testing.T) {
	tests := []struct {
		name, schema, output string
		opts                 JSONSchemaOptions
		want                 Status
	}{
		{"format annotation", `{"format":"email"}`, `"@example.com"`, JSONSchemaOptions{}, StatusPassed},
		{"format asserted", `{"format":"email"}`, `"@example.com"`, JSONSchemaOptions{FormatAssertion: true}, StatusFailed},
		{"format asserted, valid", `{"format":"email"}`, `"joe@example.com"`, JSONSchemaOptions{FormatAssertion: true}, StatusPassed},
		{"date asserted", `{"format":"date"}`, `"2024-02-30"`, JSONSchemaOptions{FormatAssertion: true}, StatusFailed},
		{"regex is ECMA-262", `{"format":"regex"}`, `"(?<=a+)b"`, JSONSchemaOptions{FormatAssertion: true}, StatusPassed},
		{"duration grammar", `{"format":"duration"}`, `"P1Y2D"`, JSONSchemaOptions{FormatAssertion: true}, StatusFailed},
		{"content annotation", `{"contentEncoding":"base64"}`, `"!!!"`, JSONSchemaOptions{}, StatusPassed},
		{"content asserted", `{"contentEncoding":"base64"}`, `"!!!"`, JSONSchemaOptions{ContentAssertion: true}, StatusFailed},
		{"media type asserted", `{"contentMediaType":"application/json"}`, `"{\"a\": }"`, JSONSchemaOptions{ContentAssertion: true}, StatusFailed},
		{"media type asserted, valid", `{"contentMediaType":"application/json"}`, `"{\"a\": 1}"`, JSONSchemaOptions{ContentAssertion: true}, StatusPassed},
		{"draft 7 by option", `{"items":[{"type":"string"}],"additionalItems":false}`, `["a", 1]`, JSONSchemaOptions{Draft: "7"}, StatusFailed},
		{"draft 2019-09 by option", `{"items":[{"type":"string"}],"additionalItems":false}`, `["a", 1]`, JSONSchemaOptions{Draft: "2019-09"}, StatusFailed},
		{"$schema wins over the option", `{"$schema":"https://json-schema.org/draft/2020-12/schema","prefixItems":[{"type":"string"}],"items":false}`, `["a", 1]`, JSONSchemaOptions{Draft: "4"}, StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewJSONSchema(tt.schema, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := gradeOutput(g, tt.output); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
	if _, err := NewJSONSchema(`{}`, JSONSchemaOptions{Draft: "5"}); err == nil {
		t.Error("draft 5 was accepted")
	}
}

func TestJSONSchema(t *testing.T) {
	tests := []struct {
		name, schema, output string
		want                 Status
		reason               string // a substring of the reason
	}{
		{"fenced with prose", ticketSchema, "Here you go:\n```json\n{\"id\": \"A1\", \"urgent\": true}\n```", StatusPassed, ""},
		{"type mismatch", ticketSchema, `{"id": 7, "urgent": true}`, StatusFailed, "at /id"},
		{"missing required", ticketSchema, `{"id": "A1"}`, StatusFailed, "urgent"},
		{"not json", ticketSchema, `{"id": "A1", "urgent": tru}`, StatusFailed, "not valid JSON"},
		{"no json", ticketSchema, "I can't do that.", StatusFailed, ""},
		{"nested location", `{"properties":{"m":{"properties":{"v":{"type":"integer"}}}}}`, `{"m":{"v":"3"}}`, StatusFailed, "at /m/v"},
		{"1.0 is an integer", `{"type":"integer"}`, `1.0`, StatusPassed, ""},
		{"1.5 is not", `{"type":"integer"}`, `1.5`, StatusFailed, ""},
		{"big integer exact", `{"maximum": 18446744073709551615}`, `18446744073709551616`, StatusFailed, ""},
		{"decimal exact", `{"multipleOf": 0.01}`, `0.07`, StatusPassed, ""},
		{"17 digits kept", `{"const": 0.3}`, `0.30000000000000001`, StatusFailed, ""},
		{"several violations counted", `{"properties":{"a":{"type":"string"},"b":{"type":"string"}}}`, `{"a":1,"b":2}`, StatusFailed, "1 more"},
		{"draft 7 honoured", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`, `["a", 1]`, StatusFailed, ""},
		{"2020-12 default", `{"prefixItems":[{"type":"string"}],"items":false}`, `["a", 1]`, StatusFailed, ""},
		{"format not asserted", `{"format":"email"}`, `"not an email"`, StatusPassed, ""},
		{"boolean schema", `true`, `{}`, StatusPassed, ""},
		{"pointer escapes", `{"properties":{"a/b":{"type":"string"}}}`, `{"a/b":1}`, StatusFailed, "/a~1b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewJSONSchema(tt.schema, JSONSchemaOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := gradeOutput(g, tt.output)
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("reason %q lacks %q", got.Reason, tt.reason)
			}
		})
	}
}

func TestNewJSONSchemaInputs(t *testing.T) {
	for _, schema := range []any{
		ticketSchema,
		[]byte(ticketSchema),
		json.RawMessage(ticketSchema),
		map[string]any{"type": "object", "required": []string{"id", "urgent"}, "properties": map[string]any{"id": map[string]any{"type": "string"}, "urgent": map[string]any{"type": "boolean"}}},
	} {
		g, err := NewJSONSchema(schema, JSONSchemaOptions{})
		if err != nil {
			t.Fatalf("%T: %v", schema, err)
		}
		if got := gradeOutput(g, `{"id":"x"}`); got.Status != StatusFailed {
			t.Errorf("%T: got %v, want failed (urgent is required)", schema, got.Status)
		}
	}
	for _, bad := range []any{`{"type":"nonsense-type"}`, `{`, `{"$ref":"https://example.com/s.json"}`, `{"$ref":"other.json"}`, func() {}} {
		if _, err := NewJSONSchema(bad, JSONSchemaOptions{}); err == nil {
			t.Errorf("NewJSONSchema(%v) compiled, want an error", bad)
		}
	}
}

func TestJSONSchemaFile(t *testing.T) {
	fsys := fstest.MapFS{
		"schemas/t.json":     {Data: []byte(`{"type":"object","required":["order"],"properties":{"order":{"$ref":"defs.json#/$defs/order"}}}`)},
		"schemas/defs.json":  {Data: []byte(`{"$defs":{"order":{"type":"string","pattern":"^A-"}}}`)},
		"schemas/bad.json":   {Data: []byte(`{"type":"nonsense-type"}`)},
		"schemas/up.json":    {Data: []byte(`{"$ref":"../../secret.json"}`)},
		"schemas/notjs.json": {Data: []byte(`{`)},
	}
	g, err := NewJSONSchemaFile(fsys, "./schemas/t.json", JSONSchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string]Status{`{"order":"A-1"}`: StatusPassed, `{"order":"B-1"}`: StatusFailed, `{}`: StatusFailed} {
		if got := gradeOutput(g, out); got.Status != want {
			t.Errorf("%s: got %v (%s), want %v", out, got.Status, got.Reason, want)
		}
	}
	tests := []struct {
		name, path       string
		notExist, escape bool
	}{
		{"missing", "schemas/none.json", true, false},
		{"escape", "../../etc/passwd", false, true},
		{"absolute", "/etc/passwd", false, true},
		{"backslash", `..\x.json`, false, true},
		{"uncompilable", "schemas/bad.json", false, false},
		{"ref escapes", "schemas/up.json", false, false},
		{"not json", "schemas/notjs.json", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewJSONSchemaFile(fsys, tt.path, JSONSchemaOptions{})
			if err == nil {
				t.Fatal("got no error")
			}
			if got := errors.Is(err, fs.ErrNotExist); got != tt.notExist {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v: %v", got, tt.notExist, err)
			}
			if got := errors.Is(err, ErrPathEscapes); got != tt.escape {
				t.Errorf("errors.Is(err, ErrPathEscapes) = %v, want %v: %v", got, tt.escape, err)
			}
		})
	}
	if _, err := NewJSONSchemaFile(nil, "t.json", JSONSchemaOptions{}); err == nil {
		t.Error("a nil file system was accepted")
	}
}

func TestJSONSpec(t *testing.T) {
	fsys := fstest.MapFS{"schemas/t.json": {Data: []byte(`{"type":"object","required":["order"],"properties":{"order":{"type":"string"}}}`)}}
	runSpecCases(t, NewCompiler(WithFiles(fsys)), []specCase{
		{"json_valid", `{"type":"json_valid"}`, `{"a": }`, StatusFailed},
		{"json_valid passes", `{"type":"json_valid","name":"v"}`, `[1]`, StatusPassed},
		{"schema", `{"type":"json_schema","schema":` + ticketSchema + `}`, "Here you go:\n```json\n{\"id\": \"A1\", \"urgent\": true}\n```", StatusPassed},
		{"schema mismatch", `{"type":"json_schema","schema":` + ticketSchema + `}`, `{"id": 7, "urgent": true}`, StatusFailed},
		{"schema_file", `{"type":"json_schema","schema_file":"schemas/t.json"}`, `As the order {"order": "A-1"}`, StatusPassed},
		{"schema_file fails", `{"type":"json_schema","schema_file":"schemas/t.json"}`, `{"order": 1}`, StatusFailed},
		{"strict", `{"type":"json_valid","strict":true}`, "```json\n[1]\n```", StatusFailed},
		{"draft option", `{"type":"json_schema","draft":"7","schema":{"items":[{"type":"string"}],"additionalItems":false}}`, `["a", 1]`, StatusFailed},
		{"draft number", `{"type":"json_schema","draft":7,"schema":{"items":[{"type":"string"}],"additionalItems":false}}`, `["a", 1]`, StatusFailed},
		{"format_assertion", `{"type":"json_schema","format_assertion":true,"schema":{"format":"ipv4"}}`, `"+1.2.3.4"`, StatusFailed},
		{"content_assertion", `{"type":"json_schema","content_assertion":true,"schema":{"contentEncoding":"base64"}}`, `"!!!"`, StatusFailed},
		{"any_block", `{"type":"json_schema","any_block":true,"schema":{"required":["a"]}}`, `{"b":1} or {"a":1}`, StatusPassed},
		{"json_schema strict", `{"type":"json_schema","strict":true,"schema":{"required":["a"]}}`, "```json\n{\"a\":1}\n```", StatusFailed},
		{"json_schema strict passes", `{"type":"json_schema","strict":true,"schema":{"required":["a"]}}`, `{"a":1}`, StatusPassed},
		{"max_visits", `{"type":"json_schema","max_visits":100000,"schema":{"type":"string"}}`, `"x"`, StatusPassed},
	})
}

func TestJSONSpecErrors(t *testing.T) {
	fsys := fstest.MapFS{"schemas/t.json": {Data: []byte(`{"type":"object"}`)}}
	files := NewCompiler(WithFiles(fsys))
	runSpecErrors(t, []specErrCase{
		{"uncompilable schema", nil, `{"type":"json_schema","schema":{"type":"nonsense-type"}}`, "schema", nil},
		{"schema not an object", nil, `{"type":"json_schema","schema":"x"}`, "schema", nil},
		{"neither", nil, `{"type":"json_schema"}`, "schema", nil},
		{"both", files, `{"type":"json_schema","schema":{},"schema_file":"schemas/t.json"}`, "schema_file", nil},
		{"no files", nil, `{"type":"json_schema","schema_file":"schemas/t.json"}`, "schema_file", nil},
		{"missing file", files, `{"type":"json_schema","schema_file":"schemas/none.json"}`, "schema_file", fs.ErrNotExist},
		{"escaping file", files, `{"type":"json_schema","schema_file":"../../etc/passwd"}`, "schema_file", ErrPathEscapes},
		{"schema_file not a string", files, `{"type":"json_schema","schema_file":3}`, "schema_file", nil},
		{"unknown option", nil, `{"type":"json_valid","strictly":true}`, "strictly", nil},
		{"strict not a bool", nil, `{"type":"json_valid","strict":"yes"}`, "strict", nil},
		{"strict with any_block", nil, `{"type":"json_schema","schema":{},"strict":true,"any_block":true}`, "strict", nil},
		{"unknown draft", nil, `{"type":"json_schema","schema":{},"draft":"2021"}`, "draft", nil},
		{"unknown draft number", nil, `{"type":"json_schema","schema":{},"draft":5}`, "draft", nil},
		{"format_assertion not a bool", nil, `{"type":"json_schema","schema":{},"format_assertion":1}`, "format_assertion", nil},
		{"max_visits zero", nil, `{"type":"json_schema","schema":{},"max_visits":0}`, "max_visits", nil},
		{"fan-out over max_visits", nil, `{"type":"json_schema","schema":{"allOf":[{},{},{}]},"max_visits":3}`, "schema", nil},
	}, fs.ErrNotExist, ErrPathEscapes)
}

type ticket struct {
	ID     string `json:"id"`
	Urgent bool   `json:"urgent"`
	Tags   []string
}

func TestDecodesInto(t *testing.T) {
	tests := []struct {
		name, output string
		opts         DecodesOptions
		want         Status
		reason       string
	}{
		{"decodes", "```json\n{\"id\":\"A1\",\"urgent\":true}\n```", DecodesOptions{}, StatusPassed, ""},
		{"type mismatch", `{"id":"A1","urgent":"yes"}`, DecodesOptions{}, StatusFailed, "urgent"},
		{"unknown field", `{"id":"A1","extra":1}`, DecodesOptions{}, StatusFailed, "extra"},
		{"unknown allowed", `{"id":"A1","extra":1}`, DecodesOptions{AllowUnknownFields: true}, StatusPassed, ""},
		{"not json", `{"id":`, DecodesOptions{}, StatusFailed, "ticket"},
		{"no json", `sorry`, DecodesOptions{}, StatusFailed, ""},
		{"array for object", `[1]`, DecodesOptions{}, StatusFailed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := DecodesInto[ticket](tt.opts)
			got := gradeOutput(g, tt.output)
			if got.Status != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("got %v %q, want %v with %q", got.Status, got.Reason, tt.want, tt.reason)
			}
		})
	}
	if got := DecodesInto[ticket](DecodesOptions{}).Name(); got != "decodes_into_ticket" {
		t.Errorf("Name() = %q", got)
	}
	if got := DecodesInto[map[string]int](DecodesOptions{Name: "m"}).Name(); got != "m" {
		t.Errorf("Name() = %q", got)
	}
}

func TestDecodeJSON(t *testing.T) {
	v, err := DecodeJSON[ticket]("Result: {\"id\":\"A1\",\"urgent\":true,\"Tags\":[\"x\"]} thanks")
	if err != nil || v.ID != "A1" || !v.Urgent || len(v.Tags) != 1 {
		t.Errorf("got %+v, %v", v, err)
	}
	// Two values: the whole does not parse, so the first that does is read.
	if v, err := DecodeJSON[ticket](`{"id":"A1"} {"id":"B"}`); err != nil || v.ID != "A1" {
		t.Errorf("two values: got %+v, %v, want the first", v, err)
	}
	if _, err := DecodeJSON[ticket](`{"id":"A1",}`); err == nil {
		t.Error("a trailing comma was accepted")
	}
	if _, err := DecodeJSON[int](`"x"`); err == nil {
		t.Error("a string decoded into an int")
	}
}

func TestDecodeJSONWith(t *testing.T) {
	out := "```json\n{\"id\":\"A1\",\"extra\":{\"k\":1},\"urgent\":true}\n```"
	if _, err := DecodeJSON[ticket](out); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("strict: err %v, want the unknown field named", err)
	}
	if _, err := DecodeJSONWith[ticket](out, DecodeOptions{}); err == nil {
		t.Error("zero DecodeOptions accepted an unknown field")
	}
	v, err := DecodeJSONWith[ticket](out, DecodeOptions{AllowUnknownFields: true})
	if err != nil || v.ID != "A1" || !v.Urgent {
		t.Errorf("lenient: got %+v, %v", v, err)
	}
	lenient := DecodeOptions{AllowUnknownFields: true}
	for _, bad := range []string{`{"id":1,"x":2}`, "no json here", `{"id":"A1","x":}`, `{"id":"A1","urgent":"yes","x":2}`} {
		if _, err := DecodeJSONWith[ticket](bad, lenient); err == nil {
			t.Errorf("lenient accepted %q", bad)
		}
	}
	// Prose after a value is removed as by ExtractJSON; a second value in
	// the same text is not the value.
	if _, err := DecodeJSONWith[ticket]("{\"id\":\"A1\"}\n{\"id\":2}", lenient); err != nil {
		t.Errorf("first of two values: %v", err)
	}
}

func TestExtractJSON(t *testing.T) {
	if got := ExtractJSON("Sure!\n```json\n{\"a\": 1}\n```\nBye"); got != `{"a": 1}` {
		t.Errorf("got %q", got)
	}
}

func FuzzJSONGraders(f *testing.F) {
	for _, s := range []string{`{"id":"A1","urgent":true}`, "```json\n{\"id\":1}\n```", `[1,2`, `{"id":"x","urgent":false} ok`, "\"\xff\"", `1e400`} {
		f.Add(s)
	}
	valid := NewJSONValid(JSONValidOptions{})
	schema := MustJSONSchema(ticketSchema, JSONSchemaOptions{})
	path, err := NewJSONPathEquals("$.id", "A1", JSONPathOptions{})
	if err != nil {
		f.Fatal(err)
	}
	decodes := DecodesInto[ticket](DecodesOptions{})
	strict := NewJSONValid(JSONValidOptions{Strict: true})
	anyBlock := MustJSONSchema(ticketSchema, JSONSchemaOptions{AnyBlock: true})
	strictSchema := MustJSONSchema(ticketSchema, JSONSchemaOptions{Strict: true})
	f.Fuzz(func(t *testing.T, output string) {
		v := gradeOutput(valid, output)
		for _, g := range []Grader{valid, schema, path, decodes, strict, anyBlock, strictSchema} {
			got := gradeOutput(g, output)
			if got.Status != StatusPassed && got.Status != StatusFailed {
				t.Fatalf("%s: status %v (%s)", g.Name(), got.Status, got.Reason)
			}
			// Whatever passes a JSON grader is valid JSON.
			if got.Status == StatusPassed && v.Status != StatusPassed {
				t.Fatalf("%s passed %q, which json_valid rejects", g.Name(), output)
			}
		}
		if v.Status == StatusPassed != json.Valid([]byte(ExtractJSON(output))) {
			t.Fatalf("json_valid %v disagrees with json.Valid on %q", v.Status, ExtractJSON(output))
		}
		if got := gradeOutput(strict, output); got.Status == StatusPassed != json.Valid([]byte(strings.TrimSpace(output))) {
			t.Fatalf("strict json_valid %v disagrees with json.Valid on %q", got.Status, output)
		}
		// Strict json_schema passes only what strict json_valid passes,
		// and then agrees with the default.
		if got := gradeOutput(strictSchema, output); got.Status == StatusPassed {
			if gradeOutput(strict, output).Status != StatusPassed || gradeOutput(schema, output).Status != StatusPassed {
				t.Fatalf("strict json_schema passed %q", output)
			}
		}
		// any_block passes whenever the first value does.
		if gradeOutput(schema, output).Status == StatusPassed && gradeOutput(anyBlock, output).Status != StatusPassed {
			t.Fatalf("any_block failed %q, which json_schema passes", output)
		}
	})
}

// benchJSON is a ~1 KB output of the shape the graders read.
var benchJSON = `{"id":"A1","urgent":true,"summary":"` + strings.Repeat("The committee weighs throughput against cost. ", 18) + `","tags":["a","b"],"metadata":{"model":"gpt-4o-mini","version":3,"score":0.57}}`

func BenchmarkJSONGraders(b *testing.B) {
	ctx := context.Background()
	s := &Sample{Output: benchJSON}
	run := func(name string, g Grader) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.Grade(ctx, s)
			}
		})
	}
	run("json_valid", NewJSONValid(JSONValidOptions{}))
	b.Run("json.Valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Valid([]byte(benchJSON))
		}
	})
	g := MustJSONSchema(ticketSchema, JSONSchemaOptions{})
	run("json_schema", g)
	b.Run("Schema.Validate", func(b *testing.B) {
		v, err := parseForBench(benchJSON)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = g.schema.Validate(v)
		}
	})
	run("decodes_into", DecodesInto[ticket](DecodesOptions{AllowUnknownFields: true}))
}

func parseForBench(s string) (any, error) {
	v, _, err := newParsers(false, false).parse(s)
	return v, err
}

// TestJSONSchemaRemotes covers JSONSchemaOptions.Remotes: a "$ref" under a
// prefix is read from its file system (longest prefix first, a prefix
// without "/" read as a folder), a "$ref" outside every prefix and a path
// leaving the file system are refused, and a malformed prefix is a
// constructor error.
func TestJSONSchemaRemotes(t *testing.T) {
	str := fstest.MapFS{
		"t.json":          {Data: []byte(`{"type":"string"}`)},
		"deep/t.json":     {Data: []byte(`{"$ref":"../t.json"}`)},
		"deep/up.json":    {Data: []byte(`{"$ref":"../../secret.json"}`)},
		"deep/inner.json": {Data: []byte(`{"type":"integer"}`)},
	}
	num := fstest.MapFS{"t.json": {Data: []byte(`{"type":"number"}`)}}
	remotes := map[string]fs.FS{"https://example.com/s/": str, "https://example.com/s/n": num}
	ref := func(u string) string { return `{"$ref":"` + u + `"}` }
	// A "../" is resolved in the URL, so it lands outside the prefix; an
	// encoded one reaches the path check.
	const outside = "URLs under a Remotes prefix can be referenced"
	passes := []struct{ name, schema, pass, fail string }{
		{"under the prefix", ref("https://example.com/s/t.json"), `"x"`, `1`},
		{"relative ref inside the remote", ref("https://example.com/s/deep/t.json"), `"x"`, `1`},
		{"longest prefix wins", ref("https://example.com/s/n/t.json"), `1.5`, `"x"`},
		{"percent-decoded path", ref("https://example.com/s/deep/%69nner.json"), `3`, `"x"`},
	}
	for _, tt := range passes {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewJSONSchema(tt.schema, JSONSchemaOptions{Remotes: remotes})
			if err != nil {
				t.Fatal(err)
			}
			if got := gradeOutput(g, tt.pass).Status; got != StatusPassed {
				t.Errorf("%s: got %v, want passed", tt.pass, got)
			}
			if got := gradeOutput(g, tt.fail).Status; got != StatusFailed {
				t.Errorf("%s: got %v, want failed", tt.fail, got)
			}
		})
	}
	refused := []struct {
		name, schema string
		remotes      map[string]fs.FS
		want         string // in the error
	}{
		{"no Remotes", ref("https://example.com/s/t.json"), nil, outside},
		{"other host", ref("https://example.org/s/t.json"), remotes, outside},
		{"other scheme", ref("http://example.com/s/t.json"), remotes, outside},
		{"prefix is not a path segment", ref("https://example.com/s2/t.json"), map[string]fs.FS{"https://example.com/s": str}, outside},
		{"missing file", ref("https://example.com/s/none.json"), remotes, "not exist"},
		{"dot-dot leaves the file system", ref("https://example.com/s/deep/../../x.json"), map[string]fs.FS{"https://example.com/s/deep/": str}, outside},
		{"encoded dot-dot", ref("https://example.com/s/%2e%2e/x.json"), remotes, ErrPathEscapes.Error()},
		{"relative ref leaves the file system", ref("https://example.com/s/deep/up.json"), remotes, outside},
		{"bad prefix: relative", `{}`, map[string]fs.FS{"schemas/": str}, "not an absolute URL"},
		{"bad prefix: no host", `{}`, map[string]fs.FS{"file:///schemas/": str}, "not an absolute URL"},
		{"bad prefix: fragment", `{}`, map[string]fs.FS{"https://example.com/s/#x": str}, "query or fragment"},
		{"bad prefix: nil file system", `{}`, map[string]fs.FS{"https://example.com/s/": nil}, "nil file system"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewJSONSchema(tt.schema, JSONSchemaOptions{Remotes: tt.remotes})
			if err == nil {
				t.Fatal("compiled; want an error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
	// The prefix "https://example.com/s" is read as ".../s/".
	if _, err := NewJSONSchema(ref("https://example.com/s/t.json"), JSONSchemaOptions{Remotes: map[string]fs.FS{"https://example.com/s": str}}); err != nil {
		t.Errorf("a prefix without a final slash: %v", err)
	}
}
