//go:build !unix

package regular

// noFollow is 0 where open has no such flag (Windows, where creating a
// symlink needs a privilege).
const noFollow = 0
