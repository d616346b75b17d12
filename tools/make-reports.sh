#!/bin/sh
# make-reports.sh EBSIZE DIR - the example report, as committed in reports/
# (`make reports`; t6000 checks that reports/ is what this makes).  From
# the embedded data only: a fresh database, the default region (us-east-1)
# for the cost curves, and a scan of a GENERATED inventory written by
# tools/gen-inventory.py (1,200 volumes in four regions, with CloudWatch
# peaks and used space, none of it from a real account; the report says
# so).  The inventory is read under its own name from a temporary
# directory, so the report names no temporary path.
set -eu
ebsize=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$(dirname "$0")/gen-inventory.py" "$tmp"
rm -f "$out"/*.svg "$out"/index.html
cd "$tmp"
env -u AWS_REGION -u AWS_DEFAULT_REGION "$ebsize" -q --db "$tmp/reports.db" \
	report -o "$out" --bench --compare --burst \
	--scan generated-inventory.json --metrics generated-metrics.json \
	--usage generated-usage.csv --by-tag team --generated
