#!/bin/sh
# t3060-bench-failures: fio failing in a phase marks the run failed with
# fio's own message; Ctrl-C (SIGINT to ebsize and fio) marks it
# interrupted, keeps the phases before, and resume finishes it.
. "$(dirname "$0")/../lib/test-lib.sh"

command -v fio >/dev/null || { skip "fio runs" "fio not installed"; exit 0; }

# bs=1000 is not a multiple of the sector size: O_DIRECT reads fail
printf 'size 16m\nphase a rw=randread bs=1000 runtime=1\n' >"$T/bad.profile"
run bench run --target "$T/t.fio" --profile "$T/bad.profile" --results "$T/res"
expect_rc 1 "a failing fio exits 1"
expect_err_has "error: fio failed in phase 'a' (exit status 1): fio: io_u error on file $T/t.fio: Invalid argument" "fio's error is shown"
expect_err_has "hint: 'ebsize bench resume 8' continues with the phase that did not finish" "resume hint"
[ "$(q "SELECT status FROM bench_runs WHERE id = 8")" = failed ] && ok "run marked failed" || fail "run marked failed"

cat >"$T/p.profile" <<'P'
size 16m
phase first  rw=randread bs=4k runtime=1
phase second rw=randread bs=4k runtime=6
phase third  rw=randread bs=4k runtime=1
P
"$EBSIZE" --db "$DB" bench run --target "$T/t.fio" --profile "$T/p.profile" \
	--results "$T/res" >"$T/bg.out" 2>"$T/bg.err" &
pid=$!
i=0
until [ "$(q "SELECT count(*) FROM bench_phases WHERE run_id = 9")" = 1 ] && pgrep -P "$pid" -x fio >/dev/null; do
	i=$((i + 1)); [ $i -gt 1200 ] && break; sleep 0.1
done
sleep 0.5   # fio of the 6 s phase runs: interrupt it inside that phase
kill -INT "$pid" $(pgrep -P "$pid" -x fio)
wait "$pid"
rc=$?
cp "$T/bg.err" "$T/err"
expect_rc 1 "an interrupted run exits 1"
expect_err_has "error: interrupted during phase 'second'
hint: 'ebsize bench resume 9' continues with the phase that did not finish" "interrupted message"
[ "$(q "SELECT status || ' ' || (SELECT group_concat(phase) FROM bench_phases WHERE run_id = 9) FROM bench_runs WHERE id = 9")" = "interrupted first" ] &&
	ok "run interrupted, the first phase kept" || fail "run interrupted, the first phase kept"
expect_value "$(q "PRAGMA integrity_check")" ok "after SIGINT the database passes integrity_check"
run --format json bench resume 9
expect_rc 0 "resume after Ctrl-C"
expect_json run.status complete "complete after resume"
expect_json phases.2.phase third "all three phases"
