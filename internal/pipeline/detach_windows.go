//go:build windows

package pipeline

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts the worker without a console and in a process group of its
// own, so that it outlives the hook and Claude Code's Ctrl+C does not reach it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP,
		HideWindow:    true,
	}
}
