#!/bin/sh
# t0230-db-readonly: a database this process cannot write -- on a read-only
# mount, a read-only file, a file in a directory it cannot write (issue
# 13 defect 5) -- still serves every command that only reads, with the
# same answers as the writable original and without a byte or a file
# changed; every command that writes says it cannot, why and where, exits
# 1 and changes nothing.  Root ignores permission bits, so the file and
# directory cases run as 'nobody' (setpriv); the mount case needs mount
# (we are root in CI).  Also: write failures name the operation and the
# file (defect 7): a full disk while storing prices.
. "$(dirname "$0")/../lib/test-lib.sh"
mounts=""
cleanup_mounts() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
}
trap 'cleanup_mounts; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

# the original: seeded, a second price snapshot (pricing diff has two), an
# imported benchmark run
run pricing import "$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json"
expect_rc 0 "setup: a second price snapshot"
run bench import "$FIXTURES/fio/fio-3.1-randread-libaio-qd1.json" \
	"$FIXTURES/fio/fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log" --label ro-check \
	--volume-type gp2 --size 8
expect_rc 0 "setup: an imported benchmark run"
rm -f "$DB-wal" "$DB-shm"
mkdir "$T/src"
cp "$DB" "$T/src/ebsize.db"

# The read-only commands, one per line (arguments split on spaces).  The
# inventory is read from a copy in $T: 'nobody' below may not reach the
# checkout (a clone in a private temporary directory, as .ci/run makes).
cp "$FIXTURES/scan/inv-us.json" "$T/inv-us.json" && chmod 644 "$T/inv-us.json"
cat >"$T/readers" <<EOF
cost --type gp3 --size 100 --iops 6000
compare --sizes 100,1000
cheapest --iops 5000 --size 200 --top 3
burst --size 100 --load 3000 --as-of 2025-06-01
pricing show --type gp3
pricing history
pricing diff
pricing regions
instances show c5.large
bench list
bench show 8
bench compare 1 2
scan $T/inv-us.json
db path
EOF

# readers_on DB DESC [RUNNER...]: every reader against DB gives what it
# gives against the original, exit 0
readers_on() {
	rdb=$1 desc=$2
	shift 2
	while read -r line; do
		# shellcheck disable=SC2086
		"$EBSIZE" --db "$T/src/ebsize.db" --format json $line >"$T/want" 2>/dev/null
		# shellcheck disable=SC2086
		"$@" "$EBSIZE" --db "$rdb" --format json $line >"$T/out" 2>"$T/err"
		rc=$?
		sed -i "s|$rdb|DB|g" "$T/out"
		sed -i "s|$T/src/ebsize.db|DB|g" "$T/want"
		if [ "$rc" = 0 ] && cmp -s "$T/want" "$T/out"; then
			ok "$desc: $line"
		else
			fail "$desc: $line" "expected exit 0 and the original's answer"
		fi
	done <"$T/readers"
	"$@" "$EBSIZE" --db "$rdb" db check >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0 "$desc: db check"
	expect_out_has "Integrity:      ok" "$desc: db check finds it intact"
}

# writers_on DB DESC WHY [RUNNER...]: every writer is refused, naming the
# file, what it would store and WHY
writers_on() {
	wdb=$1 desc=$2 why=$3
	shift 3
	"$@" "$EBSIZE" --db "$wdb" pricing import "$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json" \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "$desc: pricing import exits 1"
	expect_err "error: cannot write the database '$wdb' (storing prices): $why" \
		"$desc: pricing import says why"
	"$@" "$EBSIZE" --db "$wdb" pricing fetch --bulk --endpoint http://127.0.0.1:9 \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "$desc: pricing fetch exits 1"
	expect_err "error: cannot write the database '$wdb' (storing prices): $why" \
		"$desc: pricing fetch says why, before any network"
	"$@" "$EBSIZE" --db "$wdb" instances import \
		"$FIXTURES/describe-instance-types-c4.2xlarge-instance-selector.json" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "$desc: instances import exits 1"
	expect_err "error: cannot write the database '$wdb' (storing instance limits): $why" \
		"$desc: instances import says why"
	"$@" "$EBSIZE" --db "$wdb" bench import "$FIXTURES/fio/fio-3.1-randread-libaio-qd1.json" \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "$desc: bench import exits 1"
	expect_err "error: cannot write the database '$wdb' (storing benchmark runs): $why" \
		"$desc: bench import says why"
	"$@" "$EBSIZE" --db "$wdb" bench run --target "$T/never-made" --profile smoke \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "$desc: bench run exits 1"
	expect_err "error: cannot write the database '$wdb' (storing a benchmark run): $why" \
		"$desc: bench run says why before running fio"
	[ ! -e "$T/never-made" ] && ok "$desc: bench run made no target" ||
		fail "$desc: bench run made no target"
}

