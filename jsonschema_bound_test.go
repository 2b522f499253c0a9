package proctor

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

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

// allocated returns the bytes f allocates, from the runtime's counters.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestJSONSchemaFanOutRefused(t *testing.T) {
	for _, kw := range []string{"anyOf", "allOf", "oneOf"} {
		t.Run(kw, func(t *testing.T) {
			schema := fanOutSchema(25, kw)
			var err error
			// Validating this schema once took gigabytes; refusing it must
			// take a few megabytes at most.
			bytes := allocated(func() { _, err = NewJSONSchema(schema, JSONSchemaOptions{}) })
			if !errors.Is(err, ErrSchemaTooComplex) {
				t.Fatalf("depth 25 %s fan-out: got %v, want ErrSchemaTooComplex", kw, err)
			}
			if !strings.Contains(err.Error(), "MaxVisits") || !strings.Contains(err.Error(), "16384") {
				t.Errorf("error %q does not name the limit", err)
			}
			if bytes > 16<<20 {
				t.Errorf("refusing allocated %d MB, want under 16", bytes>>20)
			}
			// Under the spec compiler it is a spec error on the schema.
			_, err = NewCompiler().Compile([]byte(`{"type":"json_schema","schema":` + schema + `}`))
			var se *SpecError
			if !errors.As(err, &se) || se.Option != "schema" || !errors.Is(err, ErrSchemaTooComplex) {
				t.Errorf("spec: got %v, want a SpecError on schema wrapping ErrSchemaTooComplex", err)
			}
		})
	}
	// A long chain of single references is cheap and compiles.
	chain := strings.ReplaceAll(fanOutSchema(200, "allOf"), `},{"$ref"`, `},{"type":"string"},{"not":{"type":"null"}}],"x":[{"$ref"`)
	if _, err := NewJSONSchema(chain, JSONSchemaOptions{}); err != nil {
		t.Errorf("a 200-level chain: %v", err)
	}
}

// TestJSONSchemaFanOutLimit checks the limit where it falls: 12 levels
// visit 3·2^12+... nodes, under 16384; 13 levels pass it. MaxVisits moves
// it.
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

// TestJSONSchemaFanOutUnderProperty hides the fan-out below the root:
// the bound follows child positions too.
func TestJSONSchemaFanOutUnderProperty(t *testing.T) {
	inner := fanOutSchema(25, "anyOf")
	defs := inner[strings.Index(inner, `"$defs"`):]
	schema := `{"type":"object","properties":{"a":{"items":{"$ref":"#/$defs/d0"}}},` + defs
	if _, err := NewJSONSchema(schema, JSONSchemaOptions{}); !errors.Is(err, ErrSchemaTooComplex) {
		t.Errorf("got %v, want ErrSchemaTooComplex", err)
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

func TestJSONSchemaWorkBudget(t *testing.T) {
	// Every item gets the 12-level fan-out: 10,000 items times about
	// 12,000 visits passes the 2^26 budget.
	inner := fanOutSchema(12, "anyOf")
	defs := inner[strings.Index(inner, `"$defs"`):]
	g, err := NewJSONSchema(`{"items":{"$ref":"#/$defs/d0"},`+defs, JSONSchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := gradeOutput(g, `["a","b"]`); got.Status != StatusPassed {
		t.Errorf("two items: got %v (%s), want passed", got.Status, got.Reason)
	}
	got := gradeOutput(g, "["+strings.Repeat(`"a",`, 10000)+`"a"]`)
	if got.Status != StatusNotGraded || !errors.Is(got.Err, ErrSchemaTooComplex) {
		t.Errorf("10,001 items: got %v (%s), want not graded", got.Status, got.Reason)
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

// bruteVisits counts, without memo, the schema nodes the validator may
// visit at the root of the DAG schemas FuzzJSONSchemaBound builds; it stops
// past cap.
func bruteVisits(defs [][]int, leaf []bool, i, cap int) int {
	n := 1
	if leaf[i] {
		return n
	}
	for _, t := range defs[i] {
		n += 1 + bruteVisits(defs, leaf, t, cap) // the {"$ref"} item, then the target
		if n > cap {
			return n
		}
	}
	return n
}

// FuzzJSONSchemaBound builds a random DAG of definitions joined by
// anyOf/allOf/oneOf references and checks that the load-time bound is
// exact for it: the schema compiles exactly when the brute-force count of
// visits is within MaxVisits.
func FuzzJSONSchemaBound(f *testing.F) {
	f.Add([]byte{3, 1, 2, 2, 1, 2, 0}, uint16(100))
	f.Add([]byte{12, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, uint16(5000))
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		if len(data) == 0 || limit == 0 {
			return
		}
		n := int(data[0])%14 + 1
		data = data[1:]
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		defs := make([][]int, n+1)
		leaf := make([]bool, n+1)
		leaf[n] = true
		var b strings.Builder
		b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
		for i := range n {
			kw := []string{"anyOf", "allOf", "oneOf"}[next()%3]
			refs := next()%3 + 1
			fmt.Fprintf(&b, `"d%d":{%q:[`, i, kw)
			for r := range refs {
				target := i + 1 + next()%(n-i)
				defs[i] = append(defs[i], target)
				if r > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"$ref":"#/$defs/d%d"}`, target)
			}
			b.WriteString("]},")
		}
		fmt.Fprintf(&b, `"d%d":{"type":"string"}}}`, n)
		want := 1 + bruteVisits(defs, leaf, 0, int(limit)+1) // the root, then d0
		_, err := NewJSONSchema(b.String(), JSONSchemaOptions{MaxVisits: int(limit)})
		if refused := errors.Is(err, ErrSchemaTooComplex); refused != (want > int(limit)) {
			t.Fatalf("limit %d, brute count %d: refused=%v (%v)\n%s", limit, want, refused, err, b.String())
		}
		if err != nil && !errors.Is(err, ErrSchemaTooComplex) {
			t.Fatal(err)
		}
	})
}

// TestJSONSchemaBoundConcurrent grades outputs of growing depth at once,
// so that the bound table is extended while others read it (run with
// -race).
func TestJSONSchemaBoundConcurrent(t *testing.T) {
	g, err := NewJSONSchema(`{"$ref":"#/$defs/a","$defs":{
		"a":{"allOf":[{"properties":{"x":{"$ref":"#/$defs/a"}}},{"properties":{"x":{"$ref":"#/$defs/b"}}}]},
		"b":{"properties":{"x":{"$ref":"#/$defs/b"}}}}}`, JSONSchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Status)
	for i := range 8 {
		go func() {
			depth := 20 + 40*i
			out := strings.Repeat(`{"x":`, depth) + "1" + strings.Repeat("}", depth)
			done <- gradeOutput(g, out).Status
		}()
	}
	for range 8 {
		if s := <-done; s != StatusPassed {
			t.Errorf("got %v, want passed", s)
		}
	}
}
