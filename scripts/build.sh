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
# The dictionaries recall translates a prompt of another language with are GPL data
# (glosses/NOTICE), shipped beside the MIT binaries and read at run time, not compiled in.
mkdir -p "$tmp/glosses" "$tmp/notices"
cp glosses/*.txt glosses/NOTICE glosses/COPYING "$tmp/glosses/"
# The word tables compiled into the binaries come with their licenses' notices.
cp internal/funcwords/NOTICE "$tmp/notices/funcwords"
cp internal/wordfreq/NOTICE "$tmp/notices/wordfreq"
cp internal/wordfreq/NOTICE-programming "$tmp/notices/wordfreq-programming"
cp internal/korean/NOTICE "$tmp/notices/korean"
# Move into place only once every binary built, so a hook never runs a half-written file.
for d in glosses notices; do
  rm -rf "$out/$d.old"
  if [ -d "$out/$d" ]; then mv "$out/$d" "$out/$d.old"; fi
done
for f in "$tmp"/*; do mv -f "$f" "$out/"; done
rm -rf "$out/glosses.old" "$out/notices.old"
echo "built binaries into $out (version $version)" >&2
