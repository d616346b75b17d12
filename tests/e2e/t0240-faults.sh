#!/bin/sh
# t0240-faults: faults the other tests do not reach (issue 13, "Faults"):
# a database locked by another writer for longer than the busy timeout
# (10 s), a corrupt database under a writer and a reader, SIGINT and
# SIGTERM during `pricing fetch` (a loopback server that stalls), during
# `scan` of a big generated inventory and during its export to a workbook.
# Each: a clear message, the exit status (1, or death by the signal:
# 130 / 143), the database passing integrity_check with its dump
# unchanged, and no partial or temporary output file.
# (Elsewhere: a full disk under the database, read-only databases: t0230;
# a full disk, ulimit -f and signals under -o CSV: t5020; signals during
# bench: t3060, t3080.)
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
HOLDER=""
trap 'stop_server; stop_bulk; [ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

run db check
expect_rc 0 "setup: a seeded database"

# intact DESC: integrity_check ok and the dump equals $T/before.sql
intact() {
	expect_value "$(sqlite3 "$DB" "PRAGMA integrity_check")" ok "$1: integrity_check ok"
	check_unchanged "$1"
}

# only_files DIR WANT DESC: DIR holds exactly WANT (names, space-separated)
only_files() {
	got=$(ls -A "$1" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$2" ] && ok "$3" || fail "$3" "files: '$got', expected '$2'"
}

# --- a writer holding the lock longer than the busy timeout (10 s)
sqlite3 "$DB" .dump >"$T/before.sql"
/usr/bin/python3 - "$DB" "$T/locked" <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
time.sleep(14)
c.execute("ROLLBACK")
PY
HOLDER=$!
i=0
while [ ! -e "$T/locked" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
run cost --type gp3 --size 100
expect_rc 0 "locked by a writer: a reader still works (WAL)"
t0=$(date +%s)
run pricing import "$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json"
t1=$(date +%s)
expect_rc 1 "locked by a writer: the import exits 1"
expect_err "error: prices from '$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json' not stored: cannot write the database '$DB' (storing prices): another process kept it locked for 10 s; try again when it is done" \
	"locked by a writer: says who holds it and for how long"
[ $((t1 - t0)) -ge 9 ] && [ $((t1 - t0)) -le 13 ] && ok "locked: gave up after the busy timeout ($((t1 - t0)) s)" ||
	fail "locked: gave up after the busy timeout ($((t1 - t0)) s)"
wait "$HOLDER"
HOLDER=""
intact "locked by a writer"

# --- a corrupt database: the header intact, pages overwritten
cp "$DB" "$T/good.db"
rm -f "$DB-wal" "$DB-shm"
/usr/bin/python3 - "$DB" <<'PY'
import sys
# deterministic garbage over pages 3 to 40 (4096-byte pages)
with open(sys.argv[1], "r+b") as f:
    f.seek(2 * 4096)
    f.write(bytes((i * 131 + 7) % 251 for i in range(38 * 4096)))
PY
cp "$DB" "$T/corrupt.orig"
run pricing import "$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json"
expect_rc 1 "a corrupt database: a writer exits 1"
grep -qE "^error: .*'$DB'.*(malformed|corrupt|not an ebsize database)" "$T/err" &&
	ok "a corrupt database: the writer names the file and the corruption" ||
	fail "a corrupt database: the writer names the file and the corruption"
cmp -s "$DB" "$T/corrupt.orig" && ok "a corrupt database: the writer left it byte for byte" ||
	fail "a corrupt database: the writer left it byte for byte"
run --format json compare --sizes 100,1000
expect_rc 1 "a corrupt database: a reader exits 1"
grep -qE "^error: .*'$DB'.*(malformed|corrupt|not an ebsize database)" "$T/err" &&
	ok "a corrupt database: the reader names the file and the corruption" ||
	fail "a corrupt database: the reader names the file and the corruption"
expect_out_empty "a corrupt database: no half answer on stdout"
cmp -s "$DB" "$T/corrupt.orig" && ok "a corrupt database: the reader left it byte for byte" ||
	fail "a corrupt database: the reader left it byte for byte"
cp "$T/good.db" "$DB"

# --- signals: started with the signal at its default action (a shell
# starts background jobs with SIGINT ignored), sent once the process has
# got going (WAIT_FOR: a file that appears, or a server log line)
# bg ARGS...: run ebsize in the background, pid in $pid
bg() {
	/usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$EBSIZE" --db "$DB" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
}
# stop SIG: send SIG to $pid, wait for it (at most 10 s), rc
stop() {
	kill -s "$1" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
	wait "$pid"
	rc=$?
}
code() { [ "$1" = INT ] && echo 130 || echo 143; }
# hung: the server has logged the request it will never answer
hung() { [ -s "$T/srv.log" ] && [ "$(srv_count fault hang)" -ge 1 ]; }

# pricing fetch: the Query API server answers the first page, then stalls
mkdir "$T/o"
for sig in INT TERM; do
	sqlite3 "$DB" .dump >"$T/before.sql"
	start_server '{"fault": "hang", "fault_from": 2, "fault_count": -1}'
	AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY=$TEST_SECRET \
		bg pricing fetch --endpoint "$EP" --region us-west-2 -o "$T/o/fetch.json"
	i=0
	until hung || [ $i -gt 100 ]; do i=$((i + 1)); sleep 0.1; done
	stop "$sig"
	expect_rc "$(code $sig)" "SIG$sig during pricing fetch: dies of it"
	expect_err "error: interrupted: '$T/o/fetch.json' not written
error: interrupted: no prices stored" "SIG$sig during pricing fetch: says nothing was stored or written"
	only_files "$T/o" "" "SIG$sig during pricing fetch: no output file, no temporary file"
	intact "SIG$sig during pricing fetch"
	stop_server
done

# the same without -o: the first request stalls
for sig in INT TERM; do
	sqlite3 "$DB" .dump >"$T/before.sql"
	start_server '{"fault": "hang", "fault_from": 1, "fault_count": -1}'
	AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY=$TEST_SECRET \
		bg pricing fetch --endpoint "$EP" --region us-west-2
	i=0
	until hung || [ $i -gt 100 ]; do i=$((i + 1)); sleep 0.1; done
	stop "$sig"
	expect_rc "$(code $sig)" "SIG$sig during pricing fetch (stdout): dies of it"
	expect_err "error: interrupted: no prices stored" "SIG$sig during pricing fetch (stdout): says so"
	intact "SIG$sig during pricing fetch (stdout)"
	stop_server
done

# scan of a big GENERATED inventory (60,000 gp2 volumes of 100 to 1,000
# GiB, each a finding), to CSV and to a workbook: interrupted while it
# reads or writes
/usr/bin/python3 - "$T/big.json" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"Generated": "generated test data (t0240)", "Volumes": [\n')
    for i in range(60000):
        f.write('%s{"VolumeId": "vol-%017x", "VolumeType": "gp2", "Size": %d, "Iops": %d, '
                '"State": "in-use", "AvailabilityZone": "us-east-1a", "Encrypted": false, '
                '"Attachments": [{"InstanceId": "i-%017x", "State": "attached"}], '
                '"Tags": [{"Key": "Name", "Value": "generated-%d"}]}\n'
                % ("," if i else "", 0x0e2e0000000000000 + i, 100 + i % 901, 3 * (100 + i % 901), i, i))
    f.write("]}\n")
PY
for fmt in csv xlsx; do
	for sig in INT TERM; do
		sqlite3 "$DB" .dump >"$T/before.sql"
		bg -q --format $fmt -o "$T/o/findings.$fmt" scan "$T/big.json"
		i=0
		until ls -A "$T/o" | grep -q '^\.findings\.' || [ $i -gt 100 ]; do i=$((i + 1)); sleep 0.05; done
		sleep 0.3
		stop "$sig"
		expect_rc "$(code $sig)" "SIG$sig during scan to $fmt: dies of it"
		expect_value "$(tail -n 1 "$T/err")" "error: interrupted: '$T/o/findings.$fmt' not written" \
			"SIG$sig during scan to $fmt: says the file was not written" 0 "last line of stderr"
		only_files "$T/o" "" "SIG$sig during scan to $fmt: no file, no temporary file"
		intact "SIG$sig during scan to $fmt"
	done
done
