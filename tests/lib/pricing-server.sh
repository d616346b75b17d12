# pricing-server.sh - start and stop tests/lib/pricing_server.py (a
# loopback GetProducts server) from an e2e test.  Source after test-lib.sh.
#
# start_server CONFIG_JSON: starts it, sets EP (its URL) and SRV_PID.
# stop_server: stops it (also run at exit).
# dump_db: `sqlite3 DB .dump` to stdout, for before/after comparisons.

# TEST CREDENTIALS: the made-up pair pricing_server.py verifies against.
TEST_AKID=AKIDEXAMPLE
TEST_SECRET='ebsizeTESTsecret/K7MDENG+bPxRfiCYzzNOTREAL'
SRV_PID=""
trap 'stop_server; rm -rf "$T"' EXIT

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

dump_db() {
	sqlite3 "$DB" .dump
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
