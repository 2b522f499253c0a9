package code

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/proc"
)

// codeBody removes a Markdown code fence (info string one of langs, or
// none) and the prose around it; output without a fence is taken whole.
func codeBody(out string, langs ...string) string {
	for _, l := range langs {
		if b, ok := fence.Body(out, l); ok {
			return b
		}
	}
	return out
}

// pythonCheck is the program python3 runs: it caps its own address space
// at 512 MiB (enough for any real program, far from a machine's),
// reads the candidate from standard input and compiles it without running
// it. A candidate Python cannot compile exits 3 with "Kind: message (line
// N)" on standard error: a syntax error, a null byte's ValueError, and the
// RecursionError or MemoryError of source nested too deeply to compile.
const pythonCheck = `import sys
try:
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = 512 * 1024 * 1024
    if hard != resource.RLIM_INFINITY and hard < limit:
        limit = hard
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard if hard != resource.RLIM_INFINITY else limit))
except (ImportError, ValueError, OSError):
    pass
src = sys.stdin.buffer.read()
try:
    compile(src, '<candidate>', 'exec', dont_inherit=True)
except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
    line = getattr(e, 'lineno', None)
    msg = getattr(e, 'msg', None) or str(e) or 'the source is too deeply nested or too large to compile'
    sys.stderr.write('%s: %s%s\n' % (type(e).__name__, msg, ' (line %d)' % line if line else ''))
    sys.exit(3)
`

// PythonCompiles passes when the output (fence and prose removed) compiles
// as Python 3 source: python3 -I -S -B runs a fixed program that reads the
// candidate from standard input and calls compile(src, '<candidate>',
// 'exec'). The candidate is never put on a command line and never run:
// compile() only parses and builds bytecode, so no code from the candidate
// executes, imports or touches the network. The interpreter is run in
// isolated mode (no site-packages, no PYTHON* variables, no .pyc written);
// it is not otherwise sandboxed.
//
// An output with no code fails. A syntax error fails with Python's
// message (SyntaxError, IndentationError, TabError, or a null byte's
// ValueError) and its line, and so does source nested too deeply for
// Python to compile (RecursionError, or the parser's MemoryError; the
// interpreter's address space is capped at 512 MiB). It is not graded
// when python3 is not on PATH, when it does not finish within the timeout
// (default 10 s; its process group is killed), when the context is
// cancelled, or when the interpreter fails in another way. Immutable and
// safe for concurrent use; each Grade starts one process.
type PythonCompiles struct {
	name    string
	timeout time.Duration
	python  func() (string, error)
}

// PythonCompilesOptions configure [NewPythonCompiles]. The zero value runs
// "python3" from PATH with a 10 s timeout.
type PythonCompilesOptions struct {
	// Timeout bounds one compile; 0 means 10 s.
	Timeout time.Duration
	// Python is the interpreter, a path or a name looked up in PATH; ""
	// means "python3".
	Python string
	// Name is shown in results; default "python_compiles".
	Name string
}

var _ proctor.Grader = (*PythonCompiles)(nil)

// NewPythonCompiles returns a PythonCompiles grader. The interpreter is
// looked up on first use, not here.
func NewPythonCompiles(opts PythonCompilesOptions) *PythonCompiles {
	py := cmp.Or(opts.Python, "python3")
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &PythonCompiles{
		name:    cmp.Or(opts.Name, "python_compiles"),
		timeout: timeout,
		python:  sync.OnceValues(func() (string, error) { return exec.LookPath(py) }),
	}
}

// Name returns the grader's name.
func (g *PythonCompiles) Name() string { return g.name }

// Grade compiles the candidate with python3.
func (g *PythonCompiles) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	py, err := g.python()
	if err != nil {
		return proctor.ErrorGrade("python3 is not available", err)
	}
	src := codeBody(s.Output, "python", "py", "python3")
	if strings.TrimSpace(src) == "" {
		return proctor.Fail("the output holds no code")
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-B", "-c", pythonCheck)
	cmd.Stdin = strings.NewReader(src)
	cmd.WaitDelay = time.Second
	proc.Isolate(cmd) // its own process group, killed if proctor dies
	cmd.Cancel = func() error { return proc.Kill(cmd) }
	var stderr limitedBuffer
	stderr.max = 16 << 10
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil {
		return proctor.Pass("")
	}
	if err := parent.Err(); err != nil {
		return proctor.ErrorGrade("python3 was stopped", err)
	}
	if err := ctx.Err(); err != nil {
		return proctor.ErrorGrade(fmt.Sprintf("python3 did not finish within %v", g.timeout), err)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		return proctor.Failf("the output does not compile as Python: %s", lastLine(stderr.String()))
	}
	return proctor.ErrorGrade("python3 failed: "+lastLine(stderr.String()), err)
}

// lastLine returns the last non-empty line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// limitedBuffer keeps the first max bytes written to it and drops the rest.
// The buffer is a named field, not embedded: an embedded bytes.Buffer's
// ReadFrom would be promoted, and io.Copy (which exec uses to drain a
// pipe) would call it and read everything, past the cap.
type limitedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string { return b.buf.String() }

