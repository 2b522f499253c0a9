package proctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// internal/schemabound's tests hold the bound itself to its counts (the
// limit where it falls, fan-out below the root, the work budget per
// instance, an exactness fuzz, allocation and concurrency); these check
// that the json_schema grader applies it: its default limit, MaxVisits,
// the errors it gives and a refused instance not graded.

// fanOutSchema is the attack: definitions that each reference the next
// twice through kw ("anyOf", "allOf", "oneOf"), depth levels deep, ending in
// {"type":"string"}. Validating a number against it visits about 3·2^depth
// schema nodes.
func fanOutSchema(depth int, kw string) string {
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	for i := range depth {
		fmt.Fprintf(&b, `"d%d":{%q:[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, kw, i+1, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string"}}}`, depth)
	return b.String()
}

func TestJSONSchemaFanOutRefused(t *testing.T) {
	for _, kw := range []string{"anyOf", "allOf", "oneOf"} {
		t.Run(kw, func(t *testing.T) {
			schema := fanOutSchema(25, kw)
			_, err := NewJSONSchema(schema, JSONSchemaOptions{})
			if !errors.Is(err, ErrSchemaTooComplex) {
				t.Fatalf("depth 25 %s fan-out: got %v, want ErrSchemaTooComplex", kw, err)
			}
			if !strings.Contains(err.Error(), "MaxVisits") || !strings.Contains(err.Error(), "16384") {
				t.Errorf("error %q does not name the limit", err)
			}
			// Under the spec compiler it is a spec error on the schema.
			_, err = NewCompiler().Compile([]byte(`{"type":"json_schema","schema":` + schema + `}`))
			var se *SpecError
			if !errors.As(err, &se) || se.Option != "schema" || !errors.Is(err, ErrSchemaTooComplex) {
				t.Errorf("spec: got %v, want a SpecError on schema wrapping ErrSchemaTooComplex", err)
			}
		})
	}
}

// TestJSONSchemaFanOutLimit checks that the default limit is 16384 (12
// levels visit 3·2^12+... nodes, under it; 13 levels pass it) and that
// MaxVisits moves it.
func TestJSONSchemaFanOutLimit(t *testing.T) {
	if _, err := NewJSONSchema(fanOutSchema(12, "anyOf"), JSONSchemaOptions{}); err != nil {
		t.Errorf("depth 12: %v", err)
	}
	if _, err := NewJSONSchema(fanOutSchema(13, "anyOf"), JSONSchemaOptions{}); !errors.Is(err, ErrSchemaTooComplex) {
		t.Errorf("depth 13: got %v, want ErrSchemaTooComplex", err)
	}
	g, err := NewJSONSchema(fanOutSchema(13, "anyOf"), JSONSchemaOptions{MaxVisits: 1 << 15})
	if err != nil {
		t.Fatalf("depth 13 with MaxVisits 32768: %v", err)
	}
	if got := gradeOutput(g, `"ok"`); got.Status != StatusPassed {
		t.Errorf("got %v (%s), want passed", got.Status, got.Reason)
	}
	if _, err := NewJSONSchema(`{}`, JSONSchemaOptions{MaxVisits: -1}); err == nil {
		t.Error("a negative MaxVisits was accepted")
	}
}

// TestJSONSchemaRecursionBounded: recursive schemas whose work per
// position stays flat compile and grade deep outputs; one whose work grows
// with depth is graded on shallow outputs and not graded on deep ones.
func TestJSONSchemaRecursionBounded(t *testing.T) {
	nest := func(depth int, key, leaf string) string {
		return strings.Repeat(`{"`+key+`":`, depth) + leaf + strings.Repeat("}", depth)
	}
	tree, err := NewJSONSchema(`{"type":"object","properties":{"c":{"$ref":"#"},"v":{"type":"integer"}},"additionalProperties":false}`, JSONSchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := gradeOutput(tree, nest(3000, "c", `{"v":1}`)); got.Status != StatusPassed {
		t.Errorf("tree, 3000 levels: got %v (%s), want passed", got.Status, got.Reason)
	}
	if got := gradeOutput(tree, nest(3000, "c", `{"v":"x"}`)); got.Status != StatusFailed {
		t.Errorf("tree, 3000 levels, bad leaf: got %v (%s), want failed", got.Status, got.Reason)
	}
	// At each level, a's two branches apply a again and b, and b
	// applies itself below: position d sees about 3d nodes.
	growing, err := NewJSONSchema(`{"$ref":"#/$defs/a","$defs":{
		"a":{"allOf":[{"properties":{"x":{"$ref":"#/$defs/a"}}},{"properties":{"x":{"$ref":"#/$defs/b"}}}]},
		"b":{"properties":{"x":{"$ref":"#/$defs/b"}}}}}`, JSONSchemaOptions{MaxVisits: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got := gradeOutput(growing, nest(50, "x", "1")); got.Status != StatusPassed {
		t.Errorf("growing, 50 levels: got %v (%s), want passed", got.Status, got.Reason)
	}
	got := gradeOutput(growing, nest(2000, "x", "1"))
	if got.Status != StatusNotGraded || !errors.Is(got.Err, ErrSchemaTooComplex) || !strings.Contains(got.Reason, "1000") {
		t.Errorf("growing, 2000 levels: got %v (%s), want not graded naming the limit", got.Status, got.Reason)
	}
	// The work is counted per level: the 12-level fan-out at the root
	// applies to the root alone, not to each of the 10,001 items.
	wide, err := NewJSONSchema(fanOutSchema(12, "anyOf"), JSONSchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := gradeOutput(wide, "["+strings.Repeat("1,", 10000)+"1]"); got.Status != StatusFailed {
		t.Errorf("wide: got %v (%s), want failed (an array is not a string)", got.Status, got.Reason)
	}
}

func TestJSONSchemaContext(t *testing.T) {
	g := MustJSONSchema(ticketSchema, JSONSchemaOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := g.Grade(ctx, &Sample{Output: `{"id":"A1","urgent":true}`})
	if got.Status != StatusNotGraded || !errors.Is(got.Err, context.Canceled) {
		t.Errorf("cancelled: got %v (%s), want not graded", got.Status, got.Reason)
	}
}
