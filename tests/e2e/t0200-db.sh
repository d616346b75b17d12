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
expect_json schema_version 2 "schema version 2"
expect_json integrity ok "integrity ok"
# counts worked out from the project's own sourced data, not the seeds:
# every region of the price table; the EBS-optimized instance rows plus
# the dump's types marked "unsupported"; one price per non-empty value
# except the per-GiBps field (the Price List unit of the gp3 throughput
# price); 8 volume-limit rows (7 types + the dated gp3 pair)
PRICES_CSV="$ROOT/pricing/sources/ebs-prices-all-regions.csv"
want_regions=$(/usr/bin/python3 -c 'import csv,sys; print(len({r["region"] for r in csv.DictReader(open(sys.argv[1]))}))' "$PRICES_CSV")
want_prices=$(/usr/bin/python3 -c 'import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["value"] and r["field"] != "gp3_throughput_above_125_gibps"))' "$PRICES_CSV")
want_instances=$(/usr/bin/python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
dump = json.load(open(sys.argv[2]))
print(len(rows) + sum(1 for v in dump.values() if v["EbsInfo"]["EbsOptimizedSupport"] == "unsupported"))' \
	"$ROOT/sql/seed/sources/instance-ebs-limits.csv" \
	"$ROOT/sql/seed/sources/raw/describe-instance-types-dump-2026-08-02.json")
[ "$want_regions" = 38 ] && [ "$want_prices" = 347 ] && [ "$want_instances" = 1395 ] &&
	ok "the sourced data: 38 regions, 347 prices, 1,376 + 19 instance types" ||
	fail "the sourced data: 38 regions, 347 prices, 1,376 + 19 instance types" \
		"got $want_regions $want_prices $want_instances"
expect_json rows.regions "$want_regions" "every region of the price table seeded"
expect_json rows.instance_limits "$want_instances" "every instance type of the sourced data seeded"
expect_json rows.volume_limits 8 "volume limits: 7 types, gp3 twice"
expect_json rows.prices "$want_prices" "every sourced price embedded"
expect_json rows.price_snapshots 1 "one embedded snapshot"
expect_json rows.bench_runs 7 "published runs A (2), B (1), C (4)"
expect_json prices_in_force.0.source embedded "prices in force come from the embedded snapshot"
# af-south-1 (first by name): 16 fields, less the per-GiBps duplicate, less
# the 4 io2 fields its 2022 extract lacks (pricing/sources/SOURCES.md) = 11
expect_json prices_in_force.0.region af-south-1 "first region in force: af-south-1"
expect_json prices_in_force.0.prices 11 "af-south-1: 11 prices (no io2)"

run db check
expect_out_has "Prices in force" "db check table output"

# a second process on the same new file: seeded once, not twice
rm -f "$T/race.db"
"$EBSIZE" --db "$T/race.db" db check >/dev/null 2>&1 &
"$EBSIZE" --db "$T/race.db" db check >/dev/null 2>&1
wait
"$EBSIZE" --db "$T/race.db" --format json db check >"$T/out" 2>"$T/err"
expect_json rows.prices "$want_prices" "concurrent first use seeds exactly once"

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
expect_err "error: database '$T/newer.db' has schema version 99, newer than this ebsize understands (2); upgrade ebsize" \
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
