# bench-lib.sh - shared by the e2e tests that interrupt a real bench run
# (t3030 kill -9, t3080 SIGTERM).  Source after test-lib.sh.
#
# start_long_run LABEL: start `bench run` in the background on a 16 MiB
# file in $T with a profile (generated for the tests) whose third phase
# lasts 8 s, and wait until phase 1 is stored and fio of that 8 s phase
# runs.  Sets $pid (ebsize) and $child (its fio); says ok/not ok.

command -v fio >/dev/null || { skip "fio runs" "fio not installed"; exit 0; }

start_long_run() {
	cat >"$T/p.profile" <<'P'
# generated for the tests: a long third phase to be interrupted in
size 16m
phase layout rw=write     bs=1M
phase first  rw=randread  bs=4k iodepth=4 runtime=1
phase long   rw=randwrite bs=4k iodepth=4 runtime=8
phase last   rw=read      bs=1M iodepth=4 runtime=1
P
	run bench list      # creates the database; the next run is run 8
	"$EBSIZE" --db "$DB" bench run --target "$T/t.fio" --profile "$T/p.profile" \
		--label "$1" --results "$T/res" >"$T/bg.out" 2>"$T/bg.err" &
	pid=$!
	i=0
	until [ "$(q "SELECT count(*) FROM bench_phases WHERE run_id = 8 AND seq = 1")" = 1 ]; do
		i=$((i + 1)); [ $i -gt 1200 ] && break; sleep 0.1
	done
	child=""
	i=0
	while [ -z "$child" ] && [ $i -lt 600 ]; do
		child=$(pgrep -P "$pid" -x fio)
		i=$((i + 1)); sleep 0.1
	done
	[ -n "$child" ] && ok "phase 1 stored and fio of the 8 s phase running" ||
		fail "phase 1 stored and fio of the 8 s phase running" "$(cat "$T/bg.err")"
}
