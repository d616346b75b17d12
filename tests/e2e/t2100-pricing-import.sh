#!/bin/sh
# t2100-pricing-import: `ebsize pricing import` over the real samples in
# tests/fixtures (see tests/fixtures/README.md): a GetProducts response,
# a bulk offer extract and a China offer fragment; several documents in
# one file and several files; refusals leave the database as it was.
. "$(dirname "$0")/../lib/test-lib.sh"
USW2=$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json
APS1=$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json
CNW1=$FIXTURES/pricing-offer-fragment-cnnw1-gp3-cny-opencost.json

run pricing import -h
expect_rc 0 "import -h exits 0"
expect_out_has "ebsize pricing import" "import -h shows the import usage"
usage_error "import without files" "import needs at least one FILE" pricing import
usage_error "import: unknown option" "unknown option '--nope'" pricing import --nope "$USW2"

# the us-west-2 offer extract (2026-09-18): gp3 storage 0.08, IOPS 0.005,
# throughput 40.96 GiBps-mo = 0.04 per MiB/s; one CPU Credits SKU unknown
run --format json pricing import "$USW2"
expect_rc 0 "import the usw2 offer extract"
expect_json products 4 "usw2: 4 products read"
expect_json prices 3 "usw2: 3 EBS prices"
expect_json unknown 1 "usw2: the CPU credits SKU is unknown"
expect_json as_of 2026-09-01 "usw2: as_of from the terms' effectiveDate"
# us-west-2 embedded: 14 volume prices + snapshot storage; 3 came in
expect_json carried 12 "usw2: the 12 other us-west-2 prices carried forward"
expect_json notes.0 "1 product without an EBS volume price ignored (first: USW2-CPUCredits:t4g)" "usw2: unknown product reported"
run --format json pricing show --region us-west-2 --type gp3
expect_json prices.2.dimension throughput "usw2: throughput row"
expect_json prices.2.price_per_unit 0.04 "usw2: 40.96 / 1024 = 0.04 per MiB/s-month" 1e-15
expect_json prices.2.usagetype USW2-EBS:VolumeP-Throughput.gp3 "usw2: usage type kept"
expect_json prices.0.begin_range 3000 "usw2: gp3 IOPS above 3,000"
expect_json prices.0.price_per_unit 0.005 "usw2: gp3 IOPS 0.005"
expect_json prices.1.price_per_unit 0.08 "usw2: gp3 storage 0.08"
run --format json pricing show --region us-west-2 --type gp2
expect_json prices.0.source "cloudkeep-io/ebs-pricing@d76ed2762d0a795a66285222321da0bb0aa801c3:docs/ebs_pricing.json (AWS Price List API extract, docs/last_updated 2022-02-10T05:01:17Z)" \
	"usw2: carried gp2 row keeps its own source"
expect_json prices.0.as_of 2022-02-10 "usw2: carried gp2 row keeps its own vintage"

# the aws-cli GetProducts example (2018): io1 storage 0.138 in Singapore,
# found by `location` (no regionCode in 2018 items); its vintage is the
# item's publicationDate 2018-08-08T00:57:01Z, version 20180808005701
# (the term's effectiveDate, 2018-08-01, is older).  The embedded price
# is the same 0.138, dated later (2022-02-10): nothing new to record
run --format json pricing import "$APS1"
expect_rc 0 "import the aps1 GetProducts example"
expect_json products 1 "aps1: one product read"
expect_json as_of 2018-08-08 "aps1: as_of is the publication date 2018-08-08"
expect_json version 20180808005701 "aps1: the Price List version is reported"
expect_json recorded False "aps1: equal to the price in force, not recorded"
expect_json prices 0 "aps1: nothing stored"
expect_json notes.0 "all 1 price equal the prices in force (snapshot 1): nothing new recorded" \
	"aps1: says so, naming the snapshot in force"
run --format json pricing show --region ap-southeast-1 --type io1
expect_json prices.1.dimension storage "aps1: io1 storage row"
expect_json prices.1.price_per_unit 0.138 "aps1: io1 storage 0.138"
expect_json prices.1.unit GiB-month "aps1: unit GiB-month"

