//go:build !linux

package proctor

import "os/exec"

// isolateNetwork reports false: network namespaces are a Linux feature.
func isolateNetwork(cmd *exec.Cmd) bool { return false }

// isolateProcess does nothing outside Linux.
func isolateProcess(cmd *exec.Cmd) {}

// killProcess kills cmd's process.
func killProcess(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Kill()
}
