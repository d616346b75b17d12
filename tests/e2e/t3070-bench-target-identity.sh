#!/bin/sh
# t3070-bench-target-identity: the target is trusted by identity, not by
# name.  A ':' in --target (fio's file separator) is a usage error; a run's
# own file replaced by a symbolic link or by another file under the same
# name is refused by run and resume; a target swapped while a run is
# measuring stops the run before the next phase.  Regression tests for
# the bench review (findings 1-3).  Real fio on small files in $T only.
. "$(dirname "$0")/../lib/test-lib.sh"

command -v fio >/dev/null || { skip "fio runs" "fio not installed"; exit 0; }
cat >"$T/p.profile" <<'P'
# generated for this test: small and short
size 4m
phase layout rw=write    bs=1M
phase rr     rw=randread bs=4k iodepth=2 runtime=1
P
printf 'precious data\n' >"$T/victim"
cp "$T/victim" "$T/victim.copy"
untouched() { cmp -s "$T/victim" "$T/victim.copy"; }

# 1. ':' splits fio's --filename: victim:new.fio would write victim
usage_error "a target with ':' is a usage error" \
	"--target '$T/victim:$T/new.fio' contains ':', which fio treats as a separator between several files" \
	bench run --target "$T/victim:$T/new.fio" --profile "$T/p.profile" --results "$T/res"
untouched && [ ! -e "$T/new.fio" ] && [ ! -e "$T/res" ] &&
	ok "nothing written for the ':' target" || fail "nothing written for the ':' target"
usage_error "--destructive does not allow ':' either" \
	"--target 'x:$T/new.fio' contains ':', which fio treats as a separator between several files" \
	bench run --destructive --target "x:$T/new.fio" --profile "$T/p.profile"

# 2. a run's own file, then a symbolic link in its place
run bench run --target "$T/t1.fio" --profile "$T/p.profile" --results "$T/res"
expect_rc 0 "the first run creates and uses t1.fio"
[ "$(q "SELECT target_ino FROM bench_runs WHERE id = 8")" = "$(stat -c %i "$T/t1.fio")" ] &&
	ok "the run recorded the inode of the file it created" ||
	fail "the run recorded the inode of the file it created"
run bench run --target "$T/t1.fio" --profile "$T/p.profile" --results "$T/res"
expect_rc 0 "a second run may reuse the file the first created"

mv "$T/t1.fio" "$T/t1.old"
ln -s "$T/victim" "$T/t1.fio"
run bench run --target "$T/t1.fio" --profile "$T/p.profile" --results "$T/res"
expect_rc 1 "a symbolic link in place of the created file is refused"
expect_err "error: refusing to run fio on '$T/t1.fio': it is a symbolic link, and the benchmark's writes would destroy its data
hint: fio writes over the whole file; pass --destructive only if nothing on it matters, or choose a new file with --target" "symbolic link message"
q "UPDATE bench_runs SET status = 'interrupted' WHERE id = 9"
run bench resume 9
expect_rc 1 "resume refuses the symbolic link too"
expect_err_has "error: refusing to run fio on '$T/t1.fio': it is a symbolic link" "resume's symbolic link message"
untouched && ok "the link's target is untouched" || fail "the link's target is untouched"

# the same name, another file
rm "$T/t1.fio"
cp "$T/victim" "$T/t1.fio"
run bench resume 9
expect_rc 1 "another file under the created file's name is refused"
expect_err_has "error: refusing to run fio on '$T/t1.fio': it is an existing file ebsize did not create" "same-name message"
cmp -s "$T/t1.fio" "$T/victim.copy" && ok "the other file is untouched" ||
	fail "the other file is untouched"

# 3. swapped while measuring: the next phase does not start
cat >"$T/long.profile" <<'P'
# generated for this test: a phase long enough to swap the file during it
size 4m
phase layout rw=write    bs=1M
phase rr     rw=randread bs=4k iodepth=2 runtime=3
phase rw     rw=randwrite bs=4k iodepth=2 runtime=1
P
"$EBSIZE" --db "$DB" bench run --target "$T/t2.fio" --profile "$T/long.profile" \
	--results "$T/res" >"$T/bg.out" 2>"$T/bg.err" &
pid=$!
i=0
until [ "$(q "SELECT count(*) FROM bench_phases WHERE run_id = 10 AND seq = 0")" = 1 ]; do
	i=$((i + 1)); [ $i -gt 300 ] && break; sleep 0.1
done
mv "$T/t2.fio" "$T/t2.old"
ln -s "$T/victim" "$T/t2.fio"
wait "$pid"
rc=$?
cp "$T/bg.err" "$T/err"
expect_rc 1 "a run whose target is swapped stops"
expect_err_has "error: refusing to go on with fio on '$T/t2.fio': it was replaced since ebsize checked it (another file or a symbolic link)" "swap message"
[ "$(q "SELECT status || ':' || group_concat(seq) FROM bench_runs r JOIN bench_phases p ON p.run_id = r.id WHERE r.id = 10")" = "interrupted:0,1" ] &&
	ok "the run is interrupted after the phases before the swap" ||
	fail "the run is interrupted after the phases before the swap" "$(q "SELECT status FROM bench_runs WHERE id = 10")"
untouched && ok "the file swapped in is untouched" || fail "the file swapped in is untouched"
