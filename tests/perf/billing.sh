#!/bin/sh
# billing.sh - stream a GENERATED FOCUS export (gen-focus.py) through the
# billing reader (bench-billing: the library alone) and through the whole
# command (`ebsize --format json scan FILE`: reading, prices from the
# database, the join, the report), timed by GNU time (wall clock and peak
# RSS): a ~1 GB file of 2,000 volumes (hourly rows), the same
# gzip-compressed, and a ~100 MB file of 50,000 volumes, to show that
# peak RSS follows the number of volumes, not the file.  Needs
# BENCH_BILLING and EBSIZE_BIN (set by `make perf`).  SIZE_MB=200 for a
# quicker run.  Target: >= 100 MB/s on the plain file.
set -u
cd "$(dirname "$0")" || exit 2
: "${BENCH_BILLING:?run through make perf}"
: "${EBSIZE_BIN:?run through make perf}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-billing-perf.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
size=${SIZE_MB:-1024}

# the database first (seeding it is not part of a scan)
"$EBSIZE_BIN" --db "$dir/db" pricing regions >/dev/null 2>&1 || exit 1

# cli FILE: `ebsize scan FILE` end to end: MB/s of the file as stored,
# MB/s of its CSV text (the library's count, from the JSON), peak RSS
cli() {
	/usr/bin/time -v -o "$dir/time" "$EBSIZE_BIN" --db "$dir/db" --format json \
		scan "$1" >"$dir/out.json" 2>"$dir/err" || { cat "$dir/err"; return 1; }
	python3 - "$1" "$dir/time" "$dir/out.json" <<'EOF'
import json, os, re, sys
t = open(sys.argv[2]).read()
m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
secs = (int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3)))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + \
      float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
d = json.load(open(sys.argv[3]))
size = os.path.getsize(sys.argv[1]) / 1e6
text = sum(f["bytes"] for f in d["billing_files"]) / 1e6
print("%.0f MB file, %.0f MB of CSV in %.2f s (CPU %.2f s): %.0f MB/s (%.0f MB/s of CPU), "
      "%d volumes, %d findings, peak RSS %.1f MiB" %
      (size, text, secs, cpu, text / secs, text / cpu, d["billing"]["volumes"],
       d["summary"]["findings"], rss))
EOF
}

python3 gen-focus.py "$size" 2000 "$dir/big.csv" || exit 1
echo "plain, library:  $("$BENCH_BILLING" "$dir/big.csv")"
echo "plain, ebsize scan: $(cli "$dir/big.csv")"
gzip -1 -c "$dir/big.csv" >"$dir/big.csv.gz" || exit 1
rm -f "$dir/big.csv"
echo "gzip, library:   $("$BENCH_BILLING" "$dir/big.csv.gz")"
echo "gzip, ebsize scan:  $(cli "$dir/big.csv.gz")"
rm -f "$dir/big.csv.gz"
python3 gen-focus.py $((size / 10)) 50000 "$dir/many.csv" || exit 1
echo "50,000 volumes, library:    $("$BENCH_BILLING" "$dir/many.csv")"
echo "50,000 volumes, ebsize scan: $(cli "$dir/many.csv")"
rm -f "$dir/many.csv"
python3 gen-focus.py $((size / 100)) 2000 "$dir/small.csv" || exit 1
echo "small file, 2,000 volumes, library:    $("$BENCH_BILLING" "$dir/small.csv")"
echo "small file, 2,000 volumes, ebsize scan: $(cli "$dir/small.csv")"
