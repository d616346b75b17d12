#!/bin/sh
# t9000-linear-time: parsers of outside input take time linear in their
# input (issue 13).  Each probe times the same job on n and 4n units of
# generated input (labelled generated); linear is a ratio of about 4,
# quadratic 16.  The bound, 9, leaves room for a noisy, shared machine.
. "$(dirname "$0")/../lib/test-lib.sh"

# seconds (with decimals) that "$@" takes
elapsed() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }'
}

# ratio_ok DESC T1 T4: T4 / T1 below 9 (T1 at least 5 ms to be measurable)
ratio_ok() {
	if awk -v a="$2" -v b="$3" 'BEGIN { if (a < 0.005) a = 0.005; exit !(b / a < 9) }'; then
		ok "$1: $2 s for n, $3 s for 4n"
	else
		fail "$1: $2 s for n, $3 s for 4n (ratio over 9: not linear)"
	fi
}

# CloudWatch get-metric-data: 4 volumes x 2 metrics, one long series each
gen_metrics() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys, datetime
n, out = int(sys.argv[1]), sys.argv[2]
t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
ts = [(t0 + datetime.timedelta(seconds=300 * i)).isoformat() for i in range(n // 8)]
res = []
for v in range(4):
    vid = "vol-%017x" % (0xabc000 + v)
    for m in ("rops", "wops"):
        res.append({"Id": "%s_300_vol_%s" % (m, vid[4:]), "Label": "generated",
                    "Timestamps": ts, "Values": [1500.0] * len(ts),
                    "StatusCode": "Complete"})
json.dump({"MetricDataResults": res, "Messages": []}, open(out, "w"))
PY
}
/usr/bin/python3 - "$T/inv.json" <<'PY'
import json, sys
vols = [{"VolumeId": "vol-%017x" % (0xabc000 + v), "Size": 100, "VolumeType": "gp2",
         "Iops": 300, "State": "in-use", "AvailabilityZone": "us-east-1a",
         "Attachments": [{"State": "attached"}]} for v in range(4)]
json.dump({"Volumes": vols}, open(sys.argv[1], "w"))
PY
gen_metrics 50000 "$T/m1.json"
gen_metrics 200000 "$T/m4.json"
run scan "$T/inv.json" --metrics "$T/m1.json"
expect_rc 0 "scan with 50,000 metric points"
t1=$(elapsed "$EBSIZE" --db "$DB" scan "$T/inv.json" --metrics "$T/m1.json")
t4=$(elapsed "$EBSIZE" --db "$DB" scan "$T/inv.json" --metrics "$T/m4.json")
ratio_ok "CloudWatch data, 50,000 and 200,000 points" "$t1" "$t4"

# fio IOPS log: 100,000 and 400,000 lines beside one fio JSON output
mkdir -p "$T/l1" "$T/l4"
for d in l1 l4; do
	cp "$FIXTURES/fio/fio-3.1-randread-libaio-qd1.json" "$T/$d/run.json"
done
awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "%d, %d, 0, 4096, 0\n", i * 1000, 3000 }' \
	>"$T/l1/run_iops.1.log"
awk 'BEGIN { for (i = 1; i <= 400000; i++) printf "%d, %d, 0, 4096, 0\n", i * 1000, 3000 }' \
	>"$T/l4/run_iops.1.log"
run bench import "$T/l1"
expect_rc 0 "import a 100,000-line IOPS log"
t1=$(elapsed "$EBSIZE" --db "$T/b1.db" bench import "$T/l1")
t4=$(elapsed "$EBSIZE" --db "$T/b4.db" bench import "$T/l4")
ratio_ok "fio IOPS log, 100,000 and 400,000 lines" "$t1" "$t4"
