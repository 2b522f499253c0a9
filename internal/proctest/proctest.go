//go:build linux

// Package proctest holds the helpers that the family packages' tests
// share: for the graders running a subprocess (python, python_compiles) a
// stand-in interpreter and waiting for a process to end; for the graders
// asking judges, scripted judges (judge.go).
package proctest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Gone reports whether process pid has ended: it no longer exists, or it
// is a zombie waiting for a parent that is not this process.
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// pid (comm) S ...: the state follows the last ')'.
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// WaitGone waits up to 5 s for pid to end, and fails t if it does not.
func WaitGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !Gone(pid) {
		if time.Now().After(deadline) {
			t.Errorf("process %d still running", pid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ReadPid waits up to 5 s for a process id to be written to path.
func ReadPid(t testing.TB, path string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if n, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && n > 0 {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// FakeInterpreter writes a shell script standing in for python3 and
// returns its path. The script is written under syscall.ForkLock: a test
// running in parallel that starts a process between our open and close
// would otherwise hand the child our write descriptor, and running the
// script would fail with "text file busy" (ETXTBSY).
func FakeInterpreter(t testing.TB, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "python3")
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// NeedPython skips t when python3 is not on PATH.
func NeedPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the python grader tests need it")
	}
}
