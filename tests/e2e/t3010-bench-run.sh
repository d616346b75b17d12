#!/bin/sh
# t3010-bench-run: the quick profile with the real fio on a small file in
# $T: every phase stored with plausible values, raw outputs kept, the
# fio version and host recorded, and a second run may reuse the file.
. "$(dirname "$0")/../lib/test-lib.sh"

command -v fio >/dev/null || { skip "fio runs" "fio not installed"; exit 0; }
run --format json bench run --target "$T/test.fio" --profile quick --label q \
	--volume-type gp2 --size 100 --results "$T/res"
expect_rc 0 "quick run exits 0"
expect_json run.status complete "run complete"
expect_json run.fio_version "$(fio --version)" "fio version recorded"
expect_json run.host "$(uname -n)" "host recorded"
expect_json run.filesystem ext4 "file system recorded"
expect_json run.target "$T/test.fio" "absolute target recorded"
expect_err_has "run 8 'q': profile quick, 6 of 6 phases" "plan printed before starting"
expect_err_has "total: 11 s (0.2 min) of timed phases, plus writing the file once" "total time printed"

# plausibility of every phase, checked against fio's own JSON files
/usr/bin/python3 - "$T/out" "$T/res/run-8" <<'PY' >"$T/py.out" 2>&1
import json, sys, os
d = json.load(open(sys.argv[1]))
names = ["layout", "randread-qd32", "randwrite-qd32", "randread-qd1", "seqread", "seqwrite"]
bs = {"4k": 4096, "1M": 1 << 20}
ok = True
for i, p in enumerate(d["phases"]):
    raw = json.load(open(os.path.join(sys.argv[2], "%02d-%s.json" % (i, names[i]))))
    job = raw["jobs"][0]
    dirn = "write" if "write" in p["rw"] else "read"
    want = job[dirn]["iops"]
    checks = [
        p["seq"] == i and p["phase"] == names[i],
        p["iops"] > 0 and abs(p["iops"] - want) <= 1e-6 * want,
        abs(p["bw_mibps"] - p["iops"] * bs[p["bs"]] / 1048576) <= 0.01 * p["bw_mibps"],
        0 < p["p50_ms"] <= p["p95_ms"] <= p["p99_ms"] <= p["p999_ms"],
        p["lat_mean_ms"] > 0,
    ]
    if not all(checks):
        ok = False
        print("phase", i, checks, p)
a = d["analysis"][1]
if not (a["samples"] >= 2 and a["steady_iops"] > 0 and a["model"]["cliff_t_s"] == 2000 and a["model"]["steady_iops"] == 300):
    ok = False
    print("analysis", a)
# Little's law holds on a local disk within a factor of 2
for a in d["analysis"][1:]:
    if not (0.5 < a["little"]["ratio"] < 2):
        ok = False
        print("little", a)
print("ok" if ok else "bad")
PY
if grep -qx ok "$T/py.out"; then ok "every phase stored with plausible values"; else fail "every phase stored with plausible values" "$(cat "$T/py.out")"; fi

n=$(sqlite3 "$DB" "SELECT count(*) FROM bench_samples WHERE run_id = 8 AND seq = 1")
[ "$n" -ge 2 ] && ok "per-second samples stored ($n)" || fail "per-second samples stored ($n)"
for f in 00-layout.json 01-randread-qd32.json 01-randread-qd32_iops.1.log 05-seqwrite.json; do
	[ -s "$T/res/run-8/$f" ] && ok "raw output $f kept" || fail "raw output $f kept"
done
[ "$(stat -c %s "$T/test.fio")" = 67108864 ] && ok "64 MiB test file" || fail "64 MiB test file"

# the file ebsize created may be measured again
printf 'size 64m\nphase r rw=randread bs=4k iodepth=4 runtime=1\n' >"$T/one.profile"
run -q --format json bench run --target "$T/test.fio" --profile "$T/one.profile"
expect_rc 0 "a second run on the file ebsize created is allowed"
expect_json run.results_dir "$T/bench-results/run-9" "raw outputs default to bench-results beside the database"
[ -s "$T/bench-results/run-9/00-r.json" ] && ok "fio JSON kept there" || fail "fio JSON kept there"
expect_json run.label custom "label defaults to the profile name"
expect_err_empty "-q silences the plan"
run --format json bench list
expect_json runs.0.phases 1 "second run has one phase"

# progress: only on a terminal (script(1) gives ebsize one)
grep -q "elapsed" "$T/err" && fail "no progress line without a terminal" || ok "no progress line without a terminal"
if command -v script >/dev/null; then
	printf 'size 64m\nphase rr rw=randread bs=4k iodepth=8 runtime=2 iops_log\n' >"$T/two.profile"
	script -qc "'$EBSIZE' --db '$DB' bench run --target '$T/test.fio' --profile '$T/two.profile' --results '$T/res' >/dev/null" /dev/null |
		tr '\r' '\n' >"$T/tty.err"
	grep -aqE "^.*phase 1/1 rr: [0-9]+ s elapsed, about [0-9]+ s left, (-|[0-9]+) IOPS" "$T/tty.err" &&
		ok "progress line on a terminal: phase, elapsed, remaining, IOPS" ||
		fail "progress line on a terminal: phase, elapsed, remaining, IOPS" "$(cat -A "$T/tty.err" | head -5)"
else
	skip "progress on a terminal" "script(1) not installed"
fi
