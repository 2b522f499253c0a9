package code

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

func TestGoCompiles(t *testing.T) {
	tests := []struct {
		name, out string
		want      proctor.Status
		why       string
	}{
		{"file in fence", "```go\npackage main\nfunc main() { println(1) }\n```", proctor.StatusPassed, "a whole file in a go fence"},
		{"prose around fence", "Here you go:\n```go\nx := 1\n_ = x\n```\nHope it helps.", proctor.StatusPassed, "statements in a fence, prose removed"},
		{"bare fence", "```\nfunc f() int { return 1 }\n```", proctor.StatusPassed, "a fence with no info string"},
		{"decls only", "func main() {}", proctor.StatusPassed, "a declaration list without a package clause"},
		{"statements", "for i := 0; i < 3; i++ {\n\tfmt.Println(i)\n}", proctor.StatusPassed, "statements"},
		{"types", "type T struct{ A int }\nfunc (t T) M() {}", proctor.StatusPassed, "types and methods"},
		{"syntax error", "func main( {", proctor.StatusFailed, "unbalanced parenthesis"},
		{"bad file", "package main\nfunc main() {", proctor.StatusFailed, "a file missing a brace"},
		{"undefined names pass", "package main\nfunc main() { undefinedThing() }", proctor.StatusPassed, "syntax only, no type checking"},
		{"python", "def f(x):\n    return x", proctor.StatusFailed, "Python is not Go"},
		{"empty", "", proctor.StatusFailed, "nothing to parse is not Go"},
	}
	g := NewGoCompiles(GoCompilesOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := g.Grade(context.Background(), out(tt.out))
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
		})
	}
}

func TestGoCompilesReasonLine(t *testing.T) {
	got := NewGoCompiles(GoCompilesOptions{}).Grade(context.Background(), out("x := 1\ny := (2\n"))
	if got.Status != proctor.StatusFailed || !strings.Contains(got.Reason, "line ") {
		t.Errorf("got %v %q, want a failure naming the line", got.Status, got.Reason)
	}
}

func TestPythonCompiles(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not on PATH")
	}
	t.Parallel()
	tests := []struct {
		name, out string
		want      proctor.Status
		reason    string
	}{
		{"function", "def f(x):\n    return x + 1\n", proctor.StatusPassed, ""},
		{"fenced", "Here:\n```python\nprint('hi')\n```\nDone.", proctor.StatusPassed, ""},
		{"missing colon", "def f(x)\n    return x", proctor.StatusFailed, "SyntaxError"},
		{"indentation", "def f():\nreturn 1", proctor.StatusFailed, "IndentationError"},
		{"never runs", "import os\nos._exit(0)\nraise SystemExit(1)\n", proctor.StatusPassed, ""},
		{"not executed", "while True:\n    pass\n", proctor.StatusPassed, ""},
		{"shell chars stay data", "x = '$(touch /tmp/proctor-pwned)'; `\n", proctor.StatusFailed, "SyntaxError"},
		{"null byte", "x = 1\x00", proctor.StatusFailed, "Error"},
	}
	g := NewPythonCompiles(PythonCompilesOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := g.Grade(context.Background(), out(tt.out))
			if got.Status != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("got %v (%q), want %v with %q", got.Status, got.Reason, tt.want, tt.reason)
			}
		})
	}
}

func TestPythonCompilesNotGraded(t *testing.T) {
	t.Parallel()
	g := NewPythonCompiles(PythonCompilesOptions{Python: "proctor-no-such-python"})
	got := g.Grade(context.Background(), out("x = 1"))
	if got.Status != proctor.StatusNotGraded || got.Err == nil {
		t.Errorf("missing interpreter: got %v (%s), want not graded with the cause", got.Status, got.Reason)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got = NewPythonCompiles(PythonCompilesOptions{}).Grade(ctx, out("x = 1"))
	if got.Status != proctor.StatusNotGraded || !errors.Is(got.Err, context.Canceled) {
		t.Errorf("cancelled: got %v (%s, %v), want not graded with context.Canceled", got.Status, got.Reason, got.Err)
	}
	got = NewPythonCompiles(PythonCompilesOptions{Timeout: time.Nanosecond}).Grade(context.Background(), out("x = 1"))
	if got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "did not finish") {
		t.Errorf("timeout: got %v (%s), want not graded naming the timeout", got.Status, got.Reason)
	}
}

// TestGoCompilesReasonClipped: a parse error quoting a 4 MB token gives a
// reason of bounded size.
func TestGoCompilesReasonClipped(t *testing.T) {
	out := "x := 1 \"" + strings.Repeat("a", 4<<20) + "\""
	g := NewGoCompiles(GoCompilesOptions{}).Grade(context.Background(), &proctor.Sample{Output: out})
	if g.Status != proctor.StatusFailed || len(g.Reason) > 1000 {
		t.Errorf("status %v, reason of %d bytes; want failed with a reason under 1000 bytes", g.Status, len(g.Reason))
	}
}

func out(s string) *proctor.Sample { return &proctor.Sample{Output: s} }

// TestGoCompilesNesting: an output nesting brackets past the limit is not
// graded (the parser would recurse into it), what the scanner sees inside
// strings and comments does not count, and code at the limit is parsed.
func TestGoCompilesNesting(t *testing.T) {
	g := NewGoCompiles(GoCompilesOptions{})
	for _, tc := range []struct {
		name, out string
		want      proctor.Status
	}{
		{"parens", strings.Repeat("(", 110<<10), proctor.StatusNotGraded},
		{"at the limit", "x := " + strings.Repeat("(", maxGoNesting-1) + "1" + strings.Repeat(")", maxGoNesting-1), proctor.StatusPassed},
		{"in a string", "x := \"" + strings.Repeat("(", 5000) + "\"", proctor.StatusPassed},
		{"in a comment", "// " + strings.Repeat("[", 5000) + "\nx := 1", proctor.StatusPassed},
	} {
		got := g.Grade(context.Background(), &proctor.Sample{Output: tc.out})
		if got.Status != tc.want || (tc.want == proctor.StatusNotGraded && !strings.Contains(got.Reason, "1000 levels")) {
			t.Errorf("%s: %v %q, want %v", tc.name, got.Status, got.Reason, tc.want)
		}
	}
}
