#!/bin/sh
# run.sh - the whole suite: C unit tests, then every tests/e2e/t*.sh.
# Each part prints TAP-like "ok N - ..." / "not ok N - ..." lines; this
# script counts them and ends with one line "N passed, N failed, N skipped"
# (an "ok N - ... # SKIP why" line is a check that could not run here).
# Needs EBSIZE_BIN and UNIT_BIN (set by `make test`).
# TESTS="t0100 t0200" limits the e2e scripts run (prefix match).
set -u
cd "$(dirname "$0")/.." || exit 2
: "${EBSIZE_BIN:?run through make test}"
: "${UNIT_BIN:?run through make test}"
export EBSIZE_BIN
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

run_part() {
	name=$1; shift
	"$@" >"$log.part" 2>&1
	rc=$?
	cat "$log.part" >>"$log"
	# each failure with the details the test printed under it ("#" lines)
	awk -v name="$name" '/^not ok/ { show = 12; print name ": " $0; next }
		/^#/ && show > 0 { show--; print name ": " $0; next } { show = 0 }' "$log.part"
	if [ $rc -ne 0 ] && ! grep -aqE '^not ok' "$log.part"; then
		echo "not ok - $name exited $rc without a failing test" | tee -a "$log"
		tail -n 20 "$log.part"
	fi
	p=$(grep -aE '^ok ' "$log.part" | grep -acvE '# SKIP')
	f=$(grep -acE '^not ok' "$log.part")
	s=$(grep -aE '^ok ' "$log.part" | grep -acE '# SKIP')
	printf '%-40s %4d passed %3d failed %3d skipped\n' "$name" "$p" "$f" "$s"
	rm -f "$log.part"
}

run_part unit "$UNIT_BIN"
for t in tests/e2e/t[0-9]*.sh; do
	base=$(basename "$t" .sh)
	if [ -n "${TESTS:-}" ]; then
		sel=0
		for want in $TESTS; do
			case "$base" in "$want"*) sel=1 ;; esac
		done
		[ $sel = 1 ] || continue
	fi
	run_part "$base" sh "$t"
done
passed=$(grep -aE '^ok ' "$log" | grep -acvE '# SKIP')
failed=$(grep -acE '^not ok' "$log")
skipped=$(grep -aE '^ok ' "$log" | grep -acE '# SKIP')
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || status=1
exit $status
