#!/bin/sh
# t0210-db-upgrade: a database made by the schema-1 ebsize keeps working
# and gets the new data (issue 9): the upgrade to schema 2 runs once, in
# one transaction, keeps what the user fetched, imported or measured, and
# leaves the database as it was when it cannot finish.
#
# The schema-1 database is tests/fixtures/db/ebsize-schema1-generated.sql
# (GENERATED: a dump of a database the schema-1 ebsize made; its header
# says how): snapshot 1 embedded (7 regions), 2 the us-west-2 offer
# extract (as of 2026-09-01), 3 the cn-northwest-1 CNY fragment (as of
# 2023-03-01, gp3 storage 0.5312 only), and 6 instance types imported.
. "$(dirname "$0")/../lib/test-lib.sh"
V1="$FIXTURES/db/ebsize-schema1-generated.sql"

sqlite3 "$T/v1.db" <"$V1"
[ "$(sqlite3 "$T/v1.db" 'PRAGMA user_version')" = 1 ] && ok "the fixture is a schema-1 database" ||
	fail "the fixture is a schema-1 database"
cp "$T/v1.db" "$T/up.db"

run_raw --db "$T/up.db" --format json db check
expect_rc 0 "a schema-1 database opens"
expect_json schema_version 2 "upgraded to schema 2"
expect_json integrity ok "integrity ok after the upgrade"
expect_json rows.regions 38 "every region of the new data"
expect_json rows.instance_limits 1395 "every instance type of the new data"
expect_json rows.price_snapshots 4 "one new snapshot: the new embedded prices"
expect_json rows.bench_runs 7 "published runs kept"

# in force: the user's two imports for their regions, the new embedded
# snapshot (4) for the other 24 priced regions, the old one for none
run_raw --db "$T/up.db" --format json pricing history
expect_json snapshots.0.id 4 "snapshot 4 is the new embedded one"
expect_json snapshots.0.source embedded "snapshot 4: embedded"
expect_json snapshots.0.in_force_regions 24 "snapshot 4 in force for the 24 regions nobody imported"
expect_json snapshots.1.in_force_regions 1 "snapshot 3 (cn-northwest-1 import) still in force"
expect_json snapshots.2.in_force_regions 1 "snapshot 2 (us-west-2 import) still in force"
expect_json snapshots.3.in_force False "the old embedded snapshot is no longer in force"

# the user's price stays; what their snapshot lacked comes from the new
# data with its own source and date (gp2 0.664 CNY, the extract)
run_raw --db "$T/up.db" --format json pricing show --region cn-northwest-1 --type gp3
expect_json prices.1.price_per_unit 0.5312 "cn-northwest-1 gp3 storage: the user's import"
expect_json prices.1.snapshot 3 "... in the user's snapshot"
expect_json prices.1.source import:pricing-offer-fragment-cnnw1-gp3-cny-opencost.json "... with its source"
run_raw --db "$T/up.db" --format json pricing show --region cn-northwest-1 --type gp2
expect_json prices.0.price_per_unit 0.664 "cn-northwest-1 gp2: from the new data"
expect_json prices.0.currency CNY "cn-northwest-1 gp2: CNY"
expect_json prices.0.snapshot 3 "... added to the snapshot in force there"
expect_json prices.0.as_of 2022-02-10 "... dated as its source"
run_raw --db "$T/up.db" --region cn-northwest-1 cost --type gp2 --size 100
expect_rc 0 "cost in cn-northwest-1 after the upgrade"
expect_out_has "Total:        CNY 66.40" "cn-northwest-1 gp2 100 GiB = 100 x 0.664 = CNY 66.40"
run_raw --db "$T/up.db" --format json pricing show --region us-west-2 --type snapshot
expect_json prices.0.price_per_unit 0.05 "us-west-2 snapshot price added (0.05, calculator)"
expect_json prices.0.snapshot 2 "... to the user's snapshot"
run_raw --db "$T/up.db" --region us-east-2 cost --type gp2 --size 100
expect_out_has "Total:        \$10.00" "a region new in schema 2 is priced (us-east-2 \$10.00)"

