#!/bin/sh
# t3030-bench-resume: kill -9 ebsize and its fio during a later phase;
# the phases stored before are intact, and `bench resume` runs the phase
# that was lost and the rest.  Real fio on a 16 MiB file in $T.
. "$(dirname "$0")/../lib/test-lib.sh"

. "$(dirname "$0")/../lib/bench-lib.sh"

start_long_run killed

run bench resume 8
expect_rc 1 "resume refuses while the run is being measured"
expect_err "error: the run in '$T/res/run-8' is being measured by another ebsize process" "busy run message"

sleep 1
kill -9 "$pid" $child
wait "$pid" 2>/dev/null
before=$(q "SELECT seq || ':' || iops FROM bench_phases WHERE run_id = 8 ORDER BY seq")
[ "$(q "SELECT group_concat(seq) FROM bench_phases WHERE run_id = 8")" = "0,1" ] &&
	ok "after kill -9 phases 0 and 1 are stored, phase 2 is not" ||
	fail "after kill -9 phases 0 and 1 are stored, phase 2 is not" "$before"
[ "$(q "SELECT status FROM bench_runs WHERE id = 8")" = running ] &&
	ok "the killed run still says running" || fail "the killed run still says running"

run --format json bench show 8
expect_out_has "'ebsize bench resume 8' continues with its next phase" "show says how to resume"

run --format json bench resume killed
expect_rc 0 "resume exits 0"
expect_err_has "run 8 'killed': profile custom, 2 of 4 phases" "resume plans the remaining phases"
expect_json run.status complete "the resumed run is complete"
expect_json phases.2.phase long "the lost phase was measured again"
expect_json phases.3.phase last "the last phase ran"
after=$(q "SELECT seq || ':' || iops FROM bench_phases WHERE run_id = 8 AND seq < 2 ORDER BY seq")
[ "$before" = "$after" ] && ok "phases 0 and 1 are unchanged by the resume" ||
	fail "phases 0 and 1 are unchanged by the resume" "before $before" "after $after"
[ "$(q "SELECT count(*) FROM bench_phases WHERE run_id = 8 AND iops > 0")" = 4 ] &&
	ok "all four phases stored with IOPS" || fail "all four phases stored with IOPS"

run bench resume 8
expect_rc 1 "a complete run cannot be resumed"
expect_err "error: run 8 is already complete" "complete run message"
