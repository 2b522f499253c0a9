package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ohler55/ojg/jp"
	"github.com/ohler55/ojg/oj"
	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/proctorhq/proctor/internal/jsonpatheval"
	"github.com/theory/jsonpath"
)

const pathDoc = `{"items":[{"sku":"X-1","qty":2,"price":1.0},{"sku":"Y-2","qty":1,"price":2.5}],
 "meta":{"model":"gpt-4o-mini","score":0.5,"big":12345678901234567890,"nil":null,"flag":false},"tags":["a","b"]}`

func TestJSONPath(t *testing.T) {
	tests := []struct {
		name   string
		build  func() (*JSONPath, error)
		output string
		want   Status
		why    string
	}{
		{"equals string", eqPath("$.items[0].sku", "X-1"), pathDoc, StatusPassed, "the contract case"},
		{"equals wrong", eqPath("$.items[0].sku", "Y-2"), pathDoc, StatusFailed, "different value"},
		{"bracket notation", eqPath(`$["items"][1]['sku']`, "Y-2"), pathDoc, StatusPassed, "RFC 9535 bracketed names"},
		{"negative index", eqPath("$.items[-1].qty", 1), pathDoc, StatusPassed, "-1 is the last element"},
		{"int equals float", eqPath("$.items[0].price", 1), pathDoc, StatusPassed, "1 == 1.0 by value"},
		{"float equals int", eqPath("$.items[0].qty", 2.0), pathDoc, StatusPassed, "2.0 == 2 by value"},
		{"float", eqPath("$.meta.score", 0.5), pathDoc, StatusPassed, "decimals compare as numbers"},
		{"big integer exact", eqPath("$.meta.big", json.Number("12345678901234567890")), pathDoc, StatusPassed, "big integers are not rounded"},
		{"big integer off by one", eqPath("$.meta.big", json.Number("12345678901234567891")), pathDoc, StatusFailed, "rounding would make these equal"},
		{"null", eqPath("$.meta.nil", nil), pathDoc, StatusPassed, "null equals null"},
		{"false is not null", eqPath("$.meta.flag", nil), pathDoc, StatusFailed, "false is not null"},
		{"object order free", eqPath("$.items[0]", map[string]any{"price": 1, "qty": 2, "sku": "X-1"}), pathDoc, StatusPassed, "object members in any order"},
		{"array in order", eqPath("$.tags", []any{"b", "a"}), pathDoc, StatusFailed, "arrays are ordered"},
		{"missing fails equals", eqPath("$.nope", "x"), pathDoc, StatusFailed, "a singular query that selects nothing"},
		{"wildcard list", eqPath("$.items[*].sku", []any{"X-1", "Y-2"}), pathDoc, StatusPassed, "a non-singular query compares its node list"},
		{"wildcard list wrong order", eqPath("$.items[*].sku", []any{"Y-2", "X-1"}), pathDoc, StatusFailed, "the node list keeps document order"},
		{"filter single", eqPath("$.items[?(@.qty > 1)].sku", "X-1"), pathDoc, StatusPassed, "a scalar expected value needs exactly one node"},
		{"filter several vs scalar", eqPath("$.items[?(@.qty > 0)].sku", "X-1"), pathDoc, StatusFailed, "two nodes cannot equal one scalar"},
		{"filter on float", eqPath("$.items[?(@.price == 2.5)].sku", "Y-2"), pathDoc, StatusPassed, "filters compare numbers"},
		{"descendant", eqPath("$..model", "gpt-4o-mini"), pathDoc, StatusPassed, "descendant segment"},
		{"exists", existsPath("$.items[0].sku", true), pathDoc, StatusPassed, "present"},
		{"exists null", existsPath("$.meta.nil", true), pathDoc, StatusPassed, "a null member exists"},
		{"missing exists", existsPath("$.missing", true), `{"a": 1}`, StatusFailed, "the contract case"},
		{"absent wanted", existsPath("$.missing", false), `{"a": 1}`, StatusPassed, "exists false passes on nothing"},
		{"present unwanted", existsPath("$.a", false), `{"a": 1}`, StatusFailed, "exists false fails on a node"},
		{"wildcard exists", existsPath("$.items[*]", true), pathDoc, StatusPassed, "non-singular exists"},
		{"index past end", existsPath("$.tags[5]", true), pathDoc, StatusFailed, "out of range"},
		{"name on array", existsPath("$.tags.a", true), pathDoc, StatusFailed, "a name selects nothing in an array"},
		{"one_of", oneOfPath("$.meta.model", "gpt-4o", "gpt-4o-mini"), pathDoc, StatusPassed, "second value matches"},
		{"one_of none", oneOfPath("$.meta.model", "o1", "o3"), pathDoc, StatusFailed, "none matches"},
		{"one_of number", oneOfPath("$.items[1].qty", 3, 1.0), pathDoc, StatusPassed, "numbers by value"},
		{"fenced output", eqPath("$.order", "A-1"), "As the order {\"order\": \"A-1\"}", StatusPassed, "prose removed"},
		{"not json", eqPath("$.a", 1), `{"a": 1`, StatusFailed, "unparseable output fails"},
		// RFC 9535 behaviour beyond the CTS that graders rely on.
		{"deep equality by value", eqPath("$[?@.a == @.b].id", "x"), `[{"id":"x","a":[1,{"c":2}],"b":[1.0,{"c":2e0}]},{"id":"y","a":[1],"b":[2]}]`, StatusPassed,
			"arrays and objects compare member by member, numbers by value (RFC 9535 2.3.5.2.2)"},
		{"members by name", eqPath("$.*", []any{1, 2, 3}), `{"c":3,"a":1,"b":2}`, StatusPassed, "object members are visited in order of their names"},
		{"union", eqPath("$[0,2:4,-1]", []any{0, 2, 3, 5}), `[0,1,2,3,4,5]`, StatusPassed, "a union keeps its selectors' order"},
		{"union duplicates", eqPath("$[0,0]", []any{7, 7}), `[7]`, StatusPassed, "nodes are not deduplicated"},
		{"or", eqPath("$[?@ == 1 || @ == 'a']", []any{1, "a"}), `[1,2,"a"]`, StatusPassed, "logical or"},
		{"functions", eqPath(`$[?length(@.s) == 2 && match(@.s, "a.") && count(@.*) == 1].s`, "ab"), `[{"s":"ab"},{"s":"abc"}]`, StatusPassed, "length, match and count"},
		{"search value", eqPath(`$[?search(value(@..t), "^x")].id`, 1), `[{"id":1,"u":{"t":"xy"}},{"id":2,"t":"yx"}]`, StatusPassed, "value of a singleton node list"},
		{"too many nodes", eqPath("$[*]", []any{1}), `[1,1,1,1]`, StatusFailed, "the list is longer than the expected one"},
		{"exists false with nodes", existsPath("$..a", false), `{"x":{"a":1}}`, StatusFailed, "the reason names the first node"},
		{"big integers in lists", eqPath("$[*]", []any{json.Number("12345678901234567891")}), `[12345678901234567890]`, StatusFailed, "list members keep every digit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := tt.build()
			if err != nil {
				t.Fatal(err)
			}
			got := gradeOutput(g, tt.output)
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
			if got.Status == StatusFailed && !strings.Contains(got.Reason, "JSON") && !strings.Contains(got.Reason, g.Path()) {
				t.Errorf("reason %q names neither the path nor the JSON error", got.Reason)
			}
		})
	}
}

