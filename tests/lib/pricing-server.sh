# pricing-server.sh - start and stop the loopback fakes from an e2e test.
# Source after test-lib.sh.
#
# start_server CONFIG_JSON: tests/lib/pricing_server.py (GetProducts);
#   sets EP (its URL) and SRV_PID.  stop_server stops it.
# start_bulk CONFIG_JSON: tests/lib/bulk_server.py (bulk offer files);
#   sets BEP and BULK_PID; its log is $T/bulk.log.  stop_bulk.
# start_creds CONFIG_JSON: tests/lib/creds_server.py (STS, SSO portal,
#   container endpoint, IMDS); sets CEP and CREDS_PID; log $T/creds.log.
# All are stopped at exit.
# dump_db: `sqlite3 DB .dump` to stdout, for before/after comparisons.

# TEST CREDENTIALS: the made-up pair pricing_server.py verifies against.
TEST_AKID=AKIDEXAMPLE
TEST_SECRET='ebsizeTESTsecret/K7MDENG+bPxRfiCYzzNOTREAL'
SRV_PID=""
BULK_PID=""
CREDS_PID=""
trap 'stop_server; stop_bulk; stop_creds; rm -rf "$T"' EXIT

# Nothing from the machine's AWS setup may reach a test: no config files
# but the test's own, no container or web-identity credentials, and no
# instance metadata (on an EC2 runner IMDS would answer with real ones).
unset AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE AWS_DEFAULT_PROFILE \
	AWS_CONTAINER_CREDENTIALS_RELATIVE_URI AWS_CONTAINER_CREDENTIALS_FULL_URI \
	AWS_CONTAINER_AUTHORIZATION_TOKEN AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE \
	AWS_WEB_IDENTITY_TOKEN_FILE AWS_ROLE_ARN AWS_ENDPOINT_URL_STS \
	AWS_ENDPOINT_URL_SSO AWS_EC2_METADATA_SERVICE_ENDPOINT \
	AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE EBSIZE_LIBCURL \
	EBSIZE_CONTAINER_CREDENTIALS_BASE 2>/dev/null || true
export AWS_EC2_METADATA_DISABLED=true

start_server() {
	rm -f "$T/port" "$T/srv.log"
	/usr/bin/python3 "$ROOT/tests/lib/pricing_server.py" "$T/port" "$T/srv.log" "$1" &
	SRV_PID=$!
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	EP="http://127.0.0.1:$(cat "$T/port")"
}

stop_server() {
	if [ -n "$SRV_PID" ]; then
		kill "$SRV_PID" 2>/dev/null
		wait "$SRV_PID" 2>/dev/null
		SRV_PID=""
	fi
}

# wait_port FILE: wait until a server wrote its port; prints it
wait_port() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	cat "$1"
}

start_bulk() {
	rm -f "$T/bport" "$T/bulk.log"
	/usr/bin/python3 "$ROOT/tests/lib/bulk_server.py" "$T/bport" "$T/bulk.log" "$1" &
	BULK_PID=$!
	BEP="http://127.0.0.1:$(wait_port "$T/bport")"
}

stop_bulk() {
	if [ -n "$BULK_PID" ]; then
		kill "$BULK_PID" 2>/dev/null
		wait "$BULK_PID" 2>/dev/null
		BULK_PID=""
	fi
}

start_creds() {
	rm -f "$T/cport" "$T/creds.log"
	/usr/bin/python3 "$ROOT/tests/lib/creds_server.py" "$T/cport" "$T/creds.log" "$1" &
	CREDS_PID=$!
	CEP="http://127.0.0.1:$(wait_port "$T/cport")"
}

stop_creds() {
	if [ -n "$CREDS_PID" ]; then
		kill "$CREDS_PID" 2>/dev/null
		wait "$CREDS_PID" 2>/dev/null
		CREDS_PID=""
	fi
}

# expect_db_unchanged DESC: the dump equals $T/before.sql
expect_db_unchanged() {
	dump_db >"$T/after.sql"
	if cmp -s "$T/before.sql" "$T/after.sql"; then
		ok "$1: database dump unchanged"
	else
		fail "$1: database dump unchanged" "$(diff "$T/before.sql" "$T/after.sql" | head -5)"
	fi
}

dump_db() {
	sqlite3 "$DB" .dump
}

# key_of NAME FIELD: a made-up test credential of pricing_server.KEYS
# (FIELD 0 key id, 1 secret, 2 session token)
key_of() {
	/usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import pricing_server as p; print(p.KEYS[sys.argv[2]][int(sys.argv[3])] or "")' \
		"$ROOT/tests/lib" "$1" "$2"
}

# with_creds CMD...: run with the test credentials in the environment
with_creds() {
	AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY=$TEST_SECRET "$@"
}

# srv_count FIELD VALUE: how many logged requests have FIELD == VALUE
srv_count() {
	/usr/bin/python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if str(d.get(sys.argv[2])) == sys.argv[3]:
        n += 1
print(n)' "$T/srv.log" "$1" "$2"
}
