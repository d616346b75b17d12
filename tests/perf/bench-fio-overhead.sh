#!/bin/sh
# bench-fio-overhead: the IOPS `ebsize bench run` records against the same
# fio command run directly, on a 256 MiB file in a temporary directory.
# Runs come in PAIRS (default 12) of ebsize then direct, or direct then
# ebsize; the median of the per-pair ratios must be within 2 % (a disk
# shared with other guests drifts by several % from run to run, which
# pairing cancels).  Also checks that what ebsize stored is exactly what
# fio wrote in that run's JSON.  A benchmark, not a test: it reports.
set -u
EBSIZE="${EBSIZE_BIN:?run through make perf}"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
RUNTIME=${RUNTIME:-3}
PAIRS=${PAIRS:-12}
cat >"$T/p.profile" <<P
size 256m
phase rr rw=randread bs=4k iodepth=32 runtime=$RUNTIME iops_log
P
cat >"$T/layout.profile" <<P
size 256m
phase layout rw=write bs=1M
P
"$EBSIZE" -q --db "$T/db" bench run --target "$T/t.fio" --profile "$T/layout.profile" \
	--results "$T/res" >/dev/null || exit 1
via_ebsize() {
	"$EBSIZE" -q --db "$T/db" --format json bench run --target "$T/t.fio" \
		--profile "$T/p.profile" --results "$T/res" >"$T/e$1.json"
}
direct() {
	fio --name=rr --filename="$T/t.fio" --size=256m --rw=randread --bs=4k \
		--iodepth=32 --numjobs=1 --ioengine=libaio --direct=1 --group_reporting \
		--time_based --runtime="$RUNTIME" --write_iops_log="$T/d$1" --log_avg_msec=1000 \
		--output-format=json --output="$T/d$1.json" --eta=never
}
i=0
# the order alternates so neither side always runs on a disk just warmed
while [ $i -lt "$PAIRS" ]; do
	i=$((i + 1))
	if [ $((i % 2)) = 1 ]; then
		via_ebsize $i && direct $i || exit 1
	else
		direct $i && via_ebsize $i || exit 1
	fi
done
/usr/bin/python3 - "$T" "$PAIRS" <<'PY'
import json, sys, statistics
t, n = sys.argv[1], int(sys.argv[2])
runs = [json.load(open("%s/e%d.json" % (t, i))) for i in range(1, n + 1)]
e = [r["phases"][0]["iops"] for r in runs]
d = [json.load(open("%s/d%d.json" % (t, i)))["jobs"][0]["read"]["iops"] for i in range(1, n + 1)]
# what ebsize stored against fio's own JSON of the same run
own = [json.load(open("%s/res/run-%d/00-rr.json" % (t, r["run"]["id"])))["jobs"][0]["read"]["iops"]
       for r in runs]
worst = max(abs(a / b - 1) for a, b in zip(e, own))
print("stored vs fio's JSON of the same run: max deviation %.2e" % worst)
me, md = statistics.median(e), statistics.median(d)
r = statistics.median(a / b for a, b in zip(e, d))
print("ebsize bench run IOPS: " + ", ".join("%.0f" % x for x in e) + "  (median %.0f)" % me)
print("fio directly     IOPS: " + ", ".join("%.0f" % x for x in d) + "  (median %.0f)" % md)
print("median of per-pair ratios ebsize/direct: %.4f (%+.2f %%) -> %s" % (r, (r - 1) * 100, "within 2 %" if abs(r - 1) <= 0.02 else "OVER 2 %"))
sys.exit(0 if abs(r - 1) <= 0.02 else 1)
PY
