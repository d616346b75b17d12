#!/bin/sh
# xlsx.sh - workbook benchmarks (issue 11; target for 100,000 rows: at
# most 3 s and 200 MB peak RSS).  Prints figures, asserts nothing:
#  1. bench-xlsx: 100,000 GENERATED volume rows whose cost cell is a live
#     formula over the price list (the scan workbook's shape), written by
#     the output layer from rows produced on demand;
#  2. `ebsize scan --format xlsx -o` on a GENERATED 100,000-volume
#     describe-volumes file (gen-volumes.py): the findings workbook, 33
#     columns with long text; csv of the same for comparison;
#  3. the same for 100,000 findings (gen-volumes.py --findings: every
#     volume has one): the scan workbook with its live formulas (issue 11
#     target: at most 3 s and 200 MB).
# N=20000 sh xlsx.sh for a quicker run.
set -eu
: "${EBSIZE_BIN:?run through make perf}"
: "${BENCH_XLSX:?run through make perf}"
N=${N:-100000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$EBSIZE_BIN" --db "$T/perf.db" db check >/dev/null

echo "-- live-formula workbook, $N generated rows"
"$BENCH_XLSX" "$T/perf.db" "$N" "$T/bench.xlsx"
echo "   $(stat -c %s "$T/bench.xlsx" | awk '{printf "%.1f MB", $1 / 1e6}') written"

/usr/bin/python3 "$(dirname "$0")/gen-volumes.py" "$N" >"$T/volumes.json"
findings=$("$EBSIZE_BIN" --db "$T/perf.db" -q --format json scan "$T/volumes.json" 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(len(json.load(sys.stdin)["findings"]))')
echo "-- scan of $N generated volumes: $findings findings rows"
# timed FILE: scan --format xlsx and csv of FILE, wall and CPU seconds
timed() {
	for fmt in xlsx csv; do
		/usr/bin/time -f "%e %U %S %M" -o "$T/time" "$EBSIZE_BIN" --db "$T/perf.db" -q \
			--format $fmt -o "$T/fleet.$fmt" scan "$1" 2>/dev/null
		read -r secs user sys kib <"$T/time"
		printf '   scan --format %-4s -o: %5.2f s (CPU %5.2f s), peak RSS %6.1f MB, %6.1f MB written\n' \
			"$fmt" "$secs" "$(echo "$user $sys" | awk '{print $1 + $2}')" \
			"$(echo "$kib" | awk '{print $1 / 1024}')" \
			"$(stat -c %s "$T/fleet.$fmt" | awk '{print $1 / 1e6}')"
	done
}
timed "$T/volumes.json"
/usr/bin/python3 "$(dirname "$0")/gen-volumes.py" "$N" --findings >"$T/findings.json"
echo "-- scan of $N generated volumes, every one a finding (gen-volumes.py --findings)"
timed "$T/findings.json"
