#!/bin/sh
# t2020-pricing-secret: the AWS secret key (and the session token) never
# reach the database file, stdout or stderr, after fetches that succeed
# and fetches that fail in every way we can provoke.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
TOKEN=ebsizeTESTsessiontokenNOTREAL
: >"$T/all"

# keep FILE: append this run's stdout and stderr to the collection
keep() {
	cat "$T/out" "$T/err" >>"$T/all"
}

fetch_with() {
	start_server "$1"
	shift
	AWS_SESSION_TOKEN=$TOKEN with_creds run --format json pricing fetch --endpoint "$EP" "$@"
	keep
	stop_server
}

fetch_with '{"page_size": 2}' --region us-west-2
expect_rc 0 "a fetch that succeeds"
fetch_with '{"page_size": 2}' --region us-west-2 --region eu-west-1 -q
fetch_with '{"fault": "500", "fault_count": -1}' --region us-west-2
expect_rc 1 "a fetch that fails with HTTP 500"
fetch_with '{"fault": "badjson", "fault_from": 3}' --region us-west-2
expect_rc 1 "a fetch that fails to parse"
fetch_with '{"scale": {"us-west-2/gp3/storage": 10}}' --region us-west-2
expect_rc 1 "a fetch that fails the sanity check"
fetch_with '{"fault": "oversize"}' --region us-west-2
expect_rc 1 "a fetch that fails the size cap"
start_server '{}'
AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY="$TEST_SECRET-x" run pricing fetch --endpoint "$EP"
expect_rc 1 "a fetch whose signature is rejected"
keep
stop_server
# a profile file holding the secret, read but the profile lacks a key
mkdir -p "$HOME/.aws"
printf '[default]\naws_secret_access_key = %s\n' "$TEST_SECRET" >"$HOME/.aws/credentials"
run pricing fetch --endpoint "$EP"
expect_rc 1 "a profile without an access key id"
expect_err "error: no AWS credentials: profile 'default' in '$HOME/.aws/credentials' lacks aws_access_key_id or aws_secret_access_key
hint: 'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials" \
	"incomplete profile: clear message"
keep
run pricing history
keep
# -o files: a workbook (its About sheet holds the command line) and JSON,
# from a fetch that succeeds; unzipped so that the XML is searched too
start_server '{}'
mkdir "$T/o"
AWS_SESSION_TOKEN=$TOKEN with_creds run --format xlsx -o "$T/o/fetch.xlsx" pricing fetch \
	--endpoint "$EP" --region us-west-2 --accept-changes
expect_rc 0 "a fetch to a workbook"
AWS_SESSION_TOKEN=$TOKEN with_creds run -o "$T/o/fetch.json" --format json pricing fetch \
	--endpoint "$EP" --region us-west-2 --accept-changes
expect_rc 0 "a fetch to a JSON file"
keep
stop_server
(cd "$T/o" && /usr/bin/python3 -c 'import zipfile; zipfile.ZipFile("fetch.xlsx").extractall("x")')
cat "$T/o/fetch.json" $(find "$T/o/x" -type f) >>"$T/all"

[ -s "$T/all" ] && ok "outputs were collected" || fail "outputs were collected"
for f in "$T/all" "$DB" "$DB-wal" "$DB-shm"; do
	[ -e "$f" ] || continue
	if grep -qaF -- "$TEST_SECRET" "$f"; then
		fail "secret absent from $(basename "$f")"
	else
		ok "secret absent from $(basename "$f")"
	fi
	if grep -qaF -- "$TOKEN" "$f"; then
		fail "session token absent from $(basename "$f")"
	else
		ok "session token absent from $(basename "$f")"
	fi
done
# the dump too (text form of every table)
dump_db >"$T/dump.sql"
grep -qF -- "$TEST_SECRET" "$T/dump.sql" && fail "secret absent from the dump" || ok "secret absent from the dump"
grep -qF -- "$TEST_AKID" "$T/dump.sql" && fail "access key id absent from the dump" || ok "access key id absent from the dump"
