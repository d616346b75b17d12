#!/bin/sh
# t5020-output-file: -o FILE writes the result whole or not at all.  The
# same bytes as stdout; an old file is replaced only on success (its mode
# kept); a failing command, an unwritable or missing directory, a full file
# system (a small tmpfs, or `ulimit -f`), SIGINT or SIGTERM during a big
# export: exit status says so, the message names the file, and nothing is
# left behind, not even the temporary file.
. "$(dirname "$0")/../lib/test-lib.sh"

D="$T/d"
mkdir -p "$D"
mounts=""
trap 'for m in $mounts; do umount "$m" 2>/dev/null; done; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

# only_files DIR NAMES DESC: DIR holds exactly NAMES (sorted, space-separated)
only_files() {
	got=$(ls -A "$1" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$2" ]; then ok "$3"; else fail "$3" "files: '$got', expected '$2'"; fi
}

# --- the same result as stdout, for every text format
for f in table csv json md; do
	run --format $f compare --sizes 100,500
	cp "$T/out" "$T/stdout.$f"
	run --format $f -o "$D/r.$f" compare --sizes 100,500
	expect_rc 0 "-o with --format $f exits 0"
	expect_out_empty "-o with --format $f: nothing on stdout"
	cmp -s "$D/r.$f" "$T/stdout.$f" && ok "-o with --format $f: the bytes stdout gets" ||
		fail "-o with --format $f: the bytes stdout gets"
done
run --output="$D/eq.json" --format json cost --type gp3 --size 10
expect_rc 0 "--output=FILE works"
run -o - --format csv cost --type gp3 --size 10
expect_out_has "region,currency,type" "-o - is standard output"
run --format json burst --size 100 --load 3000 --timeline --duration 5 -o "$D/tl.json"
expect_rc 0 "a streamed result (burst --timeline) goes to the file too"
[ "$(json_get timeline.4.t_s <"$D/tl.json")" = 5 ] && ok "the streamed file is whole" ||
	fail "the streamed file is whole"
run -o "$D/path.txt" db path
[ "$(cat "$D/path.txt")" = "$DB" ] && ok "db path writes its path to the file" ||
	fail "db path writes its path to the file"
run -o "$D/version.txt" version
[ "$(cat "$D/version.txt")" = "ebsize 0.1.0" ] && ok "version writes to the file" ||
	fail "version writes to the file"
rm -f "$D"/*

# --- replace atomically, keep the mode; umask for a new file
printf 'old\n' >"$D/keep.csv"
chmod 640 "$D/keep.csv"
run --format csv -o "$D/keep.csv" cost --type gp3 --size 10
expect_rc 0 "an existing file is replaced"
head -n 1 "$D/keep.csv" | grep -q '^region,currency,type' && ok "the new content is in place" ||
	fail "the new content is in place"
[ "$(stat -c %a "$D/keep.csv")" = 640 ] && ok "the file's mode is kept (640)" ||
	fail "the file's mode is kept (640)" "mode $(stat -c %a "$D/keep.csv")"
(umask 027 && "$EBSIZE" --db "$DB" -o "$D/new.csv" --format csv cost --type gp3 --size 10)
[ "$(stat -c %a "$D/new.csv")" = 640 ] && ok "a new file follows the umask (027: 640)" ||
	fail "a new file follows the umask (027: 640)" "mode $(stat -c %a "$D/new.csv")"
rm -f "$D/new.csv"

# --- a failing command leaves the old file as it was, and nothing else
printf 'old\n' >"$D/keep.csv"
run --format csv -o "$D/keep.csv" cost --type io1 --size 1 --iops 100000
expect_rc 1 "an illegal configuration exits 1"
[ "$(cat "$D/keep.csv")" = old ] && ok "runtime error: the old file is untouched" ||
	fail "runtime error: the old file is untouched"
run --format csv -o "$D/keep.csv" cost --type gp3 --size 0
expect_rc 2 "a usage error exits 2"
[ "$(cat "$D/keep.csv")" = old ] && ok "usage error: the old file is untouched" ||
	fail "usage error: the old file is untouched"
run --format csv -o "$D/keep.csv" --table nosuch cost --type gp3 --size 10
expect_rc 2 "an unknown table exits 2"
[ "$(cat "$D/keep.csv")" = old ] && ok "unknown table: the old file is untouched" ||
	fail "unknown table: the old file is untouched"
run -o "$D/help.txt" cost -h
expect_out_has "usage: ebsize cost" "-h still prints help on stdout"
only_files "$D" "keep.csv" "no temporary file left, no file for -h"

# --- bad paths
run -o "$T/nodir/x.csv" compare
expect_rc 1 "a missing directory exits 1"
expect_err "error: cannot create '$T/nodir/x.csv': No such file or directory" \
	"a missing directory: the message names the file and why"
run -o "$D" compare
expect_rc 1 "a directory as FILE exits 1"
expect_err "error: cannot write '$D': Is a directory" "a directory as FILE: the message"
run --format csv -o /dev/null compare
expect_rc 0 "a device (/dev/null) is written in place"
run --format xlsx -o /dev/null compare
expect_rc 1 "a workbook needs a regular file"
expect_err "error: cannot write '/dev/null': not a regular file" "a workbook to /dev/null: the message"

# unwritable: a read-only file system (root ignores directory modes)
if [ "$(id -u)" != 0 ]; then
	mkdir "$T/ro" && chmod 555 "$T/ro"
	want="Permission denied"
elif mkdir "$T/ro" && mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" 2>/dev/null; then
	mounts="$mounts $T/ro"
	want="Read-only file system"
else
	want=""
fi
if [ -n "$want" ]; then
	run --format xlsx -o "$T/ro/x.xlsx" compare
	expect_rc 1 "an unwritable directory exits 1"
	expect_err "error: cannot create '$T/ro/x.xlsx': $want" "an unwritable directory: the message"
	only_files "$T/ro" "" "an unwritable directory: no file"
else
	ok "# skip unwritable directory (cannot mount a read-only tmpfs here)"
fi

# --- a full file system: a 64 KiB tmpfs
if mkdir "$T/full" && mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	mounts="$mounts $T/full"
	run --format xlsx -o "$T/full/x.xlsx" burst --size 100 --load 3000 --duration 20000
	expect_rc 1 "a workbook on a full file system exits 1"
	expect_err "error: cannot write '$T/full/x.xlsx': temporary sheet data in '$T/full': No space left on device" \
		"a full file system (xlsx): the message"
	only_files "$T/full" "" "a full file system (xlsx): no file"
	run --format csv -o "$T/full/x.csv" burst --size 100 --load 3000 --timeline --duration 20000
	expect_rc 1 "a stream on a full file system exits 1"
	expect_err "error: cannot write '$T/full/x.csv': No space left on device" \
		"a full file system (stream): the message"
	only_files "$T/full" "" "a full file system (stream): no file"
	run --format json -o "$T/full/x.json" compare --types gp2,gp3,io1,io2,st1,sc1,standard \
		--sizes "$(seq -s, 1 64)"
	expect_rc 1 "a document on a full file system exits 1"
	expect_err "error: cannot write '$T/full/x.json': No space left on device" \
		"a full file system (json): the message"
	only_files "$T/full" "" "a full file system (json): no file"
else
	ok "# skip full tmpfs (cannot mount here); ulimit -f below"
fi

# --- a file-size limit (ulimit -f, in KiB: EFBIG, not death by SIGXFSZ).
# 1 MiB leaves the database (~0.6 MB) alone; the 60,000 s timeline is a
# sheet of ~5.5 MB of XML (compressed ~0.6 MB), whose temporary data
# libxlsxwriter would have cut short without a word: the error must say so
(ulimit -f 1024 && "$EBSIZE" --db "$DB" --format xlsx -o "$D/lim.xlsx" burst --size 100 --load 3000 \
	--duration 60000 >"$T/out" 2>"$T/err")
rc=$?
expect_rc 1 "over ulimit -f exits 1"
expect_err "error: cannot write '$D/lim.xlsx': temporary sheet data in '$D': File too large" \
	"over ulimit -f: the message names the sheet data, not a truncated workbook"
only_files "$D" "keep.csv" "over ulimit -f: no file"
(ulimit -f 1024 && "$EBSIZE" --db "$DB" --format csv -o "$D/lim.csv" burst --size 100 --load 3000 \
	--timeline --duration 60000 >"$T/out" 2>"$T/err")
rc=$?
expect_rc 1 "a stream over ulimit -f exits 1"
expect_err "error: cannot write '$D/lim.csv': File too large" "a stream over ulimit -f: the message"
only_files "$D" "keep.csv" "a stream over ulimit -f: no file"

# --- signals during a big export (3,000,000 rows): nothing left
# sig NAME CODE: start the export with NAME at its default action (a shell
# starts background jobs with SIGINT ignored), send NAME once the
# temporary file exists
sig() {
	/usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$EBSIZE" --format csv -o "$D/big.csv" burst --size 100 \
		--load 3000 --timeline --duration 3000000 2>"$T/err" &
	pid=$!
	i=0
	until ls -A "$D" | grep -q '^\.big\.csv\.'; do
		i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.05
	done
	sleep 0.2
	kill -s "$1" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
		i=$((i + 1)); sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
	wait "$pid"
	rc=$?
	expect_rc "$2" "SIG$1 during a big export: killed by it (exit $2)"
	expect_err "error: interrupted: '$D/big.csv' not written" "SIG$1 during a big export: says so"
	only_files "$D" "keep.csv" "SIG$1 during a big export: no file, no temporary file"
}
sig INT 130
sig TERM 143

# --- usage errors
usage_error_g() {
	run "$@"
	want=$(printf 'error: %s\nhint: see '\''ebsize help'\''' "$msg")
	if [ "$rc" = 2 ] && [ "$(cat "$T/err")" = "$want" ]; then ok "$desc"; else fail "$desc" "$want"; fi
}
desc="xlsx without -o" msg="--format xlsx writes a workbook: give -o FILE" usage_error_g --format xlsx compare
desc="xlsx to -o -" msg="--format xlsx writes a workbook: give -o FILE" usage_error_g --format xlsx -o - compare
desc="--table without csv" msg="--table picks the table of --format csv" usage_error_g --table rows compare
desc="-o without a value" msg="option '-o' needs a value" usage_error_g compare -o
usage_error "manifests cannot be a workbook" "--format xlsx cannot hold Kubernetes manifests" \
	bench --format xlsx -o "$D/k.xlsx" k8s --types gp3 --size 100Gi
only_files "$D" "keep.csv" "usage errors leave no file"