// GoCompiles passes when the output (fence and prose removed) parses as Go:
// as a source file; failing that, with "package p" added, as top-level
// declarations ("func main() {}" alone passes); failing that, as
// statements inside a function body. It checks syntax only (go/parser): an
// undefined name or a type error still passes. A failure's reason is the
// parse error of the reading that got furthest; an output with no code
// fails. An output whose parentheses, brackets and braces nest more than
// 1,000 levels deep is not graded: the parser's memory would grow faster
// than the output. Immutable and safe for concurrent use.
type GoCompiles struct {
	name string
}

// GoCompilesOptions configure [NewGoCompiles].
type GoCompilesOptions struct {
	// Name is shown in results; default "go_compiles".
	Name string
}

var _ proctor.Grader = (*GoCompiles)(nil)

// NewGoCompiles returns a GoCompiles grader.
func NewGoCompiles(opts GoCompilesOptions) *GoCompiles {
	return &GoCompiles{name: cmp.Or(opts.Name, "go_compiles")}
}

// Name returns the grader's name.
func (g *GoCompiles) Name() string { return g.name }

// Grade parses the candidate.
func (g *GoCompiles) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	src := codeBody(s.Output, "go", "golang")
	if strings.TrimSpace(src) == "" {
		return proctor.Fail("the output holds no code")
	}
	if d := goNesting(src, maxGoNesting); d > maxGoNesting {
		return proctor.NotGradedf("the output nests brackets more than %d levels deep, the limit go_compiles parses", maxGoNesting)
	}
	err := parseGo(src)
	if err == nil {
		return proctor.Pass("")
	}
	return proctor.Failf("the output does not parse as Go: %s", kit.ClipRunes(err.Error(), 300))
}

// parseGo tries the three readings and returns nil when one parses, or
// the error that got furthest into the source.
func parseGo(src string) error {
	const (
		declPrefix = "package p\n"
		stmtPrefix = "package p; func _() {\n"
	)
	readings := []struct {
		prefix, suffix string
	}{{"", ""}, {declPrefix, ""}, {stmtPrefix, "\n}"}}
	var best error
	bestPos := -1
	for i, r := range readings {
		if i > 0 && hasPackageClause(src) {
			break
		}
		fset := token.NewFileSet()
		_, err := parser.ParseFile(fset, "candidate.go", r.prefix+src+r.suffix, parser.SkipObjectResolution)
		if err == nil {
			return nil
		}
		pos, msg := firstError(err)
		if r.prefix != "" {
			pos.Line-- // the prefix takes one line
		}
		if off := pos.Offset - len(r.prefix); off > bestPos {
			bestPos = off
			best = fmt.Errorf("line %d: %s", max(pos.Line, 1), msg)
		}
	}
	return best
}

// maxGoNesting is how deeply go_compiles lets an output nest parentheses,
// brackets and braces. go/parser recurses once per level (up to 100,000),
// and its stack and the tree it builds grow faster than the source: 110 KB
// of "(" took 120 to 250 MiB per grade. gofmt'ed code rarely nests past
// 20 levels.
const maxGoNesting = 1000

// goNesting returns how deeply src nests (, [ and { tokens, read by the Go
// scanner (so strings, runes and comments do not count), stopping once
// past limit.
func goNesting(src string, limit int) int {
	var s scanner.Scanner
	fset := token.NewFileSet()
	b := []byte(src)
	s.Init(fset.AddFile("", -1, len(b)), b, func(token.Position, string) {}, 0)
	depth, deepest := 0, 0
	for {
		_, tok, _ := s.Scan()
		switch tok {
		case token.EOF:
			return deepest
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
			if deepest = max(deepest, depth); deepest > limit {
				return deepest
			}
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth = max(depth-1, 0)
		}
	}
}

// hasPackageClause reports whether src starts (after comments and space)
// with a package clause, which only the file reading can accept.
func hasPackageClause(src string) bool {
	var s scanner.Scanner
	fset := token.NewFileSet()
	b := []byte(src)
	s.Init(fset.AddFile("", -1, len(b)), b, nil, 0)
	_, tok, _ := s.Scan()
	return tok == token.PACKAGE
}

// firstError returns the position and message of err's first parse error.
func firstError(err error) (token.Position, string) {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0].Pos, list[0].Msg
	}
	return token.Position{}, err.Error()
}

// pythonCompilesSpec builds a python_compiles spec: timeout_ms.
func pythonCompilesSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	ms, ok := o.OptInt("timeout_ms")
	if ok && (ms < 1 || ms > 600_000) {
		o.Errorf("timeout_ms", "want an integer from 1 to 600000, got %d", ms)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewPythonCompiles(PythonCompilesOptions{Timeout: time.Duration(ms) * time.Millisecond, Name: o.Name()}), nil
}

// goCompilesSpec builds a go_compiles spec, which takes no options of its own.
func goCompilesSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	return NewGoCompiles(GoCompilesOptions{Name: o.Name()}), nil
}
