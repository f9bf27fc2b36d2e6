#!/usr/bin/env bash
# Regenerates internal/wordfreq/programming.txt and its part of NOTICE from the
# documentation of six Debian 12 packages, pinned below: the Linux man pages
# (manpages, manpages-dev: system calls, the C library, file formats), git's
# (git-man), Python's (python3.11-doc, its reStructuredText sources), Node.js's
# API (nodejs-doc, its Markdown) and Django's (python-django-doc, its HTML): the
# words of writing about programming, from the system to the web, in 4.3
# million words. scripts/progfreq counts them (see its comment for why).
# The table holds word counts only, no text of the documents; each package's
# license is named in NOTICE. Needs apt-get (no root: it only downloads),
# dpkg-deb and go.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/internal/wordfreq
pkgs="manpages=6.03-2 manpages-dev=6.03-2 git-man=1:2.39.5-0+deb12u3 nodejs-doc=18.20.4+dfsg-1~deb12u3
	python3.11-doc=3.11.2-6+deb12u9 python-django-doc=3:3.2.25-0+deb12u7"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download $pkgs >/dev/null 2>&1) || {
	echo "gen-progfreq: apt-get download failed for: $pkgs" >&2
	exit 1
}
for deb in "$tmp"/*.deb; do
	dpkg-deb -x "$deb" "$tmp/x"
done
share=$tmp/x/usr/share
(cd "$root" && go run ./scripts/progfreq -o "$dir/programming.txt" \
	"$share/man" "$share/doc/python3.11/html/_sources" "$share/doc/nodejs/api" "html:$share/doc/python-django-doc/html")
# NOTICE: the SUBTLEX part (gen-wordfreq.sh) is kept; this part is written anew.
notice=$dir/NOTICE
marker="internal/wordfreq/programming.txt is generated"
if grep -q "^$marker" "$notice"; then
	sed -i "\\|^$marker|,\$d" "$notice"
	sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$notice"
fi
{
	echo
	echo "$marker by scripts/gen-progfreq.sh from the documentation of these Debian 12"
	echo "packages: how often each word occurs in them, no text of theirs. Their licenses, as each package's"
	echo "copyright file names them:"
	for p in $pkgs; do
		name=${p%%=*}
		# The short names of a machine-readable copyright file; Python's is
		# prose, whose first license is the PSF's.
		licenses=$(grep -hE '^License: [A-Za-z0-9.+~/-]+( (and|or) [A-Za-z0-9.+~/-]+)*$' "$share/doc/$name/copyright" |
			sed 's/^License: //' | sort -u | paste -sd, - | sed 's/,/, /g' || true)
		if [ -z "$licenses" ] && grep -q "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2" "$share/doc/$name/copyright"; then
			licenses="PSF-2.0 (Python Software Foundation License Version 2)"
		fi
		echo "- $p: ${licenses:-see /usr/share/doc/$name/copyright}"
	done
} >> "$notice"
