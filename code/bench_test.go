package code

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os/exec"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func benchGrade(b *testing.B, g proctor.Grader, out string) {
	b.Helper()
	s := &proctor.Sample{Output: out}
	if got := g.Grade(context.Background(), s); got.Status != proctor.StatusPassed {
		b.Fatalf("got %v (%s), want passed", got.Status, got.Reason)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		g.Grade(context.Background(), s)
	}
}

const goSource1K = "```go\npackage lru\n\nimport \"container/list\"\n\ntype entry struct{ key, val string }\n\ntype LRU struct {\n\tmax   int\n\titems map[string]*list.Element\n\torder *list.List\n}\n\nfunc New(max int) *LRU {\n\treturn &LRU{max: max, items: map[string]*list.Element{}, order: list.New()}\n}\n\nfunc (c *LRU) Get(key string) (string, bool) {\n\te, ok := c.items[key]\n\tif !ok {\n\t\treturn \"\", false\n\t}\n\tc.order.MoveToFront(e)\n\treturn e.Value.(*entry).val, true\n}\n\nfunc (c *LRU) Put(key, val string) {\n\tif e, ok := c.items[key]; ok {\n\t\te.Value.(*entry).val = val\n\t\tc.order.MoveToFront(e)\n\t\treturn\n\t}\n\tc.items[key] = c.order.PushFront(&entry{key, val})\n\tif c.order.Len() > c.max {\n\t\tlast := c.order.Back()\n\t\tc.order.Remove(last)\n\t\tdelete(c.items, last.Value.(*entry).key)\n\t}\n}\n\nfunc (c *LRU) Len() int { return c.order.Len() }\n\nfunc (c *LRU) Keys() []string {\n\tkeys := make([]string, 0, c.order.Len())\n\tfor e := c.order.Front(); e != nil; e = e.Next() {\n\t\tkeys = append(keys, e.Value.(*entry).key)\n\t}\n\treturn keys\n}\n```\n"

func BenchmarkGoCompiles(b *testing.B) {
	benchGrade(b, NewGoCompiles(GoCompilesOptions{}), goSource1K)
}

// BenchmarkGoCompilesBareParser is the primitive: go/parser on the file.
func BenchmarkGoCompilesBareParser(b *testing.B) {
	src := codeBody(goSource1K, "go")
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		_, _ = parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	}
}

func BenchmarkPythonCompiles(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 not on PATH")
	}
	src := "```python\n" + strings.Repeat("def f(x):\n    return [i * x for i in range(10) if i % 2]\n\n", 17) + "```"
	benchGrade(b, NewPythonCompiles(PythonCompilesOptions{}), src)
}

// BenchmarkGoCompilesScaling grades 1x, 4x and 16x inputs: real code, and
// the hostile shape (a run of "(", which the parser would recurse into).
// B/op and ns/op per input byte must stay flat across sizes.
func BenchmarkGoCompilesScaling(b *testing.B) {
	body := codeBody(goSource1K, "go")
	decls := body[strings.Index(body, "type entry"):]
	for _, tc := range []struct {
		name string
		make func(k int) string
	}{
		{"code", func(k int) string { return body + strings.Repeat(decls, 8*k) }},
		{"parens", func(k int) string { return strings.Repeat("(", 7<<10*k) }},
	} {
		for _, k := range []int{1, 4, 16} {
			out := tc.make(k)
			b.Run(fmt.Sprintf("%s/%dx", tc.name, k), func(b *testing.B) {
				g := NewGoCompiles(GoCompilesOptions{})
				s := &proctor.Sample{Output: out}
				b.ReportAllocs()
				b.SetBytes(int64(len(out)))
				for b.Loop() {
					g.Grade(context.Background(), s)
				}
			})
		}
	}
}
