#!/bin/sh
# t2000-pricing-fetch: `ebsize pricing fetch` against a real loopback
# GetProducts server (tests/lib/pricing_server.py) that checks the SigV4
# signature, pages with NextToken and serves GENERATED items built from
# ebs-facts.md T6 values.  Expected prices below are T6 by hand.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10

run pricing fetch -h
expect_rc 0 "fetch -h exits 0"
expect_out_has "usage: ebsize pricing fetch" "fetch -h prints the usage"

usage_error "fetch: unknown option" "unknown option '--bogus'" pricing fetch --bogus
usage_error "fetch: --region with --all-regions" "give --region or --all-regions, not both" \
	pricing fetch --region us-west-2 --all-regions
usage_error "fetch: --max-pages 0" "--max-pages must be a whole number from 1 to 100000, not '0'" \
	pricing fetch --max-pages 0
usage_error "fetch: plain http to a remote host" \
	"endpoint 'http://example.com' must use https (plain http only to a loopback host)" \
	pricing fetch --endpoint http://example.com
AWS_ENDPOINT_URL=http://10.0.0.1:80 usage_error "fetch: AWS_ENDPOINT_URL is checked too" \
	"endpoint 'http://10.0.0.1:80' must use https (plain http only to a loopback host)" \
	pricing fetch
# found in review: a host name starting "127." is not loopback
usage_error "fetch: plain http to a 127.* host name" \
	"endpoint 'http://127.evil.example/' must use https (plain http only to a loopback host)" \
	pricing fetch --endpoint http://127.evil.example/
# found in review: userinfo in the URL reached messages and the DB
usage_error "fetch: endpoint with a user name and password" \
	"endpoint for host '127.0.0.1' must not contain a user name or password" \
	pricing fetch --endpoint http://user:hunter2@127.0.0.1:9/
usage_error "pricing: unknown subcommand" "unknown subcommand 'frob' (use show, fetch, import, history, diff or regions)" pricing frob

# no credentials anywhere: the message says where it looked
run pricing fetch --endpoint http://127.0.0.1:9
expect_rc 1 "fetch without credentials exits 1"
expect_err "error: no AWS credentials: environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set; profile 'default': not in '$HOME/.aws/config' or '$HOME/.aws/credentials'; container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set; instance metadata: disabled by AWS_EC2_METADATA_DISABLED
hint: 'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials" \
	"no credentials: names every source tried and where it looked"

start_server '{"page_size": 1}'
with_creds run --format json pricing fetch --endpoint "$EP" --region us-west-2 --region eu-west-1
expect_rc 0 "fetch two regions succeeds"
expect_json pages 28 "14 items per region, one per page: 28 pages"
expect_json prices 28 "28 prices stored"
expect_json regions 2 "two regions in the snapshot"
# the queries fetch volume prices only: each region's snapshot-storage
# price (embedded, pricing/sources) is carried forward
expect_json carried 2 "only the 2 snapshot-storage prices carried: every volume price came back"
expect_json snapshot_id 2 "snapshot 2 (1 is the embedded one)"
[ "$(srv_count sig ok)" = 28 ] && ok "server verified the SigV4 signature of all 28 requests" ||
	fail "server verified the SigV4 signature of all 28 requests" "$(head -3 "$T/srv.log")"
/usr/bin/python3 - "$T/srv.log" <<'PY' && ok "requests filter on family, volume and region; NextToken followed" || fail "requests filter on family, volume and region; NextToken followed"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
f0 = {f["Field"]: f["Value"] for f in reqs[0]["filters"]}
assert f0 == {"productFamily": "Storage", "volumeApiName": "gp2", "regionCode": "us-west-2"}, f0
assert all(f["Type"] == "TERM_MATCH" for r in reqs for f in r["filters"])
assert sum(1 for r in reqs if r["next"]) == 4, [r["next"] for r in reqs]
assert all(r["target"] == "AWSPriceListService.GetProducts" for r in reqs)
PY

# values: ebs-facts.md T6 eu-west-1 row; gp3 throughput 45.056 / 1024 = 0.044
run --format json pricing show --region eu-west-1 --type gp3
expect_json prices.0.dimension iops "gp3 rows: iops first"
expect_json prices.0.price_per_unit 0.0055 "eu-west-1 gp3 IOPS 0.0055"
expect_json prices.0.begin_range 3000 "gp3 IOPS billed above 3,000"
expect_json prices.2.price_per_unit 0.044 "gp3 throughput 45.056 GiBps-mo / 1024 = 0.044 per MiB/s" 1e-12
expect_json prices.2.unit MiBps-month "throughput unit MiBps-month"
expect_json prices.2.begin_range 125 "gp3 throughput billed above 125"
expect_json prices.0.source "fetch:$EP" "rows carry the fetch source"
run --format json pricing show --region eu-west-1 --type io2
expect_json prices.1.begin_range 32000 "io2 tier 2 from 32,000"
expect_json prices.1.end_range 64000 "io2 tier 2 to 64,000"
expect_json prices.1.price_per_unit 0.0504 "io2 tier 2 0.0504"
expect_json prices.2.end_range None "io2 tier 3 unbounded"
run --format json pricing show --region eu-west-1 --type standard
expect_json prices.0.price_per_unit 0.055 "standard I/O 0.000000055 per IO = 0.055 per million" 1e-12
expect_json prices.0.unit per-1M-IO "standard I/O unit per-1M-IO"

# the model uses it: 1000 x 0.088 + 7000 x 0.0055 + 375 x 0.044 = 143.00
run --format json cost --region eu-west-1 --type gp3 --size 1000 --iops 10000 --throughput 500
expect_json monthly_usd.total 143 "cost uses the fetched snapshot" 1e-9
expect_json prices.snapshot 2 "cost names snapshot 2"

