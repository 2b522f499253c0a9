package openaievals

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/proctorhq/proctor/internal/proc"
)

// isolateNetwork prepares cmd to start in new user and network namespaces
// (no network interface but a down loopback), in its own process group,
// killed when this process dies. It reports true; the caller retries
// without the namespaces when Start fails because the kernel refuses them.
func isolateNetwork(cmd *exec.Cmd) bool {
	proc.Isolate(cmd)
	cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	cmd.SysProcAttr.GidMappingsEnableSetgroups = false
	return true
}
