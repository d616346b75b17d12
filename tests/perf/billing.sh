#!/bin/sh
# billing.sh - stream a GENERATED FOCUS export (gen-focus.py) through the
# billing reader: a ~1 GB file of 2,000 volumes (hourly rows), the same
# gzip-compressed, and a ~100 MB file of 50,000 volumes, to show that
# peak RSS follows the number of volumes, not the file.  Needs
# BENCH_BILLING (set by `make perf`).  SIZE_MB=200 for a quicker run.
# Target: >= 100 MB/s on the plain file.
set -u
cd "$(dirname "$0")" || exit 2
: "${BENCH_BILLING:?run through make perf}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-billing-perf.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
size=${SIZE_MB:-1024}
python3 gen-focus.py "$size" 2000 "$dir/big.csv" || exit 1
echo "plain:  $("$BENCH_BILLING" "$dir/big.csv")"
gzip -1 -c "$dir/big.csv" >"$dir/big.csv.gz" || exit 1
echo "gzip:   $("$BENCH_BILLING" "$dir/big.csv.gz")"
rm -f "$dir/big.csv" "$dir/big.csv.gz"
python3 gen-focus.py $((size / 10)) 50000 "$dir/many.csv" || exit 1
echo "50,000 volumes: $("$BENCH_BILLING" "$dir/many.csv")"
python3 gen-focus.py $((size / 100)) 2000 "$dir/small.csv" || exit 1
echo "small file, 2,000 volumes: $("$BENCH_BILLING" "$dir/small.csv")"
