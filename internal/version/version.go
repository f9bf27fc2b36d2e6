// Package version reports the build's version string.
package version

import "runtime/debug"

// Version is stamped at build time with -ldflags "-X .../internal/version.Version=v1.2.3".
// Empty means an unstamped build; String then falls back to the module build info.
var Version string

// String returns the stamped version, else the VCS revision or module version
// recorded by the Go toolchain, else "dev".
func String() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "dev"
	}
	return "dev-" + rev + dirty
}
