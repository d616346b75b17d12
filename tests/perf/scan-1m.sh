#!/bin/sh
# scan-1m.sh - issue 14's scan targets at 1,000,000 volumes: `ebsize scan`
# with table output (the --limit first findings and running totals) in at
# most 100 MiB of peak RSS, and in at most 1.2x the time of parsing the
# same file with cJSON alone (cjson-parse.c, whole file).  The inventory
# is GENERATED (gen-volumes.py, about 570 MB); median wall time of RUNS
# (5) runs and the largest peak RSS.  Prints figures, asserts nothing.
# N=200000 sh scan-1m.sh for a quicker run.
cd "$(dirname "$0")" || exit 2
exec /usr/bin/python3 bench-scan.py "${N:-1000000}" "${RUNS:-5}" \
	"ebsize scan (table" "cJSON_Parse"
