// Package proc starts child processes so that stopping them stops
// everything they started: each child leads its own process group, which
// is killed as a whole, and the kernel kills it if this process dies.
package proc

import (
	"os/exec"
	"syscall"
)

// Isolate makes cmd lead its own process group and be killed when this
// process dies. Call it before cmd.Start; it replaces cmd.SysProcAttr.
func Isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// Kill kills cmd's process group, and cmd's process should it have left
// the group. A cmd that was not started is left alone.
func Kill(cmd *exec.Cmd) error {
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Process.Kill()
}
