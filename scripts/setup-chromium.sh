#!/usr/bin/env bash
# setup-chromium.sh: makes sure a headless Chromium is installed for the
# dashboard's real-browser test (internal/dashboard, TestBrowser) and prints
# the path of its executable. Installs Debian's chromium package with apt-get
# when it is missing and apt-get is at hand; fails otherwise.
set -euo pipefail
for name in chromium chromium-browser; do
  if path=$(command -v "$name" 2>/dev/null); then
    echo "$path"
    exit 0
  fi
done
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "setup-chromium: installing chromium with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >&2
  command -v chromium
  exit 0
fi
echo "setup-chromium: chromium is needed for the dashboard's browser test; install Debian's chromium package" >&2
exit 1
