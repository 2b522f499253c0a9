package proctor_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"

	"github.com/proctorhq/proctor"
)

// A JSON Schema grader reads the JSON out of fences and prose, validates
// it, and names the first violation and where it is.
func ExampleNewJSONSchema() {
	g, err := proctor.NewJSONSchema(`{
		"type": "object",
		"required": ["id", "urgent"],
		"properties": {"id": {"type": "string"}, "urgent": {"type": "boolean"}}
	}`, proctor.JSONSchemaOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, out := range []string{
		"Here you go:\n```json\n{\"id\": \"A1\", \"urgent\": true}\n```",
		`{"id": 7, "urgent": true}`,
	} {
		grade := g.Grade(context.Background(), &proctor.Sample{Output: out})
		fmt.Println(strings.TrimSpace(grade.Status.String() + " " + grade.Reason))
	}
	// Output:
	// passed
	// failed schema violation at /id: got number, want string
}

// ExtractJSON is what every JSON grader reads; custom graders can use it
// too.
func ExampleExtractJSON() {
	fmt.Println(proctor.ExtractJSON("Sure! Here it is:\n```json\n{\"order\": \"A-17\"}\n```\nAnything else?"))
	fmt.Println(proctor.ExtractJSON(`The ticket is {"order": "A-17"}. Thanks!`))
	// Output:
	// {"order": "A-17"}
	// {"order": "A-17"}
}

// An output that parses whole is the value, even a JSON string whose text
// holds a brace; otherwise the first block that parses wins, so a broken
// block followed by a corrected one reads as the corrected one.
func ExampleExtractJSON_candidates() {
	fmt.Println(proctor.ExtractJSON(`"{\"foo\": \"bar\"}"`))
	fmt.Println(proctor.ExtractJSON("```json\n{\"order\": }\n```\nSorry, fixed:\n```json\n{\"order\": \"A-17\"}\n```"))
	// Output:
	// "{\"foo\": \"bar\"}"
	// {"order": "A-17"}
}

// Strict json_valid wants the whole output to be JSON: no fences, no prose.
func ExampleNewJSONValid_strict() {
	g := proctor.NewJSONValid(proctor.JSONValidOptions{Strict: true})
	for _, out := range []string{`{"order": "A-17"}`, "```json\n{\"order\": \"A-17\"}\n```"} {
		fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: out}).Status)
	}
	// Output:
	// passed
	// failed
}

// Strict json_schema validates the whole output, as an API's structured
// output must be: a fenced block fails with the syntax error instead of
// being looked into.
func ExampleJSONSchemaOptions_strict() {
	g := proctor.MustJSONSchema(`{"required": ["order"]}`, proctor.JSONSchemaOptions{Strict: true})
	for _, out := range []string{`{"order": "A-17"}`, "```json\n{\"order\": \"A-17\"}\n```"} {
		gr := g.Grade(context.Background(), &proctor.Sample{Output: out})
		if gr.Reason == "" {
			fmt.Println(gr.Status)
			continue
		}
		fmt.Println(gr.Status, gr.Reason)
	}
	// Output:
	// passed
	// failed output is not valid JSON: invalid JSON at offset 0: unexpected '`', want a value
}

