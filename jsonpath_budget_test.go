package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/proctorhq/proctor/internal/jsonpatheval"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/theory/jsonpath"
)

// allocated returns the bytes f allocates (runtime.MemStats, not time).
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

func nested(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }

// TestJSONPathBlowUp grades the inputs that exhausted memory with the old
// engine ($..*..*..* on 300 nested arrays ran out of memory; $..* on
// 10,000-deep nesting took 885 MB): each ends within a bounded number of
// allocated bytes, with a verdict when the work fits the budget and not
// graded with the reason when it does not.
func TestJSONPathBlowUp(t *testing.T) {
	// Not parallel: it measures what each grade allocates.
	tests := []struct {
		name, path string
		want       any
		doc        string
		status     Status
		reason     string
		maxBytes   uint64
		why        string
	}{
		{"3 descendants, 300 deep", "$..*..*..*", 1, nested(300), StatusFailed, "is [[[", 8 << 20,
			"a scalar wants one node: the last segment stops at two"},
		{"3 descendants then index", "$..*..*..*[0]", 1, nested(300), StatusNotGraded, "max_", 32 << 20,
			"the third segment's list (4.5 million nodes) is over budget"},
		{"4 descendants", "$..*..*..*..*", []any{1}, nested(300), StatusNotGraded, "max_", 32 << 20,
			"hundreds of millions of nodes"},
		{"descendant, 10000 deep", "$..*", 1, nested(10000), StatusFailed, "is [[[[[[", 4 << 20,
			"10,000 nodes fit; the reason is clipped without building the rest"},
		{"descendant list, 10000 deep", "$..*", []any{}, nested(10000), StatusFailed, "is [[[[[[", 4 << 20,
			"an empty list wants no node: the evaluation stops at the first"},
		{"2 descendants, 10000 deep", "$..*..*[0]", 1, nested(10000), StatusNotGraded, "max_", 32 << 20,
			"50 million visits"},
		{"count in a filter", "$[?count(@..*..*..*) > 0]", 1, "[" + nested(300) + "]", StatusNotGraded, "max_nodes", 1 << 20,
			"the nested query's worst case is charged before the library builds it"},
		{"pattern from the document", "$.c[?match(@, $.p)]", 1, `{"p":"` + strings.Repeat("(a|b)", 1<<13) + `","c":[` + strings.Repeat(`"ab",`, 20000) + `"ab"]}`,
			StatusNotGraded, "max_work", 32 << 20, "the library compiles the pattern once per string: 20,000 compilations of 40 KB"},
		{"existence in a filter", "$[?@..*..*..*[0]]", 1, "[" + nested(300) + "]", StatusNotGraded, "max_", 32 << 20,
			"existence tests run in the counted evaluator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewJSONPathEquals(tt.path, tt.want, JSONPathOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got Grade
			n := allocated(func() { got = gradeOutput(g, tt.doc) })
			if got.Status != tt.status || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("got %v (%s), want %v with %q: %s", got.Status, got.Reason, tt.status, tt.reason, tt.why)
			}
			if len(got.Reason) > 300 {
				t.Errorf("reason is %d bytes long", len(got.Reason))
			}
			if n > tt.maxBytes {
				t.Errorf("allocated %d bytes, want at most %d", n, tt.maxBytes)
			}
			t.Logf("%s: %v, %d KiB allocated", tt.path, got.Status, n>>10)
		})
	}
}

// TestJSONPathContext: a cancelled context stops a long evaluation, not
// graded with the context's error.
func TestJSONPathContext(t *testing.T) {
	g := MustJSONPathEquals("$..*..*[0]", 1, JSONPathOptions{MaxWork: 1 << 40})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := g.Grade(ctx, &Sample{Output: nested(3000)})
	if got.Status != StatusNotGraded || !errors.Is(got.Err, context.Canceled) {
		t.Fatalf("got %v (%s, %v), want not graded with context.Canceled", got.Status, got.Reason, got.Err)
	}
}