func eqPath(path string, want any) func() (*JSONPath, error) {
	return func() (*JSONPath, error) { return NewJSONPathEquals(path, want, JSONPathOptions{}) }
}

func existsPath(path string, exists bool) func() (*JSONPath, error) {
	return func() (*JSONPath, error) { return NewJSONPathExists(path, exists, JSONPathOptions{}) }
}

func oneOfPath(path string, values ...any) func() (*JSONPath, error) {
	return func() (*JSONPath, error) { return NewJSONPathOneOf(path, values, JSONPathOptions{}) }
}

func TestJSONPathErrors(t *testing.T) {
	for _, p := range []string{"", "$.a[", "a.b", "$[?(@.x ==]"} {
		if _, err := NewJSONPathExists(p, true, JSONPathOptions{}); err == nil {
			t.Errorf("path %q compiled", p)
		}
	}
	if _, err := NewJSONPathOneOf("$.a", nil, JSONPathOptions{}); err == nil {
		t.Error("one_of with no values compiled")
	}
	if _, err := NewJSONPathEquals("$.a", func() {}, JSONPathOptions{}); err == nil {
		t.Error("an expected value that is not JSON compiled")
	}
}

func TestJSONPathSpec(t *testing.T) {
	runSpecCases(t, NewCompiler(), []specCase{
		{"equals", `{"type":"json_path","path":"$.items[0].sku","equals":"X-1"}`, `{"items": [{"sku": "X-1"}]}`, StatusPassed},
		{"exists", `{"type":"json_path","path":"$.missing","exists":true}`, `{"a": 1}`, StatusFailed},
		{"one_of", `{"type":"json_path","path":"$.a","one_of":[1,{"b":2}]}`, `{"a": {"b": 2.0}}`, StatusPassed},
		{"equals object", `{"type":"json_path","path":"$","equals":{"a":[1,2]}}`, `{"a":[1,2]}`, StatusPassed},
		{"equals null", `{"type":"json_path","path":"$.a","equals":null}`, `{"a":null}`, StatusPassed},
		{"big number exact", `{"type":"json_path","path":"$.a","equals":12345678901234567891}`, `{"a":12345678901234567890}`, StatusFailed},
		{"big number equal", `{"type":"json_path","path":"$.a","one_of":[12345678901234567890]}`, `{"a":12345678901234567890.0}`, StatusPassed},
	})
	runSpecErrors(t, []specErrCase{
		{"no assertion", nil, `{"type":"json_path","path":"$.a"}`, "equals", nil},
		{"two assertions", nil, `{"type":"json_path","path":"$.a","equals":1,"exists":true}`, "equals", nil},
		{"no path", nil, `{"type":"json_path","equals":1}`, "path", nil},
		{"bad path", nil, `{"type":"json_path","path":"$.a[","equals":1}`, "path", nil},
		{"exists not bool", nil, `{"type":"json_path","path":"$.a","exists":"yes"}`, "exists", nil},
		{"one_of not array", nil, `{"type":"json_path","path":"$.a","one_of":1}`, "one_of", nil},
		{"one_of empty", nil, `{"type":"json_path","path":"$.a","one_of":[]}`, "one_of", nil},
		{"unknown option", nil, `{"type":"json_path","path":"$.a","equals":1,"mode":"x"}`, "mode", nil},
	})
}

