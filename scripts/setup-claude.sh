#!/usr/bin/env bash
# setup-claude.sh [PREFIX]: installs the Claude Code CLI the end-to-end tests
# drive, pinned to CLAUDE_CODE_VERSION (default 2.1.330), from the npm
# registry into PREFIX (default: a per-version folder in the user's cache), and
# prints the path of its executable. Installs npm with apt-get when it is
# missing and apt-get is at hand. Does nothing when that version is already there.
#
# The npm package is a wrapper whose optional dependency for this platform
# holds the real executable (compiled with Bun; Node's version does not matter).
set -euo pipefail
version=${CLAUDE_CODE_VERSION:-2.1.330}
prefix=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/claude-memory-layer/claude-code-$version}
link="$prefix/bin/claude"

if [ -x "$link" ] && [ "$("$link" --version 2>/dev/null | awk '{print $1}')" = "$version" ]; then
  echo "$link"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup-claude: installing npm with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >&2
  else
    echo "setup-claude: npm is needed to install Claude Code $version" >&2
    exit 1
  fi
fi

echo "setup-claude: installing @anthropic-ai/claude-code@$version into $prefix" >&2
mkdir -p "$prefix/npm" "$prefix/bin"
npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$prefix/npm" \
  "@anthropic-ai/claude-code@$version" >&2

case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os=$(uname -s | tr A-Z a-z) ;; esac
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
variant=""
if [ "$os" = linux ] && ldd --version 2>&1 | grep -qi musl; then variant=-musl; fi
# The wrapper's postinstall copies the platform binary over bin/claude.exe;
# with install scripts off that file is a stub, so try the platform package first.
modules="$prefix/npm/node_modules/@anthropic-ai"
for candidate in "$modules/claude-code-$os-$arch$variant/claude" "$modules/claude-code/bin/claude.exe"; do
  if [ -x "$candidate" ] && [ "$("$candidate" --version 2>/dev/null | awk '{print $1}')" = "$version" ]; then
    ln -sfn "$candidate" "$link"
    echo "setup-claude: $("$link" --version)" >&2
    echo "$link"
    exit 0
  fi
done
echo "setup-claude: no working claude $version executable under $modules" >&2
exit 1
