#!/bin/sh
# deps.sh - install the Debian packages ebsize needs to build and test,
# only those missing.  Run as root (or with sudo available).
set -e
PKGS="build-essential pkg-config libsqlite3-dev libcurl4-openssl-dev libcjson-dev
libxlsxwriter-dev fio sqlite3 python3 python3-yaml curl jq clang-format groff-base man-db
zsh fish awscli"
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
