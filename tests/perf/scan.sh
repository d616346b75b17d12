#!/bin/sh
# scan.sh - `ebsize scan` on a GENERATED 100,000-volume describe-volumes
# file (gen-volumes.py) against a Python script, jq and a plain cJSON parse
# of the same file.  Median wall time and peak RSS over several runs.
# N=20000 sh scan.sh for a quicker run.
cd "$(dirname "$0")" || exit 2
exec /usr/bin/python3 bench-scan.py "${N:-100000}" "${RUNS:-5}"
