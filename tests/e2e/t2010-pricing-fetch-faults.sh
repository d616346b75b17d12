#!/bin/sh
# t2010-pricing-fetch-faults: the loopback GetProducts server injects one
# fault at a time.  Transient ones (throttling, 500, a reset connection)
# are retried and the fetch succeeds; the rest fail with one clear line,
# exit 1, and a database whose `sqlite3 .dump` is byte for byte the same.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10

# a database with a fetched snapshot in force (so "untouched" means more
# than "empty")
start_server '{"page_size": 3}'
with_creds run pricing fetch --endpoint "$EP" --region us-west-2
expect_rc 0 "setup: first fetch succeeds"
stop_server

# retried faults: CONFIG DESC EXPECTED_RETRIES
retried() {
	start_server "$1"
	with_creds run --format json pricing fetch --endpoint "$EP" --region us-west-2
	expect_rc 0 "$2: retried and succeeded"
	expect_json retries "$3" "$2: $3 retries counted"
	expect_json products 14 "$2: all 14 prices read"
	# the same prices as the setup fetch, the same day: nothing new
	expect_json recorded False "$2: identical to the snapshot in force, not recorded again"
	stop_server
}
retried '{"fault": "throttle400", "fault_from": 2, "fault_count": 2}' "400 ThrottlingException twice" 2
retried '{"fault": "throttle429", "fault_from": 1, "fault_count": 1}' "429 ThrottlingException" 1
retried '{"fault": "500", "fault_from": 3, "fault_count": 1}' "HTTP 500 once" 1
retried '{"fault": "reset", "fault_from": 2, "fault_count": 1}' "connection reset mid-body once" 1

# failing faults: CONFIG DESC EXPECTED_STDERR [ARGS]; the expected stderr
# is a shell pattern (only the \( \) of messages need care) with @EP@ for
# the endpoint
failing() {
	cfg=$1 desc=$2 want=$3
	shift 3
	start_server "$cfg"
	dump_db >"$T/before.sql"
	with_creds run pricing fetch --endpoint "$EP" --region us-west-2 "$@"
	expect_rc 1 "$desc: exits 1"
	want=$(printf '%s' "$want" | sed "s|@EP@|$EP|g")
	# shellcheck disable=SC2254
	case "$(cat "$T/err")" in
	$want) ok "$desc: clear error" ;;
	*) fail "$desc: clear error" "stderr should match: $want" ;;
	esac
	expect_out_empty "$desc: nothing on stdout"
	dump_db >"$T/after.sql"
	if cmp -s "$T/before.sql" "$T/after.sql"; then
		ok "$desc: database dump unchanged"
	else
		fail "$desc: database dump unchanged" "$(diff "$T/before.sql" "$T/after.sql" | head -5)"
	fi
	stop_server
}

failing '{"fault": "500", "fault_from": 2, "fault_count": -1}' "HTTP 500 for good" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp3 in us-west-2: HTTP 500 InternalErrorException: internal failure (gave up after 5 attempts)"
failing '{"fault": "throttle400", "fault_from": 1, "fault_count": -1}' "throttled for good" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp2 in us-west-2: HTTP 400 ThrottlingException: Rate exceeded (gave up after 5 attempts)"
failing '{"fault": "reset", "fault_from": 4, "fault_count": -1}' "connection reset for good" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/io2 in us-west-2: Recv failure: Connection reset by peer (gave up after 5 attempts)"
failing '{"fault": "truncated", "fault_from": 3}' "truncated JSON" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/io1 in us-west-2: line 1: not valid JSON (cut short)"
failing '{"fault": "badjson", "fault_from": 2}' "a PriceList item that is not JSON" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp3 in us-west-2: PriceList item 1: not valid JSON"
failing '{"fault": "negative", "fault_from": 5}' "a negative price" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/st1 in us-west-2: PriceList item 1: SKU GENUSWEST2ST1STO: negative price -0.1000000000"
failing '{"fault": "nonnumeric", "fault_from": 6}' "a non-numeric price" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/sc1 in us-west-2: PriceList item 1: SKU GENUSWEST2SC1STO: price is not a number: abc"
failing '{"fault": "endless", "fault_count": -1}' "a NextToken that never ends" \
	"error: cannot fetch prices from '@EP@': page 6 of Storage/gp2 in us-west-2: NextToken did not end after 5 pages (the limit)" \
	--max-pages 5
failing '{"fault": "oversize", "fault_from": 2}' "an oversized body (Content-Length)" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp3 in us-west-2: response larger than the limit of 16 MiB"
failing '{"fault": "oversize_chunked", "fault_from": 2}' "an oversized body (no length)" \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp3 in us-west-2: response larger than the limit of 16 MiB"
failing '{"scale": {"us-west-2/gp2/storage": 5.0}}' "a price moved 5x" \
	"error: fetched prices from '@EP@' not stored: price of gp2 storage in 'us-west-2' moved from 0.1 to 0.5 USD (x5.00) against snapshot 2, more than 3x; pass --accept-changes if this is right"
failing '{}' "a requested region without prices" \
	"error: fetched prices from '@EP@' not stored: no gp2 and gp3 storage prices for region 'ap-northeast-1' in the new data" \
	--region ap-northeast-1

# --accept-changes lets the 5x move through
start_server '{"scale": {"us-west-2/gp2/storage": 5.0}}'
with_creds run --format json pricing fetch --endpoint "$EP" --region us-west-2 --accept-changes
expect_rc 0 "--accept-changes stores a 5x move"
expect_json changed 1 "one price changed"
run --format json pricing show --region us-west-2 --type gp2
expect_json prices.0.price_per_unit 0.5 "gp2 storage now 0.5"
stop_server

# nothing listening: connection refused is retried, then a clear error
dump_db >"$T/before.sql"
with_creds run pricing fetch --endpoint "$EP" --region us-west-2
expect_rc 1 "server gone: exits 1"
expect_err_has "error: cannot fetch prices from '$EP': page 1 of Storage/gp2 in us-west-2: Failed to connect to 127.0.0.1 port" \
	"server gone: names the endpoint and page"
expect_err_has "(gave up after 5 attempts)" "server gone: retried 5 times"
dump_db >"$T/after.sql"
cmp -s "$T/before.sql" "$T/after.sql" && ok "server gone: database dump unchanged" ||
	fail "server gone: database dump unchanged"
