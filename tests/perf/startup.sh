#!/bin/sh
# startup.sh - whole-process time of short commands (issue 14 "start-up"):
# `ebsize version` and `ebsize cost`, against a libc-only floor (/bin/true),
# with hyperfine when installed (Debian: hyperfine), else a median of 51
# runs timed with date.  libcurl is loaded only by `pricing fetch`, so
# these must not pay for it.  Figures only.
set -u
EBSIZE=${EBSIZE_BIN:?run through make perf}
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
DB=$T/perf.db
"$EBSIZE" --db "$DB" pricing show >/dev/null
if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N -w 5 -r 100 --export-markdown "$T/md" /bin/true "$EBSIZE version" \
		"$EBSIZE --db $DB cost --type gp3 --size 100" >/dev/null 2>&1
	cat "$T/md"
	exit 0
fi
med() {
	: >"$T/t"
	for i in $(seq 51); do
		s=$(date +%s%N)
		"$@" >/dev/null
		e=$(date +%s%N)
		echo $(( (e - s) / 1000 )) >>"$T/t"
	done
	sort -n "$T/t" | sed -n 26p
}
echo "/bin/true: $(med /bin/true) us; ebsize version: $(med "$EBSIZE" version) us; cost: $(med "$EBSIZE" --db "$DB" cost --type gp3 --size 100) us (medians of 51)"
