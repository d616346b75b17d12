#!/bin/sh
# t2050-pricing-bulk: `ebsize pricing fetch --bulk` against a loopback
# bulk Price List host (tests/lib/bulk_server.py) serving a GENERATED
# region index and offer files of realistic shape (tests/lib/offer_gen.py:
# compute-instance filler with on-demand and reserved terms, and the EBS
# SKUs with ebs-facts.md T6 values), no credentials.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10

usage_error "bulk: --profile" "--bulk needs no credentials: drop --profile" \
	pricing fetch --bulk --profile dev
usage_error "bulk: --explain-credentials" "--bulk needs no credentials: drop --explain-credentials" \
	pricing fetch --bulk --explain-credentials
usage_error "bulk: --max-pages" "--max-pages is for the Query API, not --bulk" \
	pricing fetch --bulk --max-pages 3
usage_error "bulk: --timeout 0" "--timeout must be a whole number from 1 to 86400 seconds (such as 90, 90s, 30m or 1h), not '0'" \
	pricing fetch --bulk --timeout 0
usage_error "bulk: --region with --all-regions" "give --region or --all-regions, not both" \
	pricing fetch --bulk --region us-west-2 --all-regions
usage_error "bulk: plain http to a remote host" \
	"endpoint 'http://example.com' must use https (plain http only to a loopback host)" \
	pricing fetch --bulk --endpoint http://example.com

start_bulk '{}'
# no AWS credentials anywhere in this test: none are needed
run --format json pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --region eu-west-1
expect_rc 0 "bulk fetch of two regions succeeds without credentials"
expect_json mode bulk "reported as a bulk fetch"
expect_json regions.0.region us-west-2 "first region us-west-2"
expect_json regions.1.region eu-west-1 "second region eu-west-1"
expect_json regions.0.prices 14 "us-west-2: the 14 EBS volume prices (T6 row, one per SKU)"
expect_json regions.1.prices 14 "eu-west-1: 14 prices"
expect_json regions.0.version 20260918212757 "vintage: the file's version"
expect_json regions.0.published 2026-09-18T21:27:57Z "vintage: the file's publicationDate"
expect_json regions.0.as_of 2026-09-18 "as_of is the publication date"
expect_json regions.0.snapshot_id 2 "us-west-2: snapshot 2 (1 is the embedded one)"
expect_json regions.1.snapshot_id 3 "eu-west-1: its own snapshot 3"
expect_json regions.0.url "$BEP/offers/v1.0/aws/AmazonEC2/20260918212757/us-west-2/index.json" \
	"the offer file URL comes from the region index"
expect_json requests 3 "one index request and one per offer file"
expect_json resumes 0 "nothing resumed"
# products: 256 filler SKUs + 14 EBS + 1 snapshot + 1 Local Zone product
expect_json regions.0.products 272 "every product read (256 filler + 16 EBS)"
# unknown: 256 compute instances + the snapshot product (no volume price)
expect_json regions.0.unknown 257 "compute instances and the snapshot product not stored"

# values: ebs-facts.md T6 eu-west-1 row; gp3 throughput 45.056 / 1024 = 0.044
run --format json pricing show --region eu-west-1 --type gp3
expect_json prices.0.price_per_unit 0.0055 "eu-west-1 gp3 IOPS 0.0055"
expect_json prices.1.price_per_unit 0.088 "eu-west-1 gp3 storage 0.088"
expect_json prices.2.price_per_unit 0.044 "gp3 throughput 45.056 GiBps-mo / 1024 = 0.044" 1e-12
expect_json prices.1.source "bulk:$BEP/offers/v1.0/aws/AmazonEC2/20260918212757/eu-west-1/index.json" \
	"rows carry the offer file as source"
run --format json pricing show --region us-west-2 --type io2
expect_json prices.1.begin_range 32000 "io2 tier 2 from 32,000"
expect_json prices.1.price_per_unit 0.0455 "us-west-2 io2 tier 2 0.0455 (T6)"
run --format json pricing history
expect_json snapshots.0.as_of 2026-09-18 "history shows the vintage as as_of"
sqlite3 "$DB" "SELECT notes FROM price_snapshots WHERE id = 2" >"$T/notes"
[ "$(cat "$T/notes")" = "Price List version 20260918212757, published 2026-09-18T21:27:57Z" ] &&
	ok "the snapshot's notes hold the version and publication" ||
	fail "the snapshot's notes hold the version and publication" "$(cat "$T/notes")"

