#!/bin/sh
# run.sh - every benchmark under tests/perf (each *.sh but this one).
# Needs EBSIZE_BIN (set by `make perf`).  Prints figures; asserts nothing.
cd "$(dirname "$0")" || exit 2
: "${EBSIZE_BIN:?run through make perf}"
status=0
for s in ./*.sh; do
	[ "$(basename "$s")" = run.sh ] && continue
	echo "== $s"
	sh "$s" || status=1
done
exit $status
