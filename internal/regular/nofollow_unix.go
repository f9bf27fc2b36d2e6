//go:build unix

package regular

import "syscall"

// noFollow makes an open fail on a symlink as the last part of the path.
const noFollow = syscall.O_NOFOLLOW