// TestJSONPathReasonClip: a failure reason costs what it shows, not the
// size of the nodes it names.
func TestJSONPathReasonClip(t *testing.T) {
	long := `{"a":"` + strings.Repeat("x", 1<<20) + `","b":` + nested(5000) + `}`
	p := jsonparse.Parser{Native: true}
	doc, err := p.Parse(long)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	n := allocated(func() { s = showJSON(doc) })
	if want := `{"a":"xxxx`; !strings.HasPrefix(s, want) || !strings.HasSuffix(s, "…") || len([]rune(s)) > reasonClip+1 {
		t.Errorf("got %q", s)
	}
	if n > 16<<10 {
		t.Errorf("showJSON allocated %d bytes for an %d-byte value", n, len(long))
	}
	for _, tt := range []struct {
		v    any
		want string
	}{
		{map[string]any{"b": int64(1), "a": []any{true, nil, "q\"\n"}}, `{"a":[true,null,"q\"\n"],"b":1}`},
		{[]any{1.5, json.Number("12345678901234567890")}, `[1.5,12345678901234567890]`},
	} {
		if got := showJSON(tt.v); got != tt.want {
			t.Errorf("showJSON(%v) = %s, want %s", tt.v, got, tt.want)
		}
		b, _ := json.Marshal(tt.v)
		if string(b) != tt.want {
			t.Errorf("encoding/json writes %s, showJSON %s", b, tt.want)
		}
	}
}

// randomQuery builds a query from a small RFC 9535 vocabulary, heavy on
// descendants, wildcards and filters.
func randomQuery(rng *rand.Rand) string {
	segs := []string{".a", ".b", "[0]", "[-1]", "[*]", ".*", "..*", "..a", "..[0]", "[0:2]", "[::-1]", "['a','b']",
		"[?@.a]", "[?@ == 1]", "[?@.a == @.b]", "[?count(@.*) > 1]", "[?@..a]", "[?!@.b]", "[?length(@) > 1 || @ == 'x']",
		"[?value(@..b) == 2]", "[?$..a]"}
	var b strings.Builder
	b.WriteString("$")
	for range 1 + rng.IntN(4) {
		b.WriteString(segs[rng.IntN(len(segs))])
	}
	return b.String()
}

// randomDoc builds a JSON value with up to depth levels.
func randomDoc(rng *rand.Rand, depth int) any {
	if depth == 0 || rng.IntN(4) == 0 {
		return []any{int64(1), 1.0, int64(2), "x", nil, true}[rng.IntN(6)]
	}
	n := rng.IntN(4)
	if rng.IntN(2) == 0 {
		a := make([]any, n)
		for i := range a {
			a[i] = randomDoc(rng, depth-1)
		}
		return a
	}
	m := map[string]any{}
	for i := range n {
		m[string(rune('a'+i))] = randomDoc(rng, depth-1)
	}
	return m
}

// canonical writes each node as sorted JSON and sorts them: node lists
// compared as multisets, since the library visits members in map order.
func canonical(nodes []any) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		b, _ := json.Marshal(n)
		out[i] = string(b)
	}
	slices.Sort(out)
	return out
}