// AnyBlock passes when any JSON value in the output validates, as
// promptfoo's contains-json does; FormatAssertion makes "format" an
// assertion.
func ExampleJSONSchemaOptions() {
	g, err := proctor.NewJSONSchema(`{"required": ["email"], "properties": {"email": {"format": "email"}}}`,
		proctor.JSONSchemaOptions{AnyBlock: true, FormatAssertion: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, out := range []string{
		`Draft: {"name": "Joe"}. Final: {"email": "joe@example.com"}`,
		`{"email": "@example.com"}`,
	} {
		grade := g.Grade(context.Background(), &proctor.Sample{Output: out})
		fmt.Println(strings.TrimSpace(grade.Status.String() + " " + grade.Reason))
	}
	// Output:
	// passed
	// failed no JSON block validates; the first: schema violation at /email: '@example.com' is not valid email: no local part
}

// A schema whose references fan out (each definition referring to the next
// twice) would make validation exponential; it is refused when it compiles.
func ExampleNewJSONSchema_fanOut() {
	var defs []string
	for i := range 25 {
		defs = append(defs, fmt.Sprintf(`"d%d": {"anyOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	schema := `{"$ref": "#/$defs/d0", "$defs": {` + strings.Join(defs, ",") + `, "d25": {"type": "string"}}}`
	_, err := proctor.NewJSONSchema(schema, proctor.JSONSchemaOptions{})
	fmt.Println(errors.Is(err, proctor.ErrSchemaTooComplex))
	// Output:
	// true
}

type Ticket struct {
	OrderID string `json:"order_id"`
	Urgent  bool   `json:"urgent"`
}

// DecodesInto checks that the output decodes into a Go type, strictly;
// DecodeJSON gives the value to custom graders that compare fields.
func ExampleDecodesInto() {
	g := proctor.DecodesInto[Ticket](proctor.DecodesOptions{})
	for _, out := range []string{
		"```json\n{\"order_id\": \"A-17\", \"urgent\": true}\n```",
		`{"order_id": "A-17", "urgent": "yes"}`,
	} {
		fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: out}).Status)
	}
	t, err := proctor.DecodeJSON[Ticket](`{"order_id": "A-17", "urgent": true}`)
	fmt.Println(t.OrderID, t.Urgent, err)
	// Output:
	// passed
	// failed
	// A-17 true <nil>
}

// A custom grader that checks one field decodes leniently, so a key the
// model adds does not break it; DecodeJSON refuses that key.
func ExampleDecodeJSONWith() {
	orderIs := func(want string) proctor.Grader {
		return proctor.Func("order_id", func(_ context.Context, s *proctor.Sample) proctor.Grade {
			t, err := proctor.DecodeJSONWith[Ticket](s.Output, proctor.DecodeOptions{AllowUnknownFields: true})
			switch {
			case err != nil:
				return proctor.Failf("output is not a ticket: %v", err)
			case t.OrderID != want:
				return proctor.Failf("order_id %q, want %q", t.OrderID, want)
			}
			return proctor.Pass("")
		})
	}
	out := "Done:\n```json\n{\"order_id\": \"A-17\", \"priority\": \"high\"}\n```"
	g := orderIs("A-17").Grade(context.Background(), &proctor.Sample{Output: out})
	fmt.Println(g.Status)
	_, err := proctor.DecodeJSON[Ticket](out)
	fmt.Println(err)
	// Output:
	// passed
	// json: unknown field "priority"
}

// A JSONPath grader compares the node a query selects; numbers compare by
// value.
func ExampleNewJSONPathEquals() {
	g, err := proctor.NewJSONPathEquals("$.items[0].qty", 2, proctor.JSONPathOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	grade := g.Grade(context.Background(), &proctor.Sample{Output: `{"items": [{"sku": "X-1", "qty": 2.0}]}`})
	fmt.Println(grade.Status)
	// Output:
	// passed
}

// A schema that names its shared parts by URL compiles offline with
// Remotes: each "$ref" under the prefix is read from the file system
// (here in memory; os.DirFS serves a folder), and nothing is fetched.
func ExampleJSONSchemaOptions_remotes() {
	schemas := fstest.MapFS{
		"address.json": {Data: []byte(`{"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}`)},
	}
	g, err := proctor.NewJSONSchema(`{
		"type": "object",
		"properties": {"ship_to": {"$ref": "https://example.com/schemas/address.json"}}
	}`, proctor.JSONSchemaOptions{Remotes: map[string]fs.FS{"https://example.com/schemas/": schemas}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, out := range []string{`{"ship_to": {"city": "Lyon"}}`, `{"ship_to": {"city": 69}}`} {
		grade := g.Grade(context.Background(), &proctor.Sample{Output: out})
		fmt.Println(strings.TrimSpace(grade.Status.String() + " " + grade.Reason))
	}
	// A URL outside every prefix is still refused.
	_, err = proctor.NewJSONSchema(`{"$ref": "https://example.org/other.json"}`,
		proctor.JSONSchemaOptions{Remotes: map[string]fs.FS{"https://example.com/schemas/": schemas}})
	fmt.Println(err != nil)
	// Output:
	// passed
	// failed schema violation at /ship_to/city: got number, want string
	// true
}