# region untouched by the fetch keeps the embedded snapshot
run --format json cost --region ap-northeast-1 --type gp3 --size 100
expect_json prices.snapshot 1 "other regions stay on the embedded snapshot"

# session token: sent as X-Amz-Security-Token and signed
AWS_SESSION_TOKEN=test-session-token with_creds run --format json pricing fetch --endpoint "$EP" --region us-east-1
expect_rc 0 "fetch with a session token succeeds"
[ "$(srv_count token_header True)" = 14 ] && ok "session token sent with every request" ||
	fail "session token sent with every request"

# credentials from a profile in the shared credentials file
mkdir -p "$HOME/.aws"
printf '[default]\naws_access_key_id = nope\naws_secret_access_key = nope\n\n[test]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
	"$TEST_AKID" "$TEST_SECRET" >"$HOME/.aws/credentials"
AWS_PROFILE=test AWS_ENDPOINT_URL_PRICING=$EP run --format json pricing fetch --region us-east-1
expect_rc 0 "profile credentials and AWS_ENDPOINT_URL_PRICING work"
expect_json endpoint "$EP" "endpoint taken from AWS_ENDPOINT_URL_PRICING"
cp "$HOME/.aws/credentials" "$T/creds"
rm "$HOME/.aws/credentials"
AWS_SHARED_CREDENTIALS_FILE=$T/creds AWS_PROFILE=test run pricing fetch --endpoint "$EP" --region us-east-1
expect_rc 0 "AWS_SHARED_CREDENTIALS_FILE is read"
AWS_SHARED_CREDENTIALS_FILE=$T/creds AWS_PROFILE=nosuch run pricing fetch --endpoint "$EP" --region us-east-1
expect_rc 1 "missing profile exits 1"
expect_err "error: no AWS credentials: profile 'nosuch' (from AWS_PROFILE) is in neither '$HOME/.aws/config' nor '$T/creds'
hint: 'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials" \
	"missing profile: names the profile, where it came from and both files"

# found in review: upper-case keys (the AWS CLI lower-cases them) and a
# UTF-8 BOM before the first section
printf '\357\273\277[default]\r\nAWS_ACCESS_KEY_ID = %s\r\nAws_Secret_Access_Key=%s\r\n' \
	"$TEST_AKID" "$TEST_SECRET" >"$T/creds-bom"
AWS_SHARED_CREDENTIALS_FILE=$T/creds-bom run pricing fetch --endpoint "$EP" --region us-east-1
expect_rc 0 "credentials file with a BOM and upper-case keys is read"

# wrong secret: the server's signature check fails, 403, no retry
AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY=wrong-secret run pricing fetch --endpoint "$EP" --region us-east-1
expect_rc 1 "wrong secret exits 1"
expect_err "error: cannot fetch prices from '$EP': page 1 of Storage/gp2 in us-east-1: HTTP 403 InvalidSignatureException: signature check failed: signature mismatch (credentials rejected)" \
	"wrong secret: signature rejected"

# --all-regions: no regionCode filter; each region must have gp2 and gp3
stop_server
# (prices equal to those in force, fetched today, record nothing: one
# price is scaled so that this fetch is new data)
start_server '{"page_size": 5, "scale": {"us-east-1/gp2/storage": 1.1}}'
with_creds run --format json pricing fetch --endpoint "$EP" --all-regions
expect_rc 0 "fetch --all-regions succeeds"
expect_json regions 3 "--all-regions: the server's three regions"
expect_json recorded True "--all-regions: a changed price makes a new snapshot"
grep -q '"regionCode"' "$T/srv.log" && fail "--all-regions sends no regionCode filter" || ok "--all-regions sends no regionCode filter"

# history shows the fetches, newest first, in force
run --format json pricing history
expect_json snapshots.0.source "fetch:$EP" "history: newest is the last fetch"
expect_json snapshots.0.in_force True "history: newest is in force"
expect_json snapshots.0.regions 3 "history: region count"
newest=$(json_get snapshots.0.id <"$T/out")

# the same prices again, the same day: nothing new recorded, and it says so
with_creds run --format json pricing fetch --endpoint "$EP" --all-regions
expect_rc 0 "an identical fetch succeeds"
expect_json recorded False "an identical fetch records no snapshot"
expect_json snapshot_id "$newest" "an identical fetch names the snapshot in force"
expect_json notes.0 "all 42 prices equal the prices in force (snapshot $newest): nothing new recorded" \
	"an identical fetch says so (3 regions x 14 prices)"
run --format json pricing history
expect_json snapshots.0.id "$newest" "history: no snapshot added by the identical fetch"
stop_server

# on a terminal (script(1) gives it a pty) a progress line is drawn;
# with stderr not a terminal (every run above) there is none
start_server '{"page_size": 1}'
AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY=$TEST_SECRET \
	script -qec "'$EBSIZE' --db '$DB' pricing fetch --endpoint '$EP' --region us-west-2 >/dev/null" /dev/null >"$T/tty" 2>&1
grep -q "fetching prices: us-west-2, 14 pages, 14 products" "$T/tty" &&
	ok "progress line on a TTY: region, pages, products" ||
	fail "progress line on a TTY: region, pages, products" "$(tr '\r' '\n' <"$T/tty" | tail -3)"
with_creds run pricing fetch --endpoint "$EP" --region us-west-2
expect_rc 0 "fetch with stderr not a terminal"
grep -q "fetching" "$T/err" && fail "no progress line without a TTY" || ok "no progress line without a TTY"
stop_server
