#!/bin/sh
# t3080-bench-signal: SIGTERM during a phase reaches fio: ebsize ends in
# seconds, not when the phase would have, its fio is gone (no orphan),
# the run is 'interrupted' with the phases before intact, and `bench
# resume` completes it.  Regression test for the bench review (finding
# 4).  Real fio on a 16 MiB file in $T.
. "$(dirname "$0")/../lib/test-lib.sh"

. "$(dirname "$0")/../lib/bench-lib.sh"

start_long_run stopped
before=$(q "SELECT seq || ':' || iops FROM bench_phases WHERE run_id = 8 ORDER BY seq")

sleep 1
kill -TERM "$pid"
# the phase has at least 6 s left: ebsize must be gone well before
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
	i=$((i + 1)); sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
	fail "ebsize ends within 5 s of SIGTERM" "$(cat "$T/bg.err")"
	kill -9 "$pid" $child 2>/dev/null
else
	ok "ebsize ends within 5 s of SIGTERM"
fi
wait "$pid"
rc=$?
cp "$T/bg.err" "$T/err"
expect_rc 1 "the stopped run exits 1"
expect_err_has "error: interrupted during phase 'long'" "interrupted message"
expect_err_has "hint: 'ebsize bench resume 8' continues with the phase that did not finish" "resume hint"
if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
	fail "fio was stopped with ebsize (no orphan)"
	kill -9 "$child"
else
	ok "fio was stopped with ebsize (no orphan)"
fi
[ "$(q "SELECT status FROM bench_runs WHERE id = 8")" = interrupted ] &&
	ok "the run is interrupted" || fail "the run is interrupted"
expect_value "$(q "PRAGMA integrity_check")" ok "after SIGTERM the database passes integrity_check"
[ "$(q "SELECT group_concat(seq) FROM bench_phases WHERE run_id = 8")" = "0,1" ] &&
	ok "phases 0 and 1 are stored, the stopped phase is not" ||
	fail "phases 0 and 1 are stored, the stopped phase is not"

run --format json bench resume stopped
expect_rc 0 "resume exits 0"
expect_json run.status complete "the resumed run is complete"
expect_json phases.2.phase long "the stopped phase was measured again"
expect_json phases.3.phase last "the last phase ran"
after=$(q "SELECT seq || ':' || iops FROM bench_phases WHERE run_id = 8 AND seq < 2 ORDER BY seq")
[ "$before" = "$after" ] && ok "phases 0 and 1 are unchanged by the resume" ||
	fail "phases 0 and 1 are unchanged by the resume" "$before" "$after"
