#!/bin/sh
# t2055-pricing-bulk-faults: the loopback bulk host (tests/lib/bulk_server.py)
# injects one fault at a time into a GENERATED offer file.  A transfer cut
# short or stalled is resumed with a Range request (or started again when
# the server gives no ETag) and the fetch succeeds; every other fault fails
# with one clear line, exit 1, and a database whose `sqlite3 .dump` is byte
# for byte the same - also when the other regions of the fetch were fine.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10

# a database with bulk snapshots in force, so "unchanged" means something
start_bulk '{}'
run pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --region eu-west-1
expect_rc 0 "setup: first bulk fetch succeeds"
stop_bulk

# log_has PYTHON-EXPR DESC: some request in bulk.log (as r) satisfies it
log_has() {
	if /usr/bin/python3 -c '
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(eval(sys.argv[2], {}, {"r": r}) for r in reqs) else 1)' "$T/bulk.log" "$1"; then
		ok "$2"
	else
		fail "$2" "$(cat "$T/bulk.log")"
	fi
}

# transient faults: the fetch recovers
start_bulk '{"faults": {"us-west-2": "cut_once"}}'
run --format json pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --accept-changes
expect_rc 0 "a transfer cut short is resumed"
expect_json resumes 1 "cut short: one resumed transfer"
expect_json retries 1 "cut short: one retry"
expect_json regions.0.read 14 "cut short: all 14 prices read"
expect_json regions.0.recorded False "cut short: equal to the prices in force, nothing new recorded"
log_has 'r.get("status") == 206 and r["start"] > 0 and r["if_range"]' \
	"cut short: the second request asked for the rest (Range + If-Range) and got 206"
stop_bulk

start_bulk '{"faults": {"us-west-2": "cut_once_noetag"}}'
run --format json pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --accept-changes
expect_rc 0 "cut short without an ETag: started again and succeeded"
expect_json resumes 0 "no ETag: not resumed"
expect_json regions.0.read 14 "no ETag: all 14 prices read, none twice"
expect_json regions.0.duplicates 0 "no ETag: no product read twice"
log_has 'r.get("n") == 2 and r.get("range") is None' "no ETag: the second request is for the whole file"
stop_bulk

start_bulk '{"faults": {"us-west-2": "stall_once"}}'
EBSIZE_FETCH_LOW_SPEED_TIME=1 run --format json pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --accept-changes
expect_rc 0 "a stalled transfer is aborted (low-speed limit) and resumed"
expect_json resumes 1 "stalled: resumed once"
stop_bulk

start_bulk '{"faults": {"us-west-2": "500_once"}}'
run --format json pricing fetch --bulk --endpoint "$BEP" --region us-west-2 --accept-changes
expect_rc 0 "HTTP 500 once is retried"
expect_json retries 1 "500 once: one retry"
stop_bulk

# failing faults: CONFIG DESC EXPECTED_STDERR_PATTERN [ARGS]; @BEP@ and
# @URL@ (the us-west-2 offer file) are replaced in the pattern
failing() {
	cfg=$1 desc=$2 want=$3
	shift 3
	start_bulk "$cfg"
	dump_db >"$T/before.sql"
	run pricing fetch --bulk --endpoint "$BEP" "$@"
	expect_rc 1 "$desc: exits 1"
	url="$BEP/offers/v1.0/aws/AmazonEC2/20260918212757/us-west-2/index.json"
	want=$(printf '%s' "$want" | sed "s|@BEP@|$BEP|g; s|@URL@|$url|g")
	# shellcheck disable=SC2254
	case "$(cat "$T/err")" in
	$want) ok "$desc: clear error" ;;
	*) fail "$desc: clear error" "stderr should match: $want" ;;
	esac
	expect_out_empty "$desc: nothing on stdout"
	expect_db_unchanged "$desc"
	stop_bulk
}

failing '{"faults": {"us-west-2": "truncated"}}' "a truncated offer file" \
	"error: cannot parse '@URL@': line [0-9]*: not valid JSON (cut short)" --region us-west-2
failing '{"faults": {"us-west-2": "wrong_version"}}' "wrong publication (another version than the index names)" \
	"error: cannot fetch prices from '@URL@': the file is version '20250101000000' (published 2026-09-18T21:27:57Z), but the index points to version '20260918212757'" \
	--region us-west-2
failing '{"faults": {"us-west-2": "wrong_region"}}' "an offer file holding another region's prices" \
	"error: cannot fetch prices from '@URL@': the offer file for 'us-west-2' holds prices for 'us-east-1' (SKU G*)" \
	--region us-west-2
failing '{"faults": {"us-west-2": "wrong_offer"}}' "an offer file of another service" \
	"error: cannot fetch prices from '@URL@': offer 'AmazonRDS', not AmazonEC2" --region us-west-2
failing '{"faults": {"us-west-2": "404"}}' "a 404 for one region (the other one fine)" \
	"error: cannot fetch prices from '@URL@': HTTP 404" --region eu-west-1 --region us-west-2
failing '{"faults": {"us-west-2": "not_json"}}' "HTML instead of an offer file" \
	"error: cannot parse '@URL@': line 1: not valid JSON" --region us-west-2
failing '{"index_fault": "bad_path"}' "an index pointing to another host" \
	"error: cannot parse '@BEP@/offers/v1.0/aws/AmazonEC2/current/region_index.json': region 'eu-west-1': \"currentVersionUrl\" is missing or not a path under /offers/v1.0/" \
	--region us-west-2
failing '{"index_fault": "not_json"}' "an index that is not JSON" \
	"error: cannot parse '@BEP@/offers/v1.0/aws/AmazonEC2/current/region_index.json': line 1: not valid JSON" \
	--region us-west-2
failing '{"regions": ["us-east-1", "eu-west-1"]}' "a region missing from the index" \
	"error: region 'us-west-2' is not in the AmazonEC2 price list index of '@BEP@'; it lists: us-east-1, eu-west-1" \
	--region eu-west-1 --region us-west-2
failing '{"scale": {"us-west-2/gp2/storage": 5.0}}' "a price moved 5x" \
	"error: bulk prices not stored: price of gp2 storage in 'us-west-2' moved from 0.1 to 0.5 USD (x5.00) against snapshot *, more than 3x; pass --accept-changes if this is right" \
	--region eu-west-1 --region us-west-2

# a slow drip past the deadline: 20 KB/s of a 1.2 MB file, --timeout 2
t0=$(date +%s)
failing '{"faults": {"us-west-2": "drip"}}' "a slow drip past the --timeout" \
	"error: cannot fetch prices from '@URL@': gave up at the --timeout of 2 s for the whole fetch" \
	--region us-west-2 --timeout 2
t1=$(date +%s)
[ $((t1 - t0)) -le 8 ] && ok "the drip was cut at the deadline ($((t1 - t0)) s)" ||
	fail "the drip was cut at the deadline ($((t1 - t0)) s)"

# nothing listening at all
start_bulk '{}'
stop_bulk
dump_db >"$T/before.sql"
run pricing fetch --bulk --endpoint "$BEP" --region us-west-2
expect_rc 1 "host gone: exits 1"
expect_err_has "error: cannot fetch the price list index '$BEP/offers/v1.0/aws/AmazonEC2/current/region_index.json': Failed to connect to 127.0.0.1 port" \
	"host gone: names the index URL"
expect_err_has "(gave up after 5 attempts)" "host gone: retried 5 times"
expect_db_unchanged "host gone"
