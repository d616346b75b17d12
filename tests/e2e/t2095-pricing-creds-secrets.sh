#!/bin/sh
# t2095-pricing-creds-secrets: no secret from any credential source - secret
# keys, session tokens, the SSO bearer token, the container authorization
# token, the web identity token, the IMDSv2 session token - ever reaches
# stdout, stderr (in any format, in --explain-credentials, in any error)
# or the database (file, WAL, dump), after fetches through every source
# that succeed and fail.  All values are made up for the tests.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
mkdir -p "$HOME/.aws/sso/cache" "$T/bin"
CFG=$HOME/.aws/config
ROLE=arn:aws:iam::111122223333:role/ebsize-reader
SSOTOKEN=ebsizeTESTssoBEARERtokenNOTREAL
CTOKEN=ebsizeTESTcontainerAUTHtokenNOTREAL
WEBTOKEN=ebsizeTESTwebIDENTITYtokenNOTREAL
: >"$T/all"

start_server '{"page_size": 20}'
start_creds "{\"roles\": {\"$ROLE\": \"role\"}, \"sso_token\": \"$SSOTOKEN\", \"container_token\": \"$CTOKEN\", \"web_token\": \"$WEBTOKEN\"}"
export AWS_ENDPOINT_URL_STS=$CEP/sts AWS_ENDPOINT_URL_SSO=$CEP/sso
printf '%s' "$WEBTOKEN" >"$T/webtoken"
/usr/bin/python3 -c 'import hashlib; print(hashlib.sha1(b"corp").hexdigest())' >"$T/sha"
printf '{"accessToken": "%s", "expiresAt": "2099-01-01T00:00:00Z"}' "$SSOTOKEN" \
	>"$HOME/.aws/sso/cache/$(cat "$T/sha").json"
P='{"Version": 1, "AccessKeyId": "'$(key_of process 0)'", "SecretAccessKey": "'$(key_of process 1)'", "SessionToken": "'$(key_of process 2)'"}'
printf "#!/bin/sh\nprintf '%%s' '%s'\n" "$P" >"$T/bin/good"
printf "#!/bin/sh\nprintf 'oops %%s' '%s'\n" "$P" >"$T/bin/junk"
printf "#!/bin/sh\necho 'helper failed' >&2\nexit 2\n" >"$T/bin/fail"
chmod +x "$T/bin/"*
cat >"$CFG" <<CONF
[profile keys]
aws_access_key_id = $(key_of profile 0)
aws_secret_access_key = $(key_of profile 1)
aws_session_token = ebsizeTESTprofileSESSIONtokenNOTREAL

[profile role]
role_arn = $ROLE
source_profile = base

[profile denied]
role_arn = arn:aws:iam::111122223333:role/nope
source_profile = base

[profile base]
aws_access_key_id = $(key_of source 0)
aws_secret_access_key = $(key_of source 1)

[profile web]
role_arn = $ROLE
web_identity_token_file = $T/webtoken

[profile sso]
sso_session = corp
sso_account_id = 111122223333
sso_role_name = ReadOnly

[sso-session corp]
sso_start_url = https://d-0123456789.awsapps.com/start
sso_region = us-east-1

[profile proc]
credential_process = $T/bin/good

[profile junk]
credential_process = $T/bin/junk

[profile fail]
credential_process = $T/bin/fail
CONF

# every ARGS: run each format of the fetch and the explanation, keep all
every() {
	for f in table json csv md; do
		run --format "$f" pricing fetch --endpoint "$EP" --region us-west-2 --accept-changes "$@"
		cat "$T/out" "$T/err" >>"$T/all"
		run --format "$f" pricing fetch --explain-credentials "$@"
		cat "$T/out" "$T/err" >>"$T/all"
	done
}
with_creds every
AWS_SESSION_TOKEN=ebsizeTESTenvSESSIONtokenNOTREAL with_creds every
for p in keys role denied web sso proc junk fail; do
	every --profile "$p"
done
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN=$CTOKEN every
AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN=${CTOKEN}x every
AWS_EC2_METADATA_DISABLED= AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP every
# a wrong secret through the chain: the server rejects the signature
AWS_ACCESS_KEY_ID=$(key_of role 0) AWS_SECRET_ACCESS_KEY=$(key_of role 1) every
grep -c "signature\|expired\|AccessDenied\|refused\|exited" "$T/all" >"$T/n"
[ "$(cat "$T/n")" -gt 5 ] && ok "failures were among the collected outputs" || fail "failures were among the collected outputs"
run pricing history
cat "$T/out" "$T/err" >>"$T/all"
dump_db >"$T/dump.sql"

/usr/bin/python3 - "$ROOT/tests/lib" "$T/all" "$DB" "$DB-wal" "$T/dump.sql" <<PY >"$T/leaks"
import os, sys
sys.path.insert(0, sys.argv[1])
import pricing_server as p
import creds_server as c
secrets = {"$SSOTOKEN", "$CTOKEN", "$WEBTOKEN", c.IMDS_TOKEN,
           "ebsizeTESTprofileSESSIONtokenNOTREAL", "ebsizeTESTenvSESSIONtokenNOTREAL"}
for akid, secret, token in p.KEYS.values():
    secrets.add(secret)
    if token:
        secrets.add(token)
for f in sys.argv[2:]:
    if not os.path.exists(f):
        continue
    data = open(f, "rb").read()
    for s in sorted(secrets):
        if s.encode() in data:
            print("%s in %s" % (s, os.path.basename(f)))
print("checked %d secrets" % len(secrets))
PY
tail -1 "$T/leaks" | grep -Eq "checked (1[5-9]|[2-9][0-9]) secrets" && ok "every made-up secret was checked ($(tail -1 "$T/leaks"))" ||
	fail "every made-up secret was checked" "$(tail -1 "$T/leaks")"
if [ "$(grep -c " in " "$T/leaks")" = 0 ]; then
	ok "no secret in any output, error, explanation, the database, its WAL or its dump"
else
	fail "no secret in any output, error, explanation, the database, its WAL or its dump" "$(head -5 "$T/leaks")"
fi
grep -qF -- "$(key_of profile 0)" "$T/dump.sql" && fail "no access key id in the database" || ok "no access key id in the database"