func TestJSONEqual(t *testing.T) {
	tests := []struct {
		a, b any
		want bool
	}{
		{int64(1), 1.0, true},
		{json.Number("1.0"), int64(1), true},
		{json.Number("1e2"), 100.0, true},
		{0.1, json.Number("0.1"), true}, // floats compare as the decimal they were read from
		{0.1, json.Number("0.10000000000000001"), false},
		{"1", int64(1), false},
		{nil, false, false},
		{[]any{int64(1)}, []any{1.0}, true},
		{map[string]any{"a": int64(1)}, map[string]any{"a": 1.0}, true},
		{map[string]any{"a": int64(1)}, map[string]any{"b": int64(1)}, false},
		{true, true, true},
		{1.5, "x", false},
	}
	for _, tt := range tests {
		if got := jsonpatheval.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("jsonpatheval.Equal(%#v, %#v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func BenchmarkJSONPath(b *testing.B) {
	g, err := NewJSONPathEquals("$.metadata.model", "gpt-4o-mini", JSONPathOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("grader", func(b *testing.B) {
		s := &Sample{Output: benchJSON}
		b.ReportAllocs()
		for b.Loop() {
			gradeOutput(g, s.Output)
		}
	})
	b.Run("general", func(b *testing.B) {
		// The same check through a union: parse all, run the evaluator.
		g := MustJSONPathEquals("$.metadata['model','absent']", "gpt-4o-mini", JSONPathOptions{})
		b.ReportAllocs()
		for b.Loop() {
			if gradeOutput(g, benchJSON).Status != StatusPassed {
				b.Fatal("failed")
			}
		}
	})
	b.Run("parse+jsonpath.Select", func(b *testing.B) {
		x := jsonpath.MustParse("$.metadata['model','absent']")
		b.ReportAllocs()
		for b.Loop() {
			v, _ := jsonparse.Parse(benchJSON)
			if got := x.Select(v); len(got) != 1 || got[0] != "gpt-4o-mini" {
				b.Fatal(got)
			}
		}
	})
	b.Run("jp.Get", func(b *testing.B) {
		x := jp.MustParseString("$.metadata.model")
		v, err := oj.ParseString(benchJSON)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if got := x.Get(v); !reflect.DeepEqual(got, []any{"gpt-4o-mini"}) {
				b.Fatal(got)
			}
		}
	})
	b.Run("oj.Parse+jp.Get", func(b *testing.B) {
		x := jp.MustParseString("$.metadata.model")
		b.ReportAllocs()
		for b.Loop() {
			v, _ := oj.ParseString(benchJSON)
			_ = x.Get(v)
		}
	})
}

// TestJSONPathSingularFastPath checks that singular queries, which build
// only the selected value, select what the evaluator does, on random
// documents and queries.
func TestJSONPathSingularFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	docs := []string{pathDoc, `[1,[2,[3,4]],{"a":[5]}]`, `{"a":{"b":{"c":null}}}`, `"x"`, `[]`, `{"a":[],"b":{}}`}
	steps := []string{".a", ".b", ".c", ".items", ".meta", ".sku", ".model", "[0]", "[1]", "[-1]", "[2]", "[-3]", `["a"]`, `['b']`}
	for range 2000 {
		path := "$"
		for range rng.IntN(4) {
			path += steps[rng.IntN(len(steps))]
		}
		doc := docs[rng.IntN(len(docs))]
		g, err := NewJSONPathExists(path, true, JSONPathOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.singular == nil {
			t.Fatalf("%s not seen as singular", path)
		}
		v, err := jsonparse.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		want := g.run(context.Background(), v, 0).Nodes
		got, found, err := newParsers(true, false).selectPath(doc, g.singular)
		if err != nil || found != (len(want) == 1) || found && !jsonpatheval.Equal(got, want[0]) {
			t.Fatalf("%s on %s: got %v %v %v, evaluator %v", path, doc, got, found, err, want)
		}
	}
}

// TestJSONPathBudgetSpec: max_work and max_nodes from a spec.
func TestJSONPathBudgetSpec(t *testing.T) {
	runSpecCases(t, NewCompiler(), []specCase{
		{"max_work", `{"type":"json_path","path":"$..*..*","exists":true,"max_work":10}`, nested(20), StatusNotGraded},
		{"max_nodes", `{"type":"json_path","path":"$..*[0]","exists":true,"max_nodes":5}`, nested(20), StatusNotGraded},
		{"within budget", `{"type":"json_path","path":"$..*[0]","exists":true,"max_work":1000}`, nested(20), StatusPassed},
	})
	runSpecErrors(t, []specErrCase{
		{"negative max_work", nil, `{"type":"json_path","path":"$.a","exists":true,"max_work":-1}`, "max_work", nil},
		{"negative max_nodes", nil, `{"type":"json_path","path":"$.a","exists":true,"max_nodes":-1}`, "max_nodes", nil},
		{"union invalid", nil, `{"type":"json_path","path":"$[1,]","exists":true}`, "path", nil},
	})
}

// The json_path grader under its budgets: internal/jsonpatheval's
// TestJSONPathBudgetProperty holds the counted evaluator to the library and
// to its budgets; these check the grades the grader gives.

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
