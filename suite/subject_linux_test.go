package suite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

// waitGone waits until pid no longer runs (gone, or a zombie awaiting
// its reaper), failing the test after 10 s.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return // gone
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X") {
			return // killed, not yet reaped
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d is still running (state %v)", pid, fields[:1])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the script did not record its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestCommandSubjectKillsBackgroundOnExit: a command that exits normally
// leaving a child in the background (holding its standard output) is
// answered at once, and the child is killed with its process group.
func TestCommandSubjectKillsBackgroundOnExit(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `(sleep 300) & echo $! > "$0"; echo ok`
	subj := suite.CommandSubject(suite.CommandOptions{Args: []string{"sh", "-c", script, pidFile}, Timeout: 30 * time.Second})
	start := time.Now()
	out, err := subj(context.Background(), proctor.Sample{Input: "x"}, 0)
	if err != nil || out.Output != "ok\n" {
		t.Fatalf("output %q, err %v; want ok", out.Output, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v: the background child was waited for", took)
	}
	waitGone(t, readPid(t, pidFile))
}

// TestCommandSubjectSetsidEscapes documents the limit: a child that
// starts a new session (setsid) leaves the process group and is not
// killed; the command's answer waits for it at most a second.
func TestCommandSubjectSetsidEscapes(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `setsid sleep 30 & echo $! > "$0"; echo ok`
	subj := suite.CommandSubject(suite.CommandOptions{Args: []string{"sh", "-c", script, pidFile}, Timeout: 30 * time.Second})
	start := time.Now()
	out, err := subj(context.Background(), proctor.Sample{Input: "x"}, 0)
	if err != nil || out.Output != "ok\n" {
		t.Fatalf("output %q, err %v; want ok", out.Output, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v: the escaped child was waited for past the grace", took)
	}
	pid := readPid(t, pidFile)
	_ = syscall.Kill(pid, syscall.SIGKILL) // the test's own cleanup
}

// TestCommandSubjectKillsProcessGroup checks that a timed-out command's own
// children are killed with it: a shell that starts a long sleep in the
// background must not leave the sleep running.
func TestCommandSubjectKillsProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `sleep 30 & echo $! > "$0"; wait`
	subj := suite.CommandSubject(suite.CommandOptions{Args: []string{"sh", "-c", script, pidFile}, Timeout: 300 * time.Millisecond})
	if _, err := subj(context.Background(), proctor.Sample{Input: "x"}, 0); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want a timeout", err)
	}
	// The killed sleep may linger briefly as a zombie until it is reaped;
	// what must not happen is that it keeps running.
	waitGone(t, readPid(t, pidFile))
}
