#!/bin/sh
# t0200-db: the database is created and seeded on first use, found by
# --db / EBSIZE_DB / XDG, and foreign, corrupt or newer files are refused
# and left untouched.
. "$(dirname "$0")/../lib/test-lib.sh"

run_raw db path
expect_rc 0 "db path exits 0"
[ "$(cat "$T/out")" = "$XDG_DATA_HOME/ebsize/ebsize.db" ] && ok "db path defaults to XDG_DATA_HOME" ||
	fail "db path defaults to XDG_DATA_HOME"
[ ! -e "$XDG_DATA_HOME/ebsize/ebsize.db" ] && ok "db path creates nothing" || fail "db path creates nothing"

XDG_DATA_HOME= run_raw db path
[ "$(cat "$T/out")" = "$HOME/.local/share/ebsize/ebsize.db" ] && ok "db path falls back to ~/.local/share" ||
	fail "db path falls back to ~/.local/share"
EBSIZE_DB="$T/env.db" run_raw db path
[ "$(cat "$T/out")" = "$T/env.db" ] && ok "EBSIZE_DB is used" || fail "EBSIZE_DB is used"
EBSIZE_DB="$T/env.db" run_raw --db "$T/opt.db" db path
[ "$(cat "$T/out")" = "$T/opt.db" ] && ok "--db wins over EBSIZE_DB" || fail "--db wins over EBSIZE_DB"
run_raw --format json db path
expect_json path "$XDG_DATA_HOME/ebsize/ebsize.db" "db path --format json"

# first use creates the XDG directories and seeds everything
run_raw db check
expect_rc 0 "db check on first use exits 0"
[ -f "$XDG_DATA_HOME/ebsize/ebsize.db" ] && ok "database created under XDG_DATA_HOME" ||
	fail "database created under XDG_DATA_HOME"

run db check --format json
expect_rc 0 "db check --format json"
expect_json schema_version 1 "schema version 1"
expect_json integrity ok "integrity ok"
# counts independently from the source tables: 7 regions (T6), 346 instance
# rows (T11), 8 volume-limit rows (7 types + the dated gp3 pair), 7 regions x
# 14 prices (T6 columns: gp2, gp3 x3, io1 x2, io2 x4, st1, sc1, standard x2)
expect_json rows.regions 7 "7 regions seeded"
expect_json rows.instance_limits "$(grep -cE '^\| [a-z][a-z0-9-]*\.[a-z0-9-]+ \| (yes|no) \|' "$ROOT/../shared/ebs-facts.md")" \
	"every instance row of ebs-facts.md T11 seeded"
expect_json rows.volume_limits 8 "volume limits: 7 types, gp3 twice"
expect_json rows.prices 98 "98 embedded prices"
expect_json rows.price_snapshots 1 "one embedded snapshot"
expect_json rows.bench_runs 7 "published runs A (2), B (1), C (4)"
expect_json prices_in_force.0.source embedded "prices in force come from the embedded snapshot"
expect_json prices_in_force.0.prices 14 "14 prices per region"

run db check
expect_out_has "Prices in force" "db check table output"

# a second process on the same new file: seeded once, not twice
rm -f "$T/race.db"
"$EBSIZE" --db "$T/race.db" db check >/dev/null 2>&1 &
"$EBSIZE" --db "$T/race.db" db check >/dev/null 2>&1
wait
"$EBSIZE" --db "$T/race.db" --format json db check >"$T/out" 2>"$T/err"
expect_json rows.prices 98 "concurrent first use seeds exactly once"

# not a database: refused, left byte-for-byte as it was
printf 'hello, this is not sqlite\n%.0s' 1 2 3 4 5 6 7 8 >"$T/notdb"
cp "$T/notdb" "$T/notdb.orig"
run_raw --db "$T/notdb" cost --type gp3 --size 100
expect_rc 1 "a non-SQLite file exits 1"
expect_err "error: '$T/notdb' is not an ebsize database (not SQLite, or corrupt); it was left untouched" \
	"a non-SQLite file is named in the error"
cmp -s "$T/notdb" "$T/notdb.orig" && ok "the non-SQLite file is untouched" || fail "the non-SQLite file is untouched"

# an SQLite database of someone else
sqlite3 "$T/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
cp "$T/other.db" "$T/other.orig"
run_raw --db "$T/other.db" db check
expect_rc 1 "a foreign SQLite database exits 1"
expect_err "error: '$T/other.db' is an SQLite database but not an ebsize one; it was left untouched" \
	"a foreign SQLite database is refused"
cmp -s "$T/other.db" "$T/other.orig" && ok "the foreign database is untouched" || fail "the foreign database is untouched"

# a newer schema
cp "$DB" "$T/newer.db" 2>/dev/null || "$EBSIZE" --db "$T/newer.db" db check >/dev/null
run db check
cp "$DB" "$T/newer.db"
sqlite3 "$T/newer.db" "PRAGMA user_version = 99;"
cp "$T/newer.db" "$T/newer.orig"
run_raw --db "$T/newer.db" cost --type gp3 --size 100
expect_rc 1 "a newer schema exits 1"
expect_err "error: database '$T/newer.db' has schema version 99, newer than this ebsize understands (1); upgrade ebsize" \
	"a newer schema is refused with both versions"
cmp -s "$T/newer.db" "$T/newer.orig" && ok "the newer database is untouched" || fail "the newer database is untouched"

# a corrupt ebsize database: header intact, pages overwritten
cp "$DB" "$T/corrupt.db"
rm -f "$T/corrupt.db-wal" "$T/corrupt.db-shm"
dd if=/dev/urandom of="$T/corrupt.db" bs=4096 seek=2 count=20 conv=notrunc 2>/dev/null
cp "$T/corrupt.db" "$T/corrupt.orig"
run_raw --db "$T/corrupt.db" db check
expect_rc 1 "a corrupt database fails db check"
grep -qE "^error: .*corrupt.db" "$T/err" && ok "corruption is reported naming the file" ||
	fail "corruption is reported naming the file"
cmp -s "$T/corrupt.db" "$T/corrupt.orig" && ok "the corrupt database is untouched" || fail "the corrupt database is untouched"

# unwritable location
run_raw --db "/nonexistent-dir-$$/x.db" db check
expect_rc 1 "an unwritable location exits 1"
expect_err_has "cannot open database '/nonexistent-dir-$$/x.db'" "the unwritable path is named"
if [ "$(id -u)" != 0 ]; then
	mkdir "$T/ro" && chmod 500 "$T/ro"
	run_raw --db "$T/ro/x.db" db check
	expect_rc 1 "a read-only directory exits 1"
fi
run_raw --db "$T" db check
expect_rc 1 "a directory as database exits 1"
expect_err "error: database '$T' is a directory" "a directory is refused by name"

usage_error "db without subcommand" "missing subcommand (path or check)" db
usage_error "db unknown subcommand" "unknown subcommand 'frob' (use path or check)" db frob
usage_error "db unknown option" "unknown option '--frob'" db --frob
