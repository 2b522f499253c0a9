//go:build unix

package readfile

import "syscall"

// nonBlock opens a FIFO without waiting for a writer, so that it can be
// refused rather than hang; it changes nothing for a regular file.
const nonBlock = syscall.O_NONBLOCK
