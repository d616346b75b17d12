#!/bin/sh
# bench-fio-overhead: the IOPS `ebsize bench run` records against the same
# fio command run directly, on a 256 MiB file in a temporary directory.
# Runs alternate (ebsize, direct) 3 times; the medians are compared and
# the ratio must be within 2 %.  A benchmark, not a test: it reports.
set -u
EBSIZE="${EBSIZE_BIN:?run through make perf}"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
RUNTIME=${RUNTIME:-5}
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
for i in 1 2 3; do
	"$EBSIZE" -q --db "$T/db" --format json bench run --target "$T/t.fio" \
		--profile "$T/p.profile" --results "$T/res" >"$T/e$i.json" || exit 1
	fio --name=rr --filename="$T/t.fio" --size=256m --rw=randread --bs=4k \
		--iodepth=32 --numjobs=1 --ioengine=libaio --direct=1 --group_reporting \
		--time_based --runtime="$RUNTIME" --write_iops_log="$T/d$i" --log_avg_msec=1000 \
		--output-format=json --output="$T/d$i.json" --eta=never || exit 1
done
/usr/bin/python3 - "$T" <<'PY'
import json, sys, statistics
t = sys.argv[1]
e = [json.load(open("%s/e%d.json" % (t, i)))["phases"][0]["iops"] for i in (1, 2, 3)]
d = [json.load(open("%s/d%d.json" % (t, i)))["jobs"][0]["read"]["iops"] for i in (1, 2, 3)]
me, md = statistics.median(e), statistics.median(d)
r = me / md
print("ebsize bench run IOPS: " + ", ".join("%.0f" % x for x in e) + "  (median %.0f)" % me)
print("fio directly     IOPS: " + ", ".join("%.0f" % x for x in d) + "  (median %.0f)" % md)
print("ratio ebsize/direct: %.4f (%+.2f %%) -> %s" % (r, (r - 1) * 100, "within 2 %" if abs(r - 1) <= 0.02 else "OVER 2 %"))
sys.exit(0 if abs(r - 1) <= 0.02 else 1)
PY
