#!/bin/sh
# deps.sh - install the Debian packages ebsize needs to build and test,
# only those missing.  Run as root (or with sudo available).
set -e
# libcurl4-openssl-dev: the curl headers for the build (ebsize loads
# libcurl.so.4 at run time, only for `pricing fetch`); time: GNU time for
# the memory checks of the streaming tests
PKGS="build-essential pkg-config libsqlite3-dev libcurl4-openssl-dev libcjson-dev
libxlsxwriter-dev fio sqlite3 python3 python3-yaml curl jq time"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "deps: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
