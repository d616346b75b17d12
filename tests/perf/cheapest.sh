#!/bin/sh
# cheapest.sh - benchmark for the sizing engine (issue 3):
#  1. `ebsize cheapest` whole-process wall time (database already created),
#     median of 21 runs;
#  2. solver time for 10,000 generated requests in one process.
set -eu
: "${EBSIZE_BIN:?run through make perf}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DB="$T/perf.db"
"$EBSIZE_BIN" --db "$DB" db check >/dev/null
times=""
for i in $(seq 21); do
	s=$(date +%s%N)
	"$EBSIZE_BIN" --db "$DB" cheapest --iops 20000 --throughput 500 --size 200 \
		--instance m6i.2xlarge >/dev/null
	e=$(date +%s%N)
	times="$times $(( (e - s) / 1000 ))"
done
med=$(printf '%s\n' $times | sort -n | sed -n 11p)
echo "cheapest: whole process, median of 21 runs: $med us"
"${BENCH_SOLVER:?run through make perf}" "$DB" 10000
