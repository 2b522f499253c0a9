//go:build linux

package openaievals

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/internal/proctest"
)

const candidateMarker = "proctor-candidate-marker-7f3a"

// The python worker gets the candidate over its pipe only: neither its
// command line nor its environment holds it.
func TestPythonCandidateNotOnCommandLine(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	g := MustPython("def grade(sample, item):\n    return 1\n", PythonOptions{})
	defer g.Close()
	if got := g.Grade(context.Background(), &proctor.Sample{Output: candidateMarker, Item: map[string]any{"k": candidateMarker}}); got.Status != proctor.StatusPassed {
		t.Fatalf("got %v %q", got.Status, got.Reason)
	}
	g.st.mu.Lock()
	var pids []int
	for w := range g.st.live {
		pids = append(pids, w.cmd.Process.Pid)
	}
	g.st.mu.Unlock()
	if len(pids) != 1 {
		t.Fatalf("%d live workers, want 1", len(pids))
	}
	for _, f := range []string{"cmdline", "environ"} {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pids[0]) + "/" + f)
		if err != nil {
			t.Skipf("cannot read the worker's %s: %v", f, err)
		}
		if bytes.Contains(b, []byte(candidateMarker)) {
			t.Errorf("the worker's %s holds the candidate", f)
		}
	}
}

// A timed-out grade kills the worker's whole process group, so a child it
// started does not outlive it.
func TestPythonTimeoutKillsGroup(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	dir := t.TempDir()
	src := "import subprocess\ndef grade(sample, item):\n    p = subprocess.Popen(['sleep', '60'])\n    open(" + strconv.Quote(dir+"/child") + ", 'w').write(str(p.pid))\n    while True:\n        pass\n"
	g := MustPython(src, PythonOptions{Timeout: 500 * time.Millisecond})
	defer g.Close()
	got := g.Grade(context.Background(), &proctor.Sample{Output: "x"})
	if got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "timed out") {
		t.Errorf("got %v %q, want not graded: timed out", got.Status, got.Reason)
	}
	proctest.WaitGone(t, proctest.ReadPid(t, dir+"/child"))
}

// Neither a flood on the worker's standard error nor a reply line longer
// than the reader's buffer can deadlock a grade; the oversized reply is not
// graded and the next grade gets a fresh worker.
func TestPythonPipesDoNotDeadlock(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	src := "import sys\ndef grade(sample, item):\n    if sample['output_text'] == 'flood':\n        sys.stderr.write('e' * (8 << 20))\n        sys.stderr.flush()\n        return 1\n    if sample['output_text'] == 'huge':\n        return type('T' * 200000, (), {})()\n    return 1\n"
	g := MustPython(src, PythonOptions{Timeout: 20 * time.Second})
	defer g.Close()
	ctx := context.Background()
	if got := g.Grade(ctx, &proctor.Sample{Output: "flood"}); got.Status != proctor.StatusPassed {
		t.Errorf("stderr flood: %v %q, want passed", got.Status, got.Reason)
	}
	start := time.Now()
	if got := g.Grade(ctx, &proctor.Sample{Output: "huge"}); got.Status != proctor.StatusNotGraded || time.Since(start) > 10*time.Second {
		t.Errorf("huge reply line: %v %q after %v, want not graded, promptly", got.Status, kit.ClipRunes(got.Reason, 200), time.Since(start))
	}
	if got := g.Grade(ctx, &proctor.Sample{Output: "ok"}); got.Status != proctor.StatusPassed {
		t.Errorf("after the huge reply: %v %q, want passed", got.Status, got.Reason)
	}
}

// A grade asked with a context that has already ended returns at once,
// whichever way the race between the context and the worker slot goes:
// the call's deadlines are set before the context is watched, so the
// context's stop is never overridden by the 10 s call deadline.
func TestPythonCancelledBeforeCall(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	g := MustPython("def grade(sample, item):\n    while True:\n        pass\n", PythonOptions{})
	defer g.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 10 {
		start := time.Now()
		got := g.Grade(ctx, &proctor.Sample{Output: "x"})
		if !errors.Is(got.Err, context.Canceled) || time.Since(start) > 3*time.Second {
			t.Fatalf("call %d: %v %q (err %v) after %v, want not graded with context.Canceled, promptly", i, got.Status, got.Reason, got.Err, time.Since(start))
		}
	}
}

// TestPythonForgedRepliesDoNotShift: grader code that writes replies into
// the worker's reply channel, unframed or framed with the nonce of the
// call it runs in, never makes a later sample get another call's score:
// the call that finds a reply not framed for it is not graded, its worker
// killed, and the next sample gets its own score from a fresh worker.
func TestPythonForgedRepliesDoNotShift(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	src := `import os, sys
def forge(frame):
    for fd in range(3, 1024):
        try:
            os.write(fd, frame)
        except OSError:
            pass
def grade(sample, item):
    out = sample['output_text']
    if out == 'unframed':
        forge(b'{"ok": true, "score": 0.77}\n')
    elif out == 'own-nonce':
        f = sys._getframe(1)
        while f is not None and 'req' not in f.f_locals:
            f = f.f_back
        nonce = f.f_locals['req']['nonce']
        body = b'{"ok": true, "score": 0.77}'
        forge(('%s %d\n' % (nonce, len(body))).encode() + body)
    return float(item['score'])
`
	g := MustPython(src, PythonOptions{PassThreshold: proctor.Ptr(0.0)})
	defer g.Close()
	ctx := context.Background()
	score := func(out string, want float64) proctor.Grade {
		return g.Grade(ctx, &proctor.Sample{Output: out, Item: map[string]any{"score": want}})
	}
	if got := score("unframed", 0.1); got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "not framed") {
		t.Errorf("unframed forgery: %v %q, want not graded naming the framing", got.Status, got.Reason)
	}
	if got := score("ok", 0.25); got.Score != 0.25 {
		t.Errorf("next sample after the unframed forgery: score %v (%v %q), want its own 0.25", got.Score, got.Status, got.Reason)
	}
	// A reply forged with the call's own nonce answers that call (its
	// code decides its score anyway); the genuine reply left behind is
	// refused by the next call, and the one after is graded again.
	score("own-nonce", 0.1)
	if got := score("ok", 0.5); got.Status != proctor.StatusNotGraded && got.Score != 0.5 {
		t.Errorf("sample after an own-nonce forgery: score %v (%v), want not graded or its own 0.5", got.Score, got.Status)
	}
	if got := score("ok", 0.75); got.Score != 0.75 {
		t.Errorf("later sample: score %v (%v %q), want its own 0.75", got.Score, got.Status, got.Reason)
	}
}

// TestPythonSocketsRefused: socket creation is refused in every family,
// AF_UNIX included, through the socket module and the C module under it.
func TestPythonSocketsRefused(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	src := `import socket, _socket
def grade(sample, item):
    for make in (lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM), lambda: _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM), lambda: socket.socketpair()):
        try:
            make()
        except PermissionError:
            continue
        return 0.0
    return 1.0
`
	g := MustPython(src, PythonOptions{})
	defer g.Close()
	if got := g.Grade(context.Background(), &proctor.Sample{Output: "x"}); got.Status != proctor.StatusPassed {
		t.Errorf("AF_UNIX sockets: %v %q, want every one refused (passed)", got.Status, got.Reason)
	}
}
