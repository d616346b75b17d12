#!/bin/sh
# run.sh - every benchmark under tests/perf (each *.sh but this one).
# Needs EBSIZE_BIN (set by `make perf`).  Prints each script's figures.
cd "$(dirname "$0")" || exit 2
status=0
for s in ./*.sh; do
	[ "$(basename "$s")" = run.sh ] && continue
	echo "== $(basename "$s" .sh)"
	sh "$s" || status=1
done
exit $status
