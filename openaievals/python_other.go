//go:build !linux

package openaievals

import "os/exec"

// isolateNetwork reports false: network namespaces are a Linux feature.
func isolateNetwork(cmd *exec.Cmd) bool { return false }
