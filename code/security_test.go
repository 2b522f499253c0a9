//go:build linux

package code

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

const candidateMarker = "proctor-candidate-marker-7f3a"

// The candidate reaches python_compiles on standard input only, never on
// its command line.
func TestPythonCompilesCandidateOnStdinOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	py := proctest.FakeInterpreter(t, `printf '%s\n' "$0" "$@" > `+dir+`/argv
cat > `+dir+`/stdin
`)
	g := NewPythonCompiles(PythonCompilesOptions{Python: py})
	if got := g.Grade(context.Background(), out("x = '"+candidateMarker+"'")); got.Status != proctor.StatusPassed {
		t.Fatalf("got %v %q, want passed from the stand-in interpreter", got.Status, got.Reason)
	}
	argv, _ := os.ReadFile(dir + "/argv")
	stdin, _ := os.ReadFile(dir + "/stdin")
	if bytes.Contains(argv, []byte(candidateMarker)) {
		t.Errorf("the candidate is on the command line: %s", argv)
	}
	if !bytes.Contains(stdin, []byte(candidateMarker)) {
		t.Errorf("standard input %q, want the candidate", stdin)
	}
}

// A python_compiles that outruns its timeout has its whole process group
// killed, children included; a flood on standard error is capped.
func TestPythonCompilesKillsGroupAndCapsOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	py := proctest.FakeInterpreter(t, `sleep 60 &
echo $! > `+dir+`/child
wait
`)
	g := NewPythonCompiles(PythonCompilesOptions{Python: py, Timeout: 200 * time.Millisecond})
	start := time.Now()
	got := g.Grade(context.Background(), out("x = 1"))
	if got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "did not finish") || time.Since(start) > 3*time.Second {
		t.Errorf("got %v %q after %v, want not graded: did not finish, promptly", got.Status, got.Reason, time.Since(start))
	}
	proctest.WaitGone(t, proctest.ReadPid(t, dir+"/child"))

	flood := proctest.FakeInterpreter(t, `head -c 4000000 /dev/zero | tr '\0' 'e' >&2
exit 1
`)
	got = NewPythonCompiles(PythonCompilesOptions{Python: flood}).Grade(context.Background(), out("x = 1"))
	if got.Status != proctor.StatusNotGraded || len(got.Reason) > 20<<10 {
		t.Errorf("stderr flood: %v with a %d-byte reason, want not graded with a capped reason", got.Status, len(got.Reason))
	}
}

// Source nested too deeply for Python to compile fails rather than being
// not graded: python3 cannot compile it either.
func TestPythonCompilesTooDeep(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	g := NewPythonCompiles(PythonCompilesOptions{})
	for _, src := range []string{"x = " + strings.Repeat("1+", 200000) + "1", "x = " + strings.Repeat("-", 200000) + "1"} {
		got := g.Grade(context.Background(), out(src))
		if got.Status != proctor.StatusFailed || !strings.Contains(got.Reason, "Error") {
			t.Errorf("%.20q...: got %v %q, want failed with Python's error", src, got.Status, got.Reason)
		}
	}
}
