package schemabound

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// limit is the json_schema grader's default MaxVisits.
const limit = 16384

// compile compiles schema (2020-12) with the validator.
func compile(t testing.TB, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("file:///schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("file:///schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// decode reads JSON text as the validator's values.
func decode(t testing.TB, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// allocated returns the bytes f allocates (runtime.MemStats, not time).
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

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

func nest(depth int, key, leaf string) string {
	return strings.Repeat(`{"`+key+`":`, depth) + leaf + strings.Repeat("}", depth)
}

func TestFanOutRefused(t *testing.T) {
	for _, kw := range []string{"anyOf", "allOf", "oneOf"} {
		t.Run(kw, func(t *testing.T) {
			sch := compile(t, fanOutSchema(25, kw))
			var err error
			// Validating this schema once took gigabytes; refusing it must
			// take a few megabytes at most.
			bytes := allocated(func() { _, err = New(sch, limit, nil) })
			if !errors.Is(err, ErrTooComplex) {
				t.Fatalf("depth 25 %s fan-out: got %v, want ErrTooComplex", kw, err)
			}
			if !strings.Contains(err.Error(), "MaxVisits") || !strings.Contains(err.Error(), "16384") {
				t.Errorf("error %q does not name the limit", err)
			}
			if bytes > 16<<20 {
				t.Errorf("refusing allocated %d MB, want under 16", bytes>>20)
			}
		})
	}
	// A long chain of single references is cheap and is not refused.
	chain := strings.ReplaceAll(fanOutSchema(200, "allOf"), `},{"$ref"`, `},{"type":"string"},{"not":{"type":"null"}}],"x":[{"$ref"`)
	if _, err := New(compile(t, chain), limit, nil); err != nil {
		t.Errorf("a 200-level chain: %v", err)
	}
}

// TestFanOutLimit checks the limit where it falls: 12 levels visit
// 3·2^12+... nodes, under 16384; 13 levels pass it. A larger limit moves
// it.
func TestFanOutLimit(t *testing.T) {
	if _, err := New(compile(t, fanOutSchema(12, "anyOf")), limit, nil); err != nil {
		t.Errorf("depth 12: %v", err)
	}
	if _, err := New(compile(t, fanOutSchema(13, "anyOf")), limit, nil); !errors.Is(err, ErrTooComplex) {
		t.Errorf("depth 13: got %v, want ErrTooComplex", err)
	}
	sch := compile(t, fanOutSchema(13, "anyOf"))
	b, err := New(sch, 1<<15, nil)
	if err != nil {
		t.Fatalf("depth 13 with limit 32768: %v", err)
	}
	if err := b.Check(context.Background(), "ok"); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := sch.Validate("ok"); err != nil {
		t.Errorf("the validator refuses %q: %v", "ok", err)
	}
}

// TestFanOutUnderProperty hides the fan-out below the root: the bound
// follows child positions too.
func TestFanOutUnderProperty(t *testing.T) {
	inner := fanOutSchema(25, "anyOf")
	defs := inner[strings.Index(inner, `"$defs"`):]
	schema := `{"type":"object","properties":{"a":{"items":{"$ref":"#/$defs/d0"}}},` + defs
	if _, err := New(compile(t, schema), limit, nil); !errors.Is(err, ErrTooComplex) {
		t.Errorf("got %v, want ErrTooComplex", err)
	}
}

// TestRecursionBounded: recursive schemas whose work per position stays
// flat pass Check on deep instances; one whose work grows with depth
// passes on shallow instances and is refused on deep ones.
func TestRecursionBounded(t *testing.T) {
	ctx := context.Background()
	tree := compile(t, `{"type":"object","properties":{"c":{"$ref":"#"},"v":{"type":"integer"}},"additionalProperties":false}`)
	tb, err := New(tree, limit, nil)
	if err != nil {
		t.Fatal(err)
	}
	good, bad := decode(t, nest(3000, "c", `{"v":1}`)), decode(t, nest(3000, "c", `{"v":"x"}`))
	if err := tb.Check(ctx, good); err != nil || tree.Validate(good) != nil {
		t.Errorf("tree, 3000 levels: Check %v, validator %v, want both nil", err, tree.Validate(good))
	}
	if err := tb.Check(ctx, bad); err != nil || tree.Validate(bad) == nil {
		t.Errorf("tree, 3000 levels, bad leaf: Check %v (want nil), the validator passes it", err)
	}
	// At each level, a's two branches apply a again and b, and b
	// applies itself below: position d sees about 3d nodes.
	growing, err := New(compile(t, `{"$ref":"#/$defs/a","$defs":{
		"a":{"allOf":[{"properties":{"x":{"$ref":"#/$defs/a"}}},{"properties":{"x":{"$ref":"#/$defs/b"}}}]},
		"b":{"properties":{"x":{"$ref":"#/$defs/b"}}}}}`), 1000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if growing.SafeLength() != 0 {
		t.Errorf("growing: SafeLength %d, want 0 (the bound grows with depth)", growing.SafeLength())
	}
	if err := growing.Check(ctx, decode(t, nest(50, "x", "1"))); err != nil {
		t.Errorf("growing, 50 levels: %v", err)
	}
	if err := growing.Check(ctx, decode(t, nest(2000, "x", "1"))); !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), "1000") {
		t.Errorf("growing, 2000 levels: got %v, want ErrTooComplex naming the limit", err)
	}
	// The work is counted per level: the 12-level fan-out at the root
	// applies to the root alone, not to each of the 10,001 items.
	wide, err := New(compile(t, fanOutSchema(12, "anyOf")), limit, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := wide.Check(ctx, decode(t, "["+strings.Repeat("1,", 10000)+"1]")); err != nil {
		t.Errorf("wide: %v", err)
	}
}

func TestWorkBudget(t *testing.T) {
	// Every item gets the 12-level fan-out: 10,000 items times about
	// 12,000 visits passes the 2^26 budget.
	inner := fanOutSchema(12, "anyOf")
	defs := inner[strings.Index(inner, `"$defs"`):]
	b, err := New(compile(t, `{"items":{"$ref":"#/$defs/d0"},`+defs), limit, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.Check(ctx, decode(t, `["a","b"]`)); err != nil {
		t.Errorf("two items: %v", err)
	}
	if err := b.Check(ctx, decode(t, "["+strings.Repeat(`"a",`, 10000)+`"a"]`)); !errors.Is(err, ErrTooComplex) {
		t.Errorf("10,001 items: got %v, want ErrTooComplex", err)
	}
}

// bruteVisits counts, without memo, the schema nodes the validator may
// visit at the root of the DAG schemas FuzzBound builds; it stops past
// cap.
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
// anyOf/allOf/oneOf references and checks that the bound is exact for
// it: New refuses the schema exactly when the brute-force count of visits
// is over the limit.
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
		_, err := New(compile(t, b.String()), int(limit), nil)
		if refused := errors.Is(err, ErrTooComplex); refused != (want > int(limit)) {
			t.Fatalf("limit %d, brute count %d: refused=%v (%v)\n%s", limit, want, refused, err, b.String())
		}
		if err != nil && !errors.Is(err, ErrTooComplex) {
			t.Fatal(err)
		}
	})
}

// TestBoundConcurrent checks instances of growing depth at once, so that
// the bound table is extended while others read it (run with -race).
func TestBoundConcurrent(t *testing.T) {
	b, err := New(compile(t, `{"$ref":"#/$defs/a","$defs":{
		"a":{"allOf":[{"properties":{"x":{"$ref":"#/$defs/a"}}},{"properties":{"x":{"$ref":"#/$defs/b"}}}]},
		"b":{"properties":{"x":{"$ref":"#/$defs/b"}}}}}`), limit, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for i := range 8 {
		v := decode(t, nest(20+40*i, "x", "1"))
		go func() { done <- b.Check(context.Background(), v) }()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Errorf("got %v, want nil", err)
		}
	}
}

// TestCheckCancelled: a context that has ended stops Check while it
// extends the table.
func TestCheckCancelled(t *testing.T) {
	b, err := New(compile(t, `{"$ref":"#/$defs/a","$defs":{
		"a":{"allOf":[{"properties":{"x":{"$ref":"#/$defs/a"}}},{"properties":{"x":{"$ref":"#/$defs/b"}}}]},
		"b":{"properties":{"x":{"$ref":"#/$defs/b"}}}}}`), limit, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Check(ctx, decode(t, nest(500, "x", "1"))); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
