#!/usr/bin/env bash
# wine-check.sh: builds the Windows (amd64) binaries and runs them under Wine:
# the CLI installs the hooks into settings.json, every hook runs its .exe as
# registered there on the fixture inputs, and the CLI reads the store back
# (see e2e/windows_test.go). Installs Debian's wine64 and the MinGW binutils
# (for a one-function DLL Wine 8 lacks; see scripts/wine/) with apt-get when
# missing. Everything happens in a fresh Wine prefix in a temporary folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

need_apt() {
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "wine-check: installing $* with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
  else
    echo "wine-check: $* missing and apt-get not usable" >&2
    exit 1
  fi
}
find_wine() {
  # Debian's wine64 package keeps its loader out of PATH; the wine package links it.
  for w in "$(command -v wine64 || true)" /usr/lib/wine/wine64 "$(command -v wine || true)"; do
    if [ -n "$w" ] && [ -x "$w" ]; then echo "$w"; return 0; fi
  done
  return 1
}
wine=$(find_wine) || { need_apt wine64; wine=$(find_wine); }
wineserver=$(dirname "$wine")/wineserver
[ -x "$wineserver" ] || wineserver=$(command -v wineserver)
mingw=x86_64-w64-mingw32
command -v $mingw-ld >/dev/null 2>&1 || need_apt binutils-mingw-w64-x86-64

work=$(mktemp -d)
export WINEPREFIX=$work/prefix WINEDEBUG=-all
cleanup() {
  "$wineserver" -k 2>/dev/null || true # this prefix's server only
  rm -rf "$work"
}
trap cleanup EXIT

echo "wine-check: building windows/amd64 binaries" >&2
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -trimpath -o "$work/bin/" ./cmd/...

echo "wine-check: creating a Wine prefix ($("$wine" --version))" >&2
"$wine" wineboot --init >/dev/null 2>&1
"$wineserver" -w

(
  cd "$work"
  $mingw-as -o prng.o "$root/scripts/wine/bcryptprimitives.s"
  $mingw-dlltool -d "$root/scripts/wine/advapi32.def" -l libadvapi32.a
  $mingw-ld --shared -e DllMain -o bcryptprimitives.dll prng.o "$root/scripts/wine/bcryptprimitives.def" libadvapi32.a
)
sys32="$WINEPREFIX/drive_c/windows/system32"
[ -e "$sys32/bcryptprimitives.dll" ] || cp "$work/bcryptprimitives.dll" "$sys32/"

CML_WINE=$wine CML_WINDOWS_BIN="$work/bin" go test -count=1 -run 'TestWindows' -v ./e2e/
