#!/bin/sh
# t3090-bench-paths: a results directory whose name holds the glob
# characters '*', '?' and '[' (issue 13 defect 4).  fio's IOPS log of the
# run is read (its samples stored), and another directory that such a
# name would match as a glob pattern keeps its files.
. "$(dirname "$0")/../lib/test-lib.sh"

command -v fio >/dev/null || { skip "fio runs" "fio not installed"; exit 0; }
cat >"$T/p.profile" <<'P'
# generated for the tests: one short phase with a per-second IOPS log
size 16m
phase layout rw=write    bs=1M
phase first  rw=randread bs=4k iodepth=4 runtime=3 iops_log
P
res="$T/res *?[x]"
# what the pattern "res *?[x]/run-8/01-first_iops*.log" would also match
decoy="$T/res ab x/run-8"
mkdir -p "$decoy"
echo "1000, 123, 0, 4096, 0" >"$decoy/01-first_iops.1.log"
run --format json bench run --target "$T/t.fio" --profile "$T/p.profile" \
	--label globs --results "$res"
expect_rc 0 "a run with '*?[' in its results directory completes"
n=$(q "SELECT count(*) FROM bench_samples WHERE run_id = 8 AND seq = 1")
[ "$n" -ge 2 ] && ok "its IOPS log is read: $n samples stored" ||
	fail "its IOPS log is read: $n samples stored"
[ -s "$res/run-8/01-first_iops.1.log" ] && ok "the log is in the literal directory" ||
	fail "the log is in the literal directory" "$(ls -la "$res/run-8" 2>&1)"
[ -s "$decoy/01-first_iops.1.log" ] && ok "the other directory's log is untouched" ||
	fail "the other directory's log is untouched"