// TestJSONPathBudgetProperty checks, on random queries and documents, that
// the counted evaluator selects what the library does (as multisets), and
// that under a small random budget it either selects the same nodes or
// stops with a budget error having spent no more than the budget and held
// no more than the node limit.
func TestJSONPathBudgetProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 5))
	for i := range 3000 {
		path := randomQuery(rng)
		text, _ := json.Marshal(randomDoc(rng, 5))
		g, err := NewJSONPathExists(path, true, JSONPathOptions{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		parse := func() any {
			v, err := jsonparse.Parse(string(text))
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		full := g.run(context.Background(), parse(), 0)
		if full.Err != nil {
			t.Fatalf("%s on %s: %v", path, text, full.Err)
		}
		var lib any
		if err := json.Unmarshal(text, &lib); err != nil {
			t.Fatal(err)
		}
		if want, got := canonical(jsonpath.MustParse(path).Select(lib)), canonical(full.Nodes); !slices.Equal(got, want) {
			t.Fatalf("%s on %s: got %v, library %v", path, text, got, want)
		}
		small := *g
		small.maxWork, small.maxNodes = 1+rng.IntN(2*full.Work+1), 1+rng.IntN(len(full.Nodes)+2)
		r := small.run(context.Background(), parse(), 0)
		switch {
		case r.Err == nil:
			if !slices.Equal(canonical(r.Nodes), canonical(full.Nodes)) {
				t.Fatalf("%d: %s on %s under budget: got %v, want %v", i, path, text, r.Nodes, full.Nodes)
			}
		case errors.Is(r.Err, jsonpatheval.ErrWork) || errors.Is(r.Err, jsonpatheval.ErrNodes):
		default:
			t.Fatalf("%s: unexpected error %v", path, r.Err)
		}
		if r.Work > small.maxWork {
			t.Fatalf("%s: spent %d, budget %d", path, r.Work, small.maxWork)
		}
		if r.Held != len(r.Nodes) {
			t.Fatalf("%s: %d nodes still held after the run, %d returned", path, r.Held, len(r.Nodes))
		}
	}
}

// FuzzJSONPath: any selector and output, built through the spec path's
// constructor, grades without panic to a valid status; a selector RFC
// 9535 accepts compiles, and one it rejects does not.
func FuzzJSONPath(f *testing.F) {
	f.Add("$.a", `{"a":1}`)
	f.Add("$..b[0]", `{"a":{"b":[1]}}`)
	f.Add("$[?(@.x > 1)]", `[{"x":2}]`)
	f.Add("$[1,5:7]", `[0,1,2,3,4,5,6,7]`)
	f.Add("$[?@.a==@.b || count(@.*)>1]", `[{"a":[1],"b":[1.0]}]`)
	f.Add(`$[?match(@.a, "a.*")]`, `[{"a":"ab"}]`)
	f.Add("$..*..*..*", nested(40))
	f.Add("$[?value(@..x) == 'y']", `{"a":{"x":"y"}}`)
	f.Add("$['\\uD83D\\uDE00']", `{"😀":1}`)
	f.Fuzz(func(t *testing.T, path, output string) {
		if len(path) > 128 || len(output) > 4096 {
			return
		}
		_, libErr := jsonpath.Parse(path)
		g, err := NewJSONPathExists(path, true, JSONPathOptions{MaxWork: 1 << 16})
		if (err == nil) != (libErr == nil) {
			t.Fatalf("%q: built %v, library %v", path, err, libErr)
		}
		if err != nil {
			return
		}
		got := gradeOutput(g, output)
		if got.Status != StatusPassed && got.Status != StatusFailed && got.Status != StatusNotGraded {
			t.Fatalf("status %v (%s)", got.Status, got.Reason)
		}
		if got.Status == StatusNotGraded && got.Err == nil {
			t.Fatalf("not graded without a cause: %s", got.Reason)
		}
	})
}

// TestJSONPathConcurrent grades one filter query from many goroutines
// (run with -race): the compiled query is shared, each grade's state is
// its own.
func TestJSONPathConcurrent(t *testing.T) {
	t.Parallel()
	g := MustJSONPathEquals(`$..[?@.a == @.b && match(@.s, "x.") && count(@..*) > 1].s`, "xy", JSONPathOptions{})
	out := `{"k":[{"a":[1],"b":[1.0],"s":"xy"},{"a":1,"b":2,"s":"xz"}]}`
	done := make(chan Grade)
	for range 8 {
		go func() {
			var last Grade
			for range 5 {
				last = gradeOutput(g, out)
			}
			done <- last
		}()
	}
	for range 8 {
		if got := <-done; got.Status != StatusPassed {
			t.Errorf("got %v (%s)", got.Status, got.Reason)
		}
	}
}