# files DIR: the names in DIR with their checksums (nothing added, nothing
# changed)
files() { (cd "$1" && for f in $(ls -A); do printf '%s ' "$f"; cksum <"$f"; done); }

# --- a read-only mount (a bind mount of src remounted ro)
mkdir "$T/ro"
if mount --bind "$T/src" "$T/ro" 2>/dev/null; then
	mounts="$T/ro"
	if mount -o remount,bind,ro "$T/ro" 2>/dev/null; then
		files "$T/src" >"$T/files.before"
		readers_on "$T/ro/ebsize.db" "read-only mount"
		run_raw --db "$T/ro/ebsize.db" -q report -o "$T/report"
		expect_rc 0 "read-only mount: report exits 0"
		[ -s "$T/report/index.html" ] && ok "read-only mount: report writes its page" ||
			fail "read-only mount: report writes its page"
		writers_on "$T/ro/ebsize.db" "read-only mount" \
			"Read-only file system; commands that only read it still work"
		files "$T/src" >"$T/files.after"
		cmp -s "$T/files.before" "$T/files.after" && ok "read-only mount: no file added or changed" ||
			fail "read-only mount: no file added or changed" "$(diff "$T/files.before" "$T/files.after")"
	else
		skip "read-only mount" "cannot remount a bind mount read-only here"
	fi
	umount "$T/ro"
	mounts=""
else
	skip "read-only mount" "cannot bind-mount here (not root, or no mount namespace rights)"
fi

