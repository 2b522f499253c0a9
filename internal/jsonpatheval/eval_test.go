package jsonpatheval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/theory/jsonpath"
)

func compile(t testing.TB, path string) *Query {
	t.Helper()
	q, err := Compile(jsonpath.MustParse(path).Query())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestEvalAgreesWithLibrary: on a small document, Eval selects what the
// library's own evaluation selects (the library, github.com/theory/jsonpath
// v0.12.3, is the reference; member order may differ, so sets compare).
func TestEvalAgreesWithLibrary(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"a":[1,{"b":2},{"b":[3,4]}],"c":{"d":"x","e":null}}`), &doc); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{`$.a[*]`, `$..b`, `$.a[?@.b]`, `$.a[?!@.b]`, `$.a[?@.b == 2]`, `$..*`, `$.a[?$.c.d]`, `$.a[1:]`, `$.c[?@ == null]`} {
		got := Eval(context.Background(), compile(t, path), doc, 0, DefaultMaxWork, DefaultMaxNodes)
		if got.Err != nil {
			t.Fatalf("%s: %v", path, got.Err)
		}
		want := jsonpath.MustParse(path).Select(doc)
		if a, b := set(got.Nodes), set(want); a != b || got.Held != len(got.Nodes) {
			t.Errorf("%s: got %s (held %d), library %s", path, a, got.Held, b)
		}
	}
}

func set(nodes []any) string {
	var out []string
	for _, n := range nodes {
		b, _ := json.Marshal(n)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestEvalBudgets: a query that would visit more than the work budget, or
// hold more nodes, stops with the budget's error, within the budget.
func TestEvalBudgets(t *testing.T) {
	doc := any([]any{})
	for range 12 {
		doc = []any{doc, doc}
	}
	r := Eval(context.Background(), compile(t, `$..*..*`), doc, 0, 1000, DefaultMaxNodes)
	if !errors.Is(r.Err, ErrWork) || r.Work > 1000 {
		t.Errorf("work budget 1000: %v after %d", r.Err, r.Work)
	}
	r = Eval(context.Background(), compile(t, `$..*`), doc, 0, DefaultMaxWork, 100)
	if !errors.Is(r.Err, ErrNodes) {
		t.Errorf("node budget 100: %v", r.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = Eval(ctx, compile(t, `$..*..*`), doc, 0, DefaultMaxWork, DefaultMaxNodes)
	if !errors.Is(r.Err, context.Canceled) {
		t.Errorf("cancelled: %v", r.Err)
	}
}

// TestIsAbsolute: a nested query's start ($ or @) is read without writing
// its text.
func TestIsAbsolute(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{{`$[?@.a]`, false}, {`$[?$.a]`, true}} {
		q := compile(t, tc.path)
		if !q.absolute {
			t.Fatalf("%s: the top query is not absolute", tc.path)
		}
		if got := q.segs[0].sels[0].filter.subs[0].subs[0].query.absolute; got != tc.want {
			t.Errorf("%s: nested query absolute = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// BenchmarkCompileNesting: compiling n nested filters; ns/op and B/op grow
// linearly in n.
func BenchmarkCompileNesting(b *testing.B) {
	for _, n := range []int{8, 32, 128} {
		p := jsonpath.MustParse("$" + strings.Repeat(`[?@`, n) + strings.Repeat(`]`, n)).Query()
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
