#!/usr/bin/env bash
# build.sh [OUTDIR]: builds every command under cmd/ as a static binary into OUTDIR (default bin/).
# CGO_ENABLED=0 (modernc.org/sqlite is pure Go), -trimpath, stripped, version stamped.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/bin}
cd "$root"
module=$(go list -m)
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
mkdir -p "$out"
tmp=$(mktemp -d "$out/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X $module/internal/version.Version=$version" -o "$tmp/" ./cmd/...
# Move into place only once every binary built, so a hook never runs a half-written file.
for f in "$tmp"/*; do mv -f "$f" "$out/"; done
echo "built binaries into $out (version $version)" >&2
