//go:build unix

package pipeline

import "syscall"

// detached puts the worker in a session of its own, so that it outlives the
// hook and no signal to the hook's process group reaches it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
