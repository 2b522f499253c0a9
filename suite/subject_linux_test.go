package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

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
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the script did not record its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// The killed sleep may linger briefly as a zombie until it is reaped;
	// what must not happen is that it keeps running.
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