# the China fragment: CNY kept, and answers for the region are in CNY
run --format json pricing import "$CNW1"
expect_rc 0 "import the cn-northwest-1 fragment"
run --format json pricing show --region cn-northwest-1 --type gp3
expect_json prices.1.dimension storage "cnw1: gp3 storage row"
expect_json prices.1.currency CNY "cnw1: currency CNY"
expect_json prices.1.price_per_unit 0.5312 "cnw1: 0.5312 CNY per GiB-month"
expect_json prices.1.as_of 2023-03-14 "cnw1: dated by its publicationDate (its effectiveDate 2023-03-01 is older)"
# the answer is in CNY, never USD: 100 GiB x 0.5312 = CNY 53.12
run cost --region cn-northwest-1 --type gp3 --size 100
expect_rc 0 "cnw1: cost answers from CNY prices"
expect_out_has "Monthly cost (CNY)" "cnw1: the money is labelled CNY"
expect_out_has "Total:        CNY 53.12" "cnw1: 100 x 0.5312 = CNY 53.12"
run --format json cost --region cn-northwest-1 --type gp3 --size 100
expect_json currency CNY "cnw1: json currency CNY"
expect_json monthly_usd.total 53.12 "cnw1: total 53.12 (in CNY)" 1e-9

# several documents in one file, and several files in one snapshot
cat "$USW2" "$APS1" >"$T/two-docs.json"
run --format json pricing import "$T/two-docs.json" "$CNW1"
expect_rc 0 "two documents in a file plus a second file"
expect_json prices 5 "3 + 1 + 1 prices"
expect_json regions 3 "three regions"

# refusals: each leaves the database untouched
sqlite3 "$DB" .dump >"$T/before.sql"
run pricing import "$T/nope.json"
expect_rc 1 "missing file exits 1"
expect_err "error: cannot open '$T/nope.json': No such file or directory" "missing file message"
check_unchanged "missing file"

# no size cap any more (offer files are streamed): 65 MiB of NUL bytes
# are read and refused as not JSON, at line 1
truncate -s 65M "$T/index.json"
run pricing import "$T/index.json"
expect_rc 1 "65 MiB of NUL bytes are refused"
expect_err "error: cannot parse '$T/index.json': line 1: not valid JSON" \
	"65 MiB of NUL bytes: not JSON, line 1 (no size limit named)"
check_unchanged "65 MiB of NUL bytes"

printf '{"PriceList": ["{\\"product\\": ' >"$T/cut.json"   # generated: cut short
run pricing import "$USW2" "$T/cut.json"
expect_rc 1 "a bad second file fails the whole import"
expect_err "error: cannot parse '$T/cut.json': line 1: not valid JSON (cut short)" "bad JSON: names the file and line"
check_unchanged "bad second file"

run pricing import "$FIXTURES/describe-instance-types-c4.2xlarge-instance-selector.json"
expect_rc 1 "a file of another kind is refused"
expect_err "error: cannot parse '$FIXTURES/describe-instance-types-c4.2xlarge-instance-selector.json': document 1 is neither a GetProducts response (\"PriceList\") nor an offer file (\"products\")" \
	"another kind of file: clear message"
check_unchanged "file of another kind"

# generated: the aps1 example with its price raised to 0.938 (6.8x);
# snapshots so far: 1 embedded, 2 usw2, 3 cnw1, 4 the two-file import
# (the aps1 import alone recorded nothing)
sed 's/0\.1380000000/0.9380000000/' "$APS1" >"$T/aps1-raised.json"
run pricing import "$T/aps1-raised.json"
expect_rc 1 "a 6.8x price move is refused"
expect_err "error: prices from '$T/aps1-raised.json' not stored: price of io1 storage in 'ap-southeast-1' moved from 0.138 to 0.938 USD (x6.80) against snapshot 4, more than 3x; pass --accept-changes if this is right" \
	"6.8x move: clear message"
check_unchanged "6.8x move"
run --format json pricing import --accept-changes "$T/aps1-raised.json"
expect_rc 0 "--accept-changes imports it"
expect_json changed 1 "one price changed"

# issue 13 defect 8: an import equal to the snapshot in force records
# nothing new, and says so.  On a new database the usw2 extract (2026-09-01)
# is new (a later date than the embedded 2022-02-10): one snapshot; the
# same file twice more adds none
rm -f "$DB" "$DB-wal" "$DB-shm"
for i in 1 2 3; do
	run --format json pricing import --accept-changes "$USW2"
	expect_rc 0 "identical import $i exits 0"
done
expect_json recorded False "the third identical import records nothing"
expect_json snapshot_id 2 "... and names the snapshot in force"
expect_json notes.0 "all 3 prices equal the prices in force (snapshot 2): nothing new recorded" \
	"... and says so"
run --format json pricing history
[ "$(json_get snapshots <"$T/out" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 2 ] &&
	ok "3 identical imports leave 1 new snapshot (2 in all)" || fail "3 identical imports leave 1 new snapshot (2 in all)"
run pricing import "$USW2"
expect_out_has "New snapshot:     no" "table: 'New snapshot: no'"
expect_out_has "note: all 3 prices equal the prices in force (snapshot 2): nothing new recorded" "table: the note"
