#!/bin/sh
# run.sh - `make perf-extra`: every benchmark under tests/perf (each *.sh but this
# one).  Needs EBSIZE_BIN (set by `make perf`).  Prints figures; asserts
# nothing about time.
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${EBSIZE_BIN:?run through make perf}"
export EBSIZE_BIN
status=0
for p in tests/perf/*.sh; do
	[ "$(basename "$p")" = run.sh ] && continue
	echo "== $(basename "$p" .sh)"
	sh "$p" || status=1
done
exit $status
