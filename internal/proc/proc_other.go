//go:build !linux

package proc

import "os/exec"

// Isolate does nothing outside Linux: process groups and the death signal
// are not portable.
func Isolate(cmd *exec.Cmd) {}

// Kill kills cmd's process. A cmd that was not started is left alone.
func Kill(cmd *exec.Cmd) error {
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
