#!/bin/sh
# t0750-fuzz-replay: every libFuzzer harness (tests/fuzz/fuzz_NAME.c), built
# with tests/fuzz/replay.c's main by `make test` (under ASan/UBSan with
# SANITIZE), replays its kept findings (tests/fuzz/regress/NAME/: each an
# input that once crashed or tripped a harness check), its committed seeds
# (tests/fuzz/corpus/NAME/) and every fixture file: none may crash, trap
# or draw a sanitizer report.  The fuzzing itself is `make fuzz`; a short
# run of each is in `make check-all`.
. "$(dirname "$0")/../lib/test-lib.sh"

if [ -z "${FUZZ_REPLAY:-}" ] || [ ! -d "$FUZZ_REPLAY" ]; then
	skip "fuzz replay" "no replay binaries (run through make test)"
	exit 0
fi
FIXTURE_FILES=$(find "$FIXTURES" -type f | sort)
for bin in "$FUZZ_REPLAY"/fuzz_*; do
	name=${bin##*/fuzz_}
	# shellcheck disable=SC2086
	"$bin" "$ROOT/tests/fuzz/regress/$name" "$ROOT/tests/fuzz/corpus/$name" $FIXTURE_FILES \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0 "$name: seeds, kept findings and fixtures replay cleanly ($(cat "$T/out"))"
done
