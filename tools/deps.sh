#!/bin/sh
# deps.sh - install the Debian packages ebsize needs to build and test,
# only those missing.  Run as root (or with sudo available).
set -e
# chromium and python3-pil: the report tests render the page and read the
# screenshot (tests/e2e/t6010-report-browser.sh); libreoffice-calc-nogui and
# python3-openpyxl: the workbook tests open ebsize's xlsx in a real
# spreadsheet application (t50xx); libcurl4-openssl-dev: the curl headers
# for the build (ebsize loads libcurl.so.4 at run time, only for `pricing
# fetch`); time: GNU time for the memory checks of the streaming tests;
# cmark-gfm: GitHub's Markdown renderer, for the --format md tests (t0730);
# valgrind: the memcheck step of `make check-all`; clang: `make fuzz` and
# the fuzz smoke of `make check-all`
PKGS="build-essential pkg-config libsqlite3-dev libcurl4-openssl-dev libcjson-dev
libxlsxwriter-dev zlib1g-dev fio sqlite3 python3 python3-yaml curl jq clang-format groff-base man-db
zsh fish chromium python3-pil libreoffice-calc-nogui python3-openpyxl awscli time
cmark-gfm valgrind clang"
# kubectl for the scan tests (t4020): Debian's kubernetes-client, unless a
# kubectl is already installed (another package's /usr/bin/kubectl would
# conflict with it)
command -v kubectl >/dev/null 2>&1 || PKGS="$PKGS kubernetes-client"
# node and npm for the DuckDB tests of the billing SQL (tests/duckdb,
# t4110): Debian's nodejs and npm, unless an npm is already installed (a
# NodeSource nodejs carries its own npm; Debian's would conflict with it)
command -v npm >/dev/null 2>&1 || PKGS="$PKGS nodejs npm"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all packages present"
else
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO="sudo"
	echo "deps: installing$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
# DuckDB for the billing SQL tests (tests/duckdb, pinned in its
# package-lock.json: @duckdb/node-api ships the engine as a registry
# package), with the node and npm installed above.
dir=$(dirname "$0")/../tests/duckdb
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
	if [ ! -f "$dir/node_modules/@duckdb/node-api/package.json" ]; then
		echo "deps: npm ci in tests/duckdb"
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
	fi
else
	echo "deps: no node/npm: the DuckDB SQL tests will be skipped" >&2
fi
