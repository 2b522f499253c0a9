package openaievals

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

func TestPython(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	tests := []struct {
		name, source string
		sample       proctor.Sample
		want         proctor.Status
		reason       string // substring of the reason
		why          string
	}{
		{"pass", "def grade(sample, item):\n    return 1.0 if 'Paris' in sample['output_text'] else 0.0\n",
			proctor.Sample{Output: "It is Paris."}, proctor.StatusPassed, "", "score 1 >= 0.5"},
		{"fail", "def grade(sample, item):\n    return 1.0 if 'Paris' in sample['output_text'] else 0.0\n",
			proctor.Sample{Output: "It is Lyon."}, proctor.StatusFailed, "", "score 0 < 0.5"},
		{"item visible", "def grade(sample, item):\n    return float(sample['output_text'].strip() == item['answer'])\n",
			proctor.Sample{Output: " 42", Item: map[string]any{"answer": "42"}}, proctor.StatusPassed, "", "item is the sample's Item"},
		{"expected in item", "def grade(sample, item):\n    return float(sample['output_text'] == item['expected'])\n",
			proctor.Sample{Output: "x", Expected: proctor.Ptr("x")}, proctor.StatusPassed, "", "the sample's expected is item['expected']"},
		{"output_json", "def grade(sample, item):\n    return sample['output_json']['score']\n",
			proctor.Sample{Output: `{"score": 0.75}`}, proctor.StatusPassed, "", "JSON output is decoded"},
		{"seed order by name", "def grade(item, sample):\n    return float(sample.get('output_text') == 'x' and item.get('k') == 1)\n",
			proctor.Sample{Output: "x", Item: map[string]any{"k": 1}}, proctor.StatusPassed, "", "grade(item, sample) is called by keyword"},
		{"stdout noise", "def grade(sample, item):\n    print('{\"ok\": true, \"score\": 0}')\n    import os\n    os.write(1, b'garbage\\n')\n    return 1\n",
			proctor.Sample{Output: "x"}, proctor.StatusPassed, "", "the grader's prints go to stderr, not the protocol"},
		{"exception", "def grade(sample, item):\n    raise ValueError('bad input')\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "ValueError: bad input (<grader> line 2: raise ValueError('bad input'))", "exception type, message and line"},
		{"bool result", "def grade(sample, item):\n    return True\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "returned bool", "a bool is not a score"},
		{"none result", "def grade(sample, item):\n    pass\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "returned NoneType", "None is not a score"},
		{"nan result", "def grade(sample, item):\n    return float('nan')\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "finite", "NaN is not a score"},
		{"syntax error", "def grade(sample, item)\n    return 1\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "SyntaxError", "source that does not load"},
		{"no grade", "def score(sample, item):\n    return 1\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "no grade(sample, item)", "grade must be defined"},
		{"memory", "def grade(sample, item):\n    b = bytearray(2 << 30)\n    return 1\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "MemoryError", "2 GiB is over the 512 MiB default"},
		{"no network", "import socket\ndef grade(sample, item):\n    socket.create_connection(('127.0.0.1', 9))\n",
			proctor.Sample{Output: "x"}, proctor.StatusNotGraded, "network access is disabled", "sockets are refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := MustPython(tt.source, PythonOptions{})
			defer g.Close()
			got := g.Grade(context.Background(), &tt.sample)
			if got.Status != tt.want {
				t.Errorf("status = %v (%s), want %v (%s)", got.Status, got.Reason, tt.want, tt.why)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("reason = %q, want it to contain %q (%s)", got.Reason, tt.reason, tt.why)
			}
		})
	}
}

func TestPythonTimeoutAndRestart(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	src := "def grade(sample, item):\n    if sample['output_text'] == 'loop':\n        while True:\n            pass\n    if sample['output_text'] == 'crash':\n        import os\n        os._exit(3)\n    return 1\n"
	g := MustPython(src, PythonOptions{Timeout: 300 * time.Millisecond})
	defer g.Close()
	ctx := context.Background()
	start := time.Now()
	got := g.Grade(ctx, &proctor.Sample{Output: "loop"})
	if took := time.Since(start); got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "timed out") || took > 20*time.Second {
		t.Errorf("infinite loop: %v %q after %v, want not graded, timed out, within the 300ms timeout plus start-up", got.Status, got.Reason, took)
	}
	if got := g.Grade(ctx, &proctor.Sample{Output: "ok"}); got.Status != proctor.StatusPassed {
		t.Errorf("after a timeout: %v %q, want passed on a restarted worker", got.Status, got.Reason)
	}
	if got := g.Grade(ctx, &proctor.Sample{Output: "crash"}); got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "exit status 3") {
		t.Errorf("crash: %v %q, want not graded with the exit status", got.Status, got.Reason)
	}
	if got := g.Grade(ctx, &proctor.Sample{Output: "ok"}); got.Status != proctor.StatusPassed {
		t.Errorf("after a crash: %v %q, want passed on a restarted worker", got.Status, got.Reason)
	}
}

func TestPythonCancel(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	g := MustPython("def grade(sample, item):\n    while True:\n        pass\n", PythonOptions{})
	defer g.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	got := g.Grade(ctx, &proctor.Sample{Output: "x"})
	if !errors.Is(got.Err, context.DeadlineExceeded) || time.Since(start) > 20*time.Second {
		t.Errorf("got %v %q (err %v) after %v, want not graded with the context's error, promptly", got.Status, got.Reason, got.Err, time.Since(start))
	}
}

func TestPythonNoInterpreter(t *testing.T) {
	g := MustPython("def grade(sample, item):\n    return 1\n", PythonOptions{Interpreter: "proctor-no-such-python3"})
	defer g.Close()
	got := g.Grade(context.Background(), &proctor.Sample{Output: "x"})
	if got.Status != proctor.StatusNotGraded || !strings.Contains(got.Reason, "not found") {
		t.Errorf("got %v %q, want not graded: interpreter not found", got.Status, got.Reason)
	}
}

func TestPythonConcurrentAndClose(t *testing.T) {
	// Not parallel: it counts goroutines.
	proctest.NeedPython(t)
	before := runtime.NumGoroutine()
	g := MustPython("import time\ndef grade(sample, item):\n    return int(sample['output_text']) % 2\n", PythonOptions{Workers: 2})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := g.Grade(context.Background(), &proctor.Sample{Output: fmt.Sprint(i)})
			want := proctor.StatusFailed
			if i%2 == 1 {
				want = proctor.StatusPassed
			}
			if got.Status != want {
				errs <- fmt.Sprintf("sample %d: %v %q, want %v", i, got.Status, got.Reason, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	g.st.mu.Lock()
	var pids []int
	for w := range g.st.live {
		pids = append(pids, w.cmd.Process.Pid)
	}
	g.st.mu.Unlock()
	if len(pids) == 0 || len(pids) > 2 {
		t.Errorf("%d live workers, want 1 or 2", len(pids))
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("worker %d still exists after Close (kill 0: %v)", pid, err)
		}
	}
	if got := g.Grade(context.Background(), &proctor.Sample{Output: "1"}); !errors.Is(got.Err, ErrPythonClosed) {
		t.Errorf("after Close: %v %q, want not graded: closed", got.Status, got.Reason)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

func TestPythonSpec(t *testing.T) {
	comp := proctor.NewCompiler(Types(), Types())
	ok := []string{
		`{"type":"python","name":"p","source":"def grade(s, i): return 1","pass_threshold":0.9,"image_tag":"2025-05-08","timeout_ms":500,"memory_mb":256,"workers":2}`,
	}
	for _, s := range ok {
		ch, err := comp.Compile([]byte(s))
		if err != nil {
			t.Errorf("Compile(%s): %v", s, err)
			continue
		}
		ch.Grader.(*Python).Close()
	}
	bad := []string{
		`{"type":"python"}`,
		`{"type":"python","source":""}`,
		`{"type":"python","source":"x","timeout_ms":0}`,
		`{"type":"python","source":"x","memory_mb":1}`,
		`{"type":"python","source":"x","workers":0}`,
		`{"type":"python","source":"x","pass_threshold":-1}`,
		`{"type":"python","source":"x","interpreter":"/bin/sh"}`,
	}
	for _, s := range bad {
		var se *proctor.SpecError
		if _, err := comp.Compile([]byte(s)); !errors.As(err, &se) {
			t.Errorf("Compile(%s) error = %v, want a *SpecError", s, err)
		}
	}
}

func TestPythonImageTagCaveat(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	g := MustPython("def grade(sample, item):\n    return 1\n", PythonOptions{ImageTag: "2025-05-08"})
	defer g.Close()
	got := g.Grade(context.Background(), &proctor.Sample{Output: "x"})
	if len(got.Caveats) != 1 || !strings.Contains(got.Caveats[0], "image_tag") {
		t.Errorf("caveats = %q, want one saying image_tag was ignored", got.Caveats)
	}
}

func BenchmarkPython(b *testing.B) {
	proctest.NeedPython(b)
	g := MustPython("def grade(sample, item):\n    return 1.0 if 'Paris' in sample['output_text'] else 0.0\n", PythonOptions{})
	defer g.Close()
	s := &proctor.Sample{Output: "It is Paris."}
	ctx := context.Background()
	g.Grade(ctx, s)
	for b.Loop() {
		g.Grade(ctx, s)
	}
}

// A Python dropped without Close has its worker killed when it is
// garbage collected.
func TestPythonCleanupBackstop(t *testing.T) {
	proctest.NeedPython(t)
	t.Parallel()
	pid := func() int {
		g := MustPython("def grade(sample, item):\n    return 1\n", PythonOptions{})
		if got := g.Grade(context.Background(), &proctor.Sample{Output: "x"}); got.Status != proctor.StatusPassed {
			t.Fatalf("got %v %q", got.Status, got.Reason)
		}
		g.st.mu.Lock()
		defer g.st.mu.Unlock()
		for w := range g.st.live {
			return w.cmd.Process.Pid
		}
		return 0
	}()
	if pid == 0 {
		t.Fatal("no worker started")
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("worker %d still alive 5s after its grader became unreachable", pid)
}
