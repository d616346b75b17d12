#!/bin/sh
# t2085-pricing-creds-container-imds: container credentials (ECS/EKS:
# AWS_CONTAINER_CREDENTIALS_FULL_URI or _RELATIVE_URI, with the
# authorization token or token file) and EC2 instance metadata (IMDSv2:
# PUT a session token, then GET the role and its credentials with it),
# end to end against tests/lib/creds_server.py.  EBSIZE_CONTAINER_CREDENTIALS_BASE
# stands in for http://169.254.170.2 (no SDK variable exists for it);
# IMDS is found through AWS_EC2_METADATA_SERVICE_ENDPOINT, as in the SDKs.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
CTOKEN=ebsizeTESTcontainerAUTHtokenNOTREAL

start_server '{"page_size": 20}'
start_creds "{\"container_token\": \"$CTOKEN\"}"

# fetch_as SOURCE DESC: succeeds and only SOURCE's keys signed
fetch_as() {
	rm -f "$T/srv.log"
	run --format json pricing fetch --endpoint "$EP" --region us-west-2
	expect_rc 0 "$2: fetch succeeds"
	[ "$(srv_count source "$1")" = "$(grep -c . "$T/srv.log")" ] &&
		ok "$2: every request signed with the '$1' keys" || fail "$2: every request signed with the '$1' keys"
}
refused() {
	desc=$1 want=$2
	dump_db >"$T/before.sql"
	run pricing fetch --endpoint "$EP" --region us-west-2
	expect_rc 1 "$desc: exits 1"
	expect_err "$want" "$desc: clear error"
	expect_db_unchanged "$desc"
}
NOCREDS="hint: 'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials"
NOTFOUND="environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set; profile 'default': not in '$HOME/.aws/config' or '$HOME/.aws/credentials'; container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set"

# container: full URI + token, token file, relative URI
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN=$CTOKEN \
	fetch_as container "container full URI with a token"
expect_json credentials "container credentials from '$CEP/container/creds'" "the source names the URI"
printf '%s\n' "$CTOKEN" >"$T/ctoken"
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=$T/ctoken \
	AWS_CONTAINER_AUTHORIZATION_TOKEN=wrong fetch_as container "the token file wins over the token"
AWS_CONTAINER_CREDENTIALS_RELATIVE_URI=/container/creds EBSIZE_CONTAINER_CREDENTIALS_BASE=$CEP \
	AWS_CONTAINER_AUTHORIZATION_TOKEN=$CTOKEN fetch_as container "container relative URI"
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN=wrong \
	refused "a wrong container token" \
	"error: container credentials: '$CEP/container/creds' answered HTTP 401"
AWS_CONTAINER_CREDENTIALS_FULL_URI=http://example.com/creds refused "plain http to a remote container endpoint" \
	"error: container credentials URI 'http://example.com/creds' must use https (plain http only to a loopback host)"
printf 'a\nb\n' >"$T/badtoken"
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=$T/badtoken \
	refused "a token with a line break (header injection)" \
	"error: the container authorization token holds a line break"

# IMDSv2
export AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP
unset AWS_EC2_METADATA_DISABLED
: >"$T/creds.log"
fetch_as imds "instance metadata (IMDSv2)"
expect_json credentials "instance metadata (IMDSv2) role 'ebsize-test-role' at '$CEP'" "the source names the role"
/usr/bin/python3 - "$T/creds.log" <<'PY' && ok "IMDSv2: a PUT for the token, then GETs with it" || fail "IMDSv2: a PUT for the token, then GETs with it" "$(cat "$T/creds.log")"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [(x["what"], x["method"]) for x in r] == [("imds-token", "PUT"), ("imds", "GET"), ("imds", "GET")], r
assert r[0]["ttl"] == "21600" and all(x["token_ok"] for x in r[1:]), r
PY
# container before IMDS
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN=$CTOKEN \
	fetch_as container "container credentials come before instance metadata"
AWS_EC2_METADATA_DISABLED=true refused "AWS_EC2_METADATA_DISABLED=true skips IMDS" \
	"error: no AWS credentials: $NOTFOUND; instance metadata: disabled by AWS_EC2_METADATA_DISABLED
$NOCREDS"
stop_creds

start_creds '{"faults": {"imds": "v1only"}}'
export AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP
refused "IMDSv1 only (no token): not used" \
	"error: no AWS credentials: $NOTFOUND; instance metadata: no IMDSv2 token from '$CEP' (HTTP 403)
$NOCREDS"
stop_creds
start_creds '{"faults": {"imds": "norole"}}'
export AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP
refused "an instance without a role" \
	"error: no AWS credentials: $NOTFOUND; instance metadata: no IAM role attached to this instance
$NOCREDS"
stop_creds
start_creds '{"faults": {"imds": "slow"}}'
export AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP
t0=$(date +%s)
refused "an IMDS that does not answer in 1 s" \
	"error: no AWS credentials: $NOTFOUND; instance metadata: not reachable at '$CEP' (no answer within 1 s)
$NOCREDS"
t1=$(date +%s)
[ $((t1 - t0)) -le 5 ] && ok "IMDS gave up after two 1 s tries ($((t1 - t0)) s)" ||
	fail "IMDS gave up after two 1 s tries ($((t1 - t0)) s)"
grep -c '"imds-token"' "$T/creds.log" >"$T/cnt"
[ "$(cat "$T/cnt")" = 2 ] && ok "IMDS: one retry of the token request" || fail "IMDS: one retry of the token request" "$(cat "$T/cnt")"
stop_creds
start_creds '{"expired": ["imds"]}'
export AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP
refused "IMDS credentials that already expired" \
	"error: instance metadata: the credentials expired at 2020-01-01T00:00:00Z"
AWS_EC2_METADATA_SERVICE_ENDPOINT=http://10.1.2.3 refused "plain http to a non-metadata host" \
	"error: instance metadata endpoint 'http://10.1.2.3' must use https (plain http only to a loopback host)"