# --- as 'nobody': a read-only file; a directory it cannot write
AS=""
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ -n "$AS" ]; then
	chmod 755 "$T" "$T/src"
	chmod 644 "$T/src/ebsize.db"
	# the binary must be reachable by nobody (a worktree may be private)
	if ! $AS "$EBSIZE" version >/dev/null 2>&1; then
		cp "$EBSIZE" "$T/ebsize-bin" && chmod 755 "$T/ebsize-bin"
		EBSIZE="$T/ebsize-bin"
	fi

	# a read-only file (0444, nobody's) in a directory nobody can write:
	# read-only and immutable
	mkdir "$T/file-ro"
	cp "$T/src/ebsize.db" "$T/file-ro/ebsize.db"
	chown 65534:65534 "$T/file-ro/ebsize.db"
	chmod 444 "$T/file-ro/ebsize.db"
	files "$T/file-ro" >"$T/files.before"
	readers_on "$T/file-ro/ebsize.db" "read-only file (nobody)" $AS
	writers_on "$T/file-ro/ebsize.db" "read-only file (nobody)" \
		"Permission denied; commands that only read it still work" $AS
	files "$T/file-ro" >"$T/files.after"
	cmp -s "$T/files.before" "$T/files.after" && ok "read-only file: no file added or changed" ||
		fail "read-only file: no file added or changed" "$(diff "$T/files.before" "$T/files.after")"

	# a file nobody may write, in a directory nobody may write: read-only,
	# and the -shm SQLite would need cannot be made, hence immutable
	mkdir "$T/dir-ro"
	cp "$T/src/ebsize.db" "$T/dir-ro/ebsize.db"
	chown 65534:65534 "$T/dir-ro/ebsize.db"
	chmod 644 "$T/dir-ro/ebsize.db"
	chmod 555 "$T/dir-ro"
	files "$T/dir-ro" >"$T/files.before"
	readers_on "$T/dir-ro/ebsize.db" "unwritable directory (nobody)" $AS
	writers_on "$T/dir-ro/ebsize.db" "unwritable directory (nobody)" \
		"its directory cannot be written (Permission denied), and SQLite keeps its journal there; commands that only read it still work" $AS
	files "$T/dir-ro" >"$T/files.after"
	cmp -s "$T/files.before" "$T/files.after" && ok "unwritable directory: no file added or changed" ||
		fail "unwritable directory: no file added or changed" "$(diff "$T/files.before" "$T/files.after")"

	# a read-only file whose directory is writable: readers work (SQLite
	# makes the -shm it needs), writers are refused
	mkdir "$T/file-ro2"
	chown 65534:65534 "$T/file-ro2"
	cp "$T/src/ebsize.db" "$T/file-ro2/ebsize.db"
	chown 65534:65534 "$T/file-ro2/ebsize.db"
	chmod 444 "$T/file-ro2/ebsize.db"
	cksum <"$T/file-ro2/ebsize.db" >"$T/sum.before"
	readers_on "$T/file-ro2/ebsize.db" "read-only file, writable directory (nobody)" $AS
	$AS "$EBSIZE" --db "$T/file-ro2/ebsize.db" instances import \
		"$FIXTURES/describe-instance-types-c4.2xlarge-instance-selector.json" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "read-only file, writable directory: a writer exits 1"
	expect_err "error: cannot write the database '$T/file-ro2/ebsize.db' (storing instance limits): Permission denied; commands that only read it still work" \
		"read-only file, writable directory: the writer says why"
	cksum <"$T/file-ro2/ebsize.db" >"$T/sum.after"
	cmp -s "$T/sum.before" "$T/sum.after" && ok "read-only file, writable directory: the file unchanged" ||
		fail "read-only file, writable directory: the file unchanged"

	# a database needing an upgrade cannot be upgraded read-only: said so
	mkdir "$T/old"
	sqlite3 "$T/old/ebsize.db" <"$FIXTURES/db/ebsize-schema1-generated.sql"
	chown -R 65534:65534 "$T/old"
	chmod 444 "$T/old/ebsize.db"
	$AS "$EBSIZE" --db "$T/old/ebsize.db" cost --type gp3 --size 100 >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1 "an old schema, read-only: exits 1"
	expect_err "error: database '$T/old/ebsize.db' has schema version 1 and needs upgrading to 2, which means writing it: Permission denied" \
		"an old schema, read-only: says it needs writing"
else
	skip "read-only file and directory" "not root, or setpriv cannot switch to nobody here"
fi

# --- a full disk while storing (defect 7): a tmpfs just larger than the
# database; the import runs out of room part way
mkdir "$T/full"
sz=$(( $(stat -c %s "$T/src/ebsize.db") / 1024 + 16 ))
if mount -t tmpfs -o "size=${sz}k" tmpfs "$T/full" 2>/dev/null; then
	mounts="$T/full"
	cp "$T/src/ebsize.db" "$T/full/ebsize.db"
	sqlite3 "$T/src/ebsize.db" .dump >"$T/before.sql"
	run_raw --db "$T/full/ebsize.db" pricing import "$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json"
	expect_rc 1 "a full disk while storing prices exits 1"
	if grep -qE "^error: cannot write (the database '$T/full/ebsize.db'|'$T/full/ebsize.db-shm', the database's shared-memory file) \(storing prices\): .*(full|No space left on device)" "$T/err"; then
		ok "a full disk: the message names the file, the operation and why"
	else
		fail "a full disk: the message names the file, the operation and why"
	fi
	grep -q "cannot read" "$T/err" && fail "a full disk: not called a read" || ok "a full disk: not called a read"
	# the files as the full disk left them, looked at with room to spare
	mkdir "$T/after-full"
	cp "$T/full/"ebsize.db* "$T/after-full/"
	umount "$T/full"
	mounts=""
	expect_value "$(sqlite3 "$T/after-full/ebsize.db" "PRAGMA integrity_check")" ok \
		"a full disk: the database passes integrity_check"
	sqlite3 "$T/after-full/ebsize.db" .dump >"$T/after.sql"
	cmp -s "$T/before.sql" "$T/after.sql" && ok "a full disk: the database dump unchanged" ||
		fail "a full disk: the database dump unchanged"
else
	skip "a full disk while storing" "cannot mount a tmpfs here"
fi
