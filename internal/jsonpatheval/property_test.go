package jsonpatheval

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/jsonparse"
	"github.com/theory/jsonpath"
)

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
// the counted evaluator selects what the library (github.com/theory/jsonpath,
// the json_path grader's parser, whose Select is the reference) does (as multisets), and
// that under a small random budget it either selects the same nodes or
// stops with a budget error having spent no more than the budget and held
// no more than the node limit.
func TestJSONPathBudgetProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 5))
	for i := range 3000 {
		path := randomQuery(rng)
		text, _ := json.Marshal(randomDoc(rng, 5))
		q := compile(t, path)
		parse := func() any {
			v, err := jsonparse.Parse(string(text))
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		full := Eval(context.Background(), q, parse(), 0, DefaultMaxWork, DefaultMaxNodes)
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
		maxWork, maxNodes := 1+rng.IntN(2*full.Work+1), 1+rng.IntN(len(full.Nodes)+2)
		r := Eval(context.Background(), q, parse(), 0, maxWork, maxNodes)
		switch {
		case r.Err == nil:
			if !slices.Equal(canonical(r.Nodes), canonical(full.Nodes)) {
				t.Fatalf("%d: %s on %s under budget: got %v, want %v", i, path, text, r.Nodes, full.Nodes)
			}
		case errors.Is(r.Err, ErrWork) || errors.Is(r.Err, ErrNodes):
		default:
			t.Fatalf("%s: unexpected error %v", path, r.Err)
		}
		if r.Work > maxWork {
			t.Fatalf("%s: spent %d, budget %d", path, r.Work, maxWork)
		}
		if r.Held != len(r.Nodes) {
			t.Fatalf("%s: %d nodes still held after the run, %d returned", path, r.Held, len(r.Nodes))
		}
	}
}
