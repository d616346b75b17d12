#!/bin/sh
# t2080-pricing-creds-sso: IAM Identity Center, end to end.  The test
# writes the token cache `aws sso login` would (~/.aws/sso/cache/<SHA-1 of
# the sso_session name, or of the start URL>.json, the name computed here
# with Python's hashlib), and the loopback SSO portal
# (tests/lib/creds_server.py, AWS_ENDPOINT_URL_SSO) trades the token for
# the made-up "sso" keys through GetRoleCredentials.  A missing, expired
# or refused token says to run `aws sso login --profile P`.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
mkdir -p "$HOME/.aws/sso/cache"
CFG=$HOME/.aws/config
TOKEN=ebsizeTESTssoBEARERtokenNOTREAL
URL=https://d-0123456789.awsapps.com/start

sha1() { /usr/bin/python3 -c 'import hashlib, sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest())' "$1"; }
# cache KEY TOKEN EXPIRES: write the cache file of KEY
cache() {
	printf '{"startUrl": "%s", "region": "us-east-1", "accessToken": "%s", "expiresAt": "%s"}' \
		"$URL" "$2" "$3" >"$HOME/.aws/sso/cache/$(sha1 "$1").json"
}

cat >"$CFG" <<CONF
[profile sso]
sso_session = corp
sso_account_id = 111122223333
sso_role_name = ReadOnly

[sso-session corp]
sso_start_url = $URL
sso_region = us-east-1
sso_registration_scopes = sso:account:access

[profile legacy]
sso_start_url = $URL
sso_region = us-east-1
sso_account_id = 111122223333
sso_role_name = ReadOnly

[profile nosession]
sso_session = gone
sso_account_id = 111122223333
sso_role_name = ReadOnly

[profile partial]
sso_session = corp
CONF

start_server '{"page_size": 20}'
start_creds "{\"sso_token\": \"$TOKEN\"}"
export AWS_ENDPOINT_URL_SSO=$CEP/sso

cache corp "$TOKEN" 2099-01-01T00:00:00Z
run --format json pricing fetch --endpoint "$EP" --region us-west-2 --profile sso
expect_rc 0 "SSO (sso_session): fetch succeeds"
[ "$(srv_count source sso)" = "$(grep -c . "$T/srv.log")" ] &&
	ok "every request signed with the SSO role's keys" || fail "every request signed with the SSO role's keys"
expect_json credentials "SSO role 'ReadOnly' in account 111122223333 for profile 'sso'" "the source names role, account, profile"
grep -q '"account": "111122223333", "role": "ReadOnly", "token_ok": true' "$T/creds.log" &&
	ok "GetRoleCredentials got the account, role and cached token" ||
	fail "GetRoleCredentials got the account, role and cached token" "$(cat "$T/creds.log")"

# the legacy form: the cache is keyed by the start URL; "UTC" suffix (old caches)
cache "$URL" "$TOKEN" 2099-01-01T00:00:00UTC
AWS_PROFILE=legacy run --format json pricing fetch --endpoint "$EP" --region us-west-2
expect_rc 0 "SSO (legacy sso_start_url): fetch succeeds"

# refused PROFILE DESC EXPECTED_STDERR: clear error, exit 1, DB unchanged
refused() {
	p=$1 desc=$2 want=$3
	dump_db >"$T/before.sql"
	run pricing fetch --endpoint "$EP" --region us-west-2 --profile "$p"
	expect_rc 1 "$desc: exits 1"
	expect_err "$want" "$desc: clear error"
	expect_db_unchanged "$desc"
}
rm -f "$HOME/.aws/sso/cache/"*.json
refused sso "no cached token" \
	"error: no cached SSO token for profile 'sso' (no '$HOME/.aws/sso/cache/$(sha1 corp).json'): run \`aws sso login --profile sso\`"
cache corp "$TOKEN" 2020-01-01T00:00:00Z
refused sso "an expired cached token" \
	"error: the cached SSO token of profile 'sso' has expired: run \`aws sso login --profile sso\`"
cache corp ebsizeTESTwrongTOKEN 2099-01-01T00:00:00Z
refused sso "a token the portal refuses" \
	"error: SSO for profile 'sso': the SSO portal refused the cached token (HTTP 401): run \`aws sso login --profile sso\`"
refused nosession "an sso_session without its section" \
	"error: SSO for profile 'nosession': sso_session 'gone' has no [sso-session gone] section in '$CFG'"
refused partial "a profile without account and role" \
	"error: SSO for profile 'partial': needs sso_account_id, sso_role_name, sso_region and sso_start_url (in the profile or its sso_session)"
printf 'not json' >"$HOME/.aws/sso/cache/$(sha1 corp).json"
refused sso "a corrupt cache file" \
	"error: cannot parse '$HOME/.aws/sso/cache/$(sha1 corp).json': not a JSON object"
stop_creds
start_creds "{\"sso_token\": \"$TOKEN\", \"expired\": [\"sso\"]}"
export AWS_ENDPOINT_URL_SSO=$CEP/sso
cache corp "$TOKEN" 2099-01-01T00:00:00Z
refused sso "role credentials that already expired" \
	"error: SSO for profile 'sso': the credentials expired at 2000-01-01T00:00:00Z"