# instance rows: imported ones kept, with the attachments the new data
# knows; seeded ones replaced by the new data
run_raw --db "$T/up.db" --format json instances show c5d.2xlarge
expect_json instances.0.source import:describe-instance-types-2xlarge-group-instance-selector.json "an imported type keeps its import"
expect_json instances.0.baseline_iops 10000 "... and its values"
expect_json instances.0.max_ebs_attachments 26 "... and gains MaximumEbsAttachments (26, dump)"
run_raw --db "$T/up.db" --format json instances show m5.xlarge
grep -q '"source":"getmoto/moto@' "$T/out" && ok "a seeded type now cites the new data" ||
	fail "a seeded type now cites the new data"
run_raw --db "$T/up.db" --format json instances show t2.micro
expect_json instances.0.ebs_optimized unsupported "t2.micro known after the upgrade"

# the same schema as a new database
run_raw --db "$T/new.db" db check
for t in regions prices instance_limits price_snapshots; do
	if [ "$(sqlite3 "$T/up.db" "PRAGMA table_info($t)")" = "$(sqlite3 "$T/new.db" "PRAGMA table_info($t)")" ]; then
		ok "$t: the upgraded columns equal a new database's"
	else
		fail "$t: the upgraded columns equal a new database's"
	fi
done
[ "$(sqlite3 "$T/up.db" "SELECT sql FROM sqlite_schema WHERE name = 'prices_region'")" = \
	"$(sqlite3 "$T/new.db" "SELECT sql FROM sqlite_schema WHERE name = 'prices_region'")" ] &&
	ok "the prices index is back" || fail "the prices index is back"
sqlite3 "$T/up.db" "INSERT INTO instance_limits (instance_type, burst, ebs_optimized, source, as_of) VALUES ('x.bad', 0, 'default', 's', 'd')" 2>/dev/null &&
	fail "the upgraded table checks: a default type needs its limits" ||
	ok "the upgraded table checks: a default type needs its limits"

# once only: opening it again changes nothing
sqlite3 "$T/up.db" .dump >"$T/before.sql"
run_raw --db "$T/up.db" cost --type gp3 --size 100
sqlite3 "$T/up.db" .dump >"$T/after.sql"
cmp -s "$T/before.sql" "$T/after.sql" && ok "a second open does not upgrade again" ||
	fail "a second open does not upgrade again"

# two processes opening the same schema-1 file: one upgrades, the other
# waits and finds it done
cp "$T/v1.db" "$T/race.db"
"$EBSIZE" --db "$T/race.db" db check >/dev/null 2>&1 &
"$EBSIZE" --db "$T/race.db" db check >/dev/null 2>&1
wait
run_raw --db "$T/race.db" --format json db check
expect_json rows.price_snapshots 4 "racing opens: upgraded exactly once"

# an upgrade that cannot finish leaves the database as it was: a table in
# the way of the new one makes the upgrade fail part way
cp "$T/v1.db" "$T/stuck.db"
sqlite3 "$T/stuck.db" "CREATE TABLE regions_v2 (x); PRAGMA user_version = 1;"
sqlite3 "$T/stuck.db" .dump >"$T/before.sql"
run_raw --db "$T/stuck.db" cost --type gp3 --size 100
expect_rc 1 "a failed upgrade exits 1"
expect_err "error: cannot upgrade database '$T/stuck.db' from schema version 1 to 2; it was left as it was: database '$T/stuck.db': table regions_v2 already exists" \
	"a failed upgrade says so, naming the database and the cause"
sqlite3 "$T/stuck.db" .dump >"$T/after.sql"
cmp -s "$T/before.sql" "$T/after.sql" && ok "a failed upgrade leaves the database as it was" ||
	fail "a failed upgrade leaves the database as it was"
[ "$(sqlite3 "$T/stuck.db" 'PRAGMA user_version')" = 1 ] && ok "still schema 1" || fail "still schema 1"