# the model uses it: 1000 x 0.088 + 7000 x 0.0055 + 375 x 0.044 = 143.00
run --format json cost --region eu-west-1 --type gp3 --size 1000 --iops 10000 --throughput 500
expect_json monthly_usd.total 143 "cost uses the bulk snapshot" 1e-9
expect_json prices.snapshot 3 "cost names snapshot 3"

# the default region (global --region / AWS_REGION) when none is given
AWS_REGION=us-east-1 run --format json pricing fetch --bulk --endpoint "$BEP"
expect_rc 0 "bulk fetch of the default region"
expect_json regions.0.region us-east-1 "AWS_REGION picks the region"

# a region asked for twice is read once
run --format json pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --region us-west-2 --accept-changes
expect_rc 0 "a repeated --region"
expect_value "$(json_get regions <"$T/out" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" 1 \
	"a repeated --region is fetched once"

# AWS_ENDPOINT_URL_PRICING is honoured
AWS_ENDPOINT_URL_PRICING=$BEP run --format json pricing fetch --bulk --region us-west-2
expect_rc 0 "AWS_ENDPOINT_URL_PRICING points --bulk at the loopback host"

# an unknown region: the index's regions are listed
dump_db >"$T/before.sql"
run pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --region ap-south-2
expect_rc 1 "a region missing from the index exits 1"
expect_err "error: region 'ap-south-2' is not in the AmazonEC2 price list index of '$BEP'; it lists: us-east-1, us-west-2, eu-west-1" \
	"a region missing from the index: says which exist"
expect_db_unchanged "a region missing from the index"
stop_bulk

# --all-regions: both partitions' indexes; China quotes CNY (GENERATED values)
start_bulk '{"regions": ["us-east-1", "eu-west-1"]}'
run --format json pricing fetch --bulk --endpoint "$BEP" --all-regions
expect_rc 0 "--all-regions fetches every region of both indexes"
expect_json regions.2.region cn-north-1 "the cn partition follows the aws one"
expect_json regions.3.region cn-northwest-1 "both China regions"
grep -q '"/offers/v1.0/cn/AmazonEC2/current/region_index.json"' "$T/bulk.log" &&
	ok "the China index is read from the cn partition path" ||
	fail "the China index is read from the cn partition path"
grep -q '"/offers/v1.0/cn/AmazonEC2/20260918212757/cn-north-1/index.json"' "$T/bulk.log" &&
	ok "the China offer file comes from the cn partition" ||
	fail "the China offer file comes from the cn partition"
# GENERATED CNY value: T6 us-east-1 gp3 0.08 x 6.64 = 0.5312
run --format json pricing show --region cn-north-1 --type gp3
expect_json prices.1.currency CNY "China prices kept in CNY"
expect_json prices.1.price_per_unit 0.5312 "cn-north-1 gp3 storage 0.08 x 6.64 = 0.5312 CNY" 1e-12
# answers for a China region are in its currency: 100 x 0.5312 = CNY 53.12
run --format json cost --region cn-north-1 --type gp3 --size 100
expect_json currency CNY "the bulk CNY prices answer in CNY"
expect_json monthly_usd.total 53.12 "100 GiB gp3 in cn-north-1: 100 x 0.5312 = 53.12" 1e-9
stop_bulk

# on a terminal a progress line shows bytes, rate and ETA
start_bulk '{"size": 3000000, "rate": 4000000}'
script -qec "'$EBSIZE' --db '$DB' pricing fetch --bulk --endpoint '$BEP' --region us-west-2 --accept-changes >/dev/null" /dev/null >"$T/tty" 2>&1
tr '\r' '\n' <"$T/tty" | grep -Eq "fetching prices: us-west-2 \(1/1\): [0-9.]+ of [0-9.]+ MB, [0-9.]+ MB/s, ETA [0-9]+ s" &&
	ok "progress line on a TTY: region, bytes of total, rate" ||
	fail "progress line on a TTY: region, bytes of total, rate" "$(tr '\r' '\n' <"$T/tty" | tail -3)"
run pricing fetch --bulk --endpoint "$BEP" --region us-west-2
grep -q "fetching" "$T/err" && fail "no progress line without a TTY" || ok "no progress line without a TTY"
stop_bulk
