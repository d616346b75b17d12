#!/bin/sh
# run.sh - every benchmark under tests/perf (each *.sh but this one).
# Benchmarks print figures; they assert nothing about speed.
cd "$(dirname "$0")/../.." || exit 2
status=0
for b in tests/perf/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	echo "== $b"
	sh "$b" || status=1
done
exit $status
