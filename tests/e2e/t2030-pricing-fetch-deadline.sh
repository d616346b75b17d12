#!/bin/sh
# t2030-pricing-fetch-deadline: issue 13 defect 6.  A Query API server
# that accepts and never answers, or answers one byte a second, must not
# hold `pricing fetch` for minutes: a stalled transfer (below 100 bytes/s
# for EBSIZE_FETCH_LOW_SPEED_TIME seconds, 30 by default) is aborted and
# retried, and the whole fetch stops at --timeout (default 300 s).  Each
# ends with one clear line, exit 1, and the database unchanged.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10

usage_error "fetch: --timeout not a number" "--timeout must be a whole number from 1 to 86400 seconds (such as 90, 90s, 30m or 1h), not 'soon'" \
	pricing fetch --timeout soon

start_server '{}'
with_creds run pricing fetch --endpoint "$EP" --region us-west-2
expect_rc 0 "setup: a fetch succeeds"
stop_server

# deadline CONFIG DESC MAX_SECONDS EXPECTED [ARGS]: fails in time, unchanged
deadline() {
	cfg=$1 desc=$2 max=$3 want=$4
	shift 4
	start_server "$cfg"
	dump_db >"$T/before.sql"
	t0=$(date +%s)
	with_creds run pricing fetch --endpoint "$EP" --region us-west-2 "$@"
	t1=$(date +%s)
	expect_rc 1 "$desc: exits 1"
	expect_err "$(printf '%s' "$want" | sed "s|@EP@|$EP|g")" "$desc: clear error"
	[ $((t1 - t0)) -le "$max" ] && ok "$desc: stopped within $max s ($((t1 - t0)) s)" ||
		fail "$desc: stopped within $max s ($((t1 - t0)) s)"
	expect_db_unchanged "$desc"
	stop_server
}

deadline '{"fault": "hang", "fault_from": 2, "fault_count": -1}' \
	"a server that never answers, --timeout 3" 7 \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp3 in us-west-2: gave up at the --timeout of 3 s for the whole fetch" \
	--timeout 3
deadline '{"fault": "drip", "fault_from": 1, "fault_count": -1}' \
	"a body dripping one byte a second, --timeout 3" 7 \
	"error: cannot fetch prices from '@EP@': page 1 of Storage/gp2 in us-west-2: gave up at the --timeout of 3 s for the whole fetch" \
	--timeout 3

# a stalled request (no answer: below 100 bytes/s, counting the request
# libcurl sent, for 1 s) is aborted without waiting for the 60 s request
# timeout, retried, and the fetch succeeds
start_server '{"fault": "hang", "fault_from": 3, "fault_count": 1}'
t0=$(date +%s)
EBSIZE_FETCH_LOW_SPEED_TIME=1 with_creds run --format json pricing fetch --endpoint "$EP" --region us-west-2
t1=$(date +%s)
expect_rc 0 "one stalled request is aborted and retried"
expect_json retries 1 "one retry after the stall"
[ $((t1 - t0)) -le 15 ] && ok "the stall was cut by the low-speed limit ($((t1 - t0)) s)" ||
	fail "the stall was cut by the low-speed limit ($((t1 - t0)) s)"
[ "$(srv_count fault hang)" = 1 ] && ok "the server saw the request that hung once" ||
	fail "the server saw the request that hung once"
stop_server
