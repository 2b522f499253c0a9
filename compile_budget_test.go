package proctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestCompileDepthLimits: a schema nested past MaxSchemaDepth and a query
// nested past MaxJSONPathNesting are refused by the spec compiler with a
// SpecError naming the option and the limit; one level less compiles.
func TestCompileDepthLimits(t *testing.T) {
	schema := func(n int) string { return strings.Repeat(`[`, n) + strings.Repeat(`]`, n) }
	path := func(n int) string { return "$" + strings.Repeat(`[?(`, n/2) + "@" + strings.Repeat(`)]`, n/2) }
	c := NewCompiler()
	for _, tc := range []struct {
		spec, option string
		sentinel     error
		limit        int
	}{
		{`{"type":"json_schema","schema":{"items":` + schema(MaxSchemaDepth) + `}}`, "schema", ErrSchemaTooDeep, MaxSchemaDepth},
		{`{"type":"json_path","exists":true,"path":"` + path(MaxJSONPathNesting+2) + `"}`, "path", ErrPathTooDeep, MaxJSONPathNesting},
	} {
		_, err := c.Compile([]byte(tc.spec))
		var se *SpecError
		if !errors.As(err, &se) || se.Option != tc.option || !errors.Is(err, tc.sentinel) || !strings.Contains(err.Error(), fmt.Sprint(tc.limit)) {
			t.Errorf("%.60s...: %v, want a SpecError on %q wrapping %v and naming %d", tc.spec, err, tc.option, tc.sentinel, tc.limit)
		}
	}
	for _, spec := range []string{
		`{"type":"json_schema","schema":{"items":` + schema(MaxSchemaDepth-1) + `}}`,
		`{"type":"json_path","exists":true,"path":"` + path(MaxJSONPathNesting) + `"}`,
	} {
		if _, err := c.Compile([]byte(spec)); err != nil && (errors.Is(err, ErrSchemaTooDeep) || errors.Is(err, ErrPathTooDeep)) {
			t.Errorf("%.60s... within the limit: %v", spec, err)
		}
	}
}

// TestSchemaFileDepth: a file a schema references is held to the same
// depth limit.
func TestSchemaFileDepth(t *testing.T) {
	deep := strings.Repeat(`{"items":`, MaxSchemaDepth+1) + `true` + strings.Repeat(`}`, MaxSchemaDepth+1)
	fsys := fstest.MapFS{"main.json": {Data: []byte(`{"$ref":"deep.json"}`)}, "deep.json": {Data: []byte(deep)}}
	_, err := NewJSONSchemaFile(fsys, "main.json", JSONSchemaOptions{})
	// The validator's loader error keeps the message, not the chain.
	if err == nil || !strings.Contains(err.Error(), ErrSchemaTooDeep.Error()) || !strings.Contains(err.Error(), "deep.json") {
		t.Errorf("referenced file %d deep: %v, want it refused as too deep", MaxSchemaDepth+1, err)
	}
}

// TestCompileContext: a spec compiled under an ended context is not
// compiled (no builder runs), and the error wraps the context's.
func TestCompileContext(t *testing.T) {
	c := NewCompiler()
	built := 0
	c.Register("count", func(o *SpecOptions) (Grader, error) {
		built++
		if o.Context().Err() != nil {
			t.Error("builder ran under an ended context")
		}
		return Func("count", func(context.Context, *Sample) Grade { return Pass("") }), nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := c.CompileContext(ctx, "live", []byte(`{"type":"all","graders":[{"type":"count"}]}`)); err != nil || built != 1 {
		t.Fatalf("live context: %v, %d builds", err, built)
	}
	cancel()
	_, err := c.CompileContext(ctx, "ended", []byte(`{"type":"all","graders":[{"type":"count"}]}`))
	if !errors.Is(err, context.Canceled) || built != 1 {
		t.Errorf("ended context: %v after %d builds, want context.Canceled and no build", err, built)
	}
}
