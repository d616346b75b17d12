#!/bin/sh
# t2070-pricing-creds-profiles: credentials from the shared config and
# credentials files, end to end against the loopback GetProducts server
# (tests/lib/pricing_server.py, which verifies SigV4 and logs which made-up
# key pair signed) and the loopback STS (tests/lib/creds_server.py):
# static keys in either file, --profile against AWS_PROFILE and the
# environment, source_profile role chains through STS AssumeRole (depth
# limit, loops), credential_source, web identity, and the refusals.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
mkdir -p "$HOME/.aws"
CFG=$HOME/.aws/config
CRED=$HOME/.aws/credentials
R1=arn:aws:iam::111122223333:role/ebsize-reader
R2=arn:aws:iam::444455556666:role/ebsize-hop

start_server '{"page_size": 20}'
start_creds "{\"roles\": {\"$R1\": \"role\", \"$R2\": \"role2\"}, \"web_token\": \"ebsizeTESTwebIDENTITYtokenNOTREAL\"}"
export AWS_ENDPOINT_URL_STS=$CEP/sts

# fetch_as SOURCE DESC [ARGS]: a fetch succeeds and the server saw only
# requests signed with the key pair of SOURCE (pricing_server.KEYS)
fetch_as() {
	want=$1 desc=$2
	shift 2
	rm -f "$T/srv.log"
	run --format json pricing fetch --endpoint "$EP" --region us-west-2 --accept-changes "$@"
	expect_rc 0 "$desc: fetch succeeds"
	cnt=$(srv_count source "$want")
	all=$(grep -c . "$T/srv.log" 2>/dev/null || echo 0)
	[ "$cnt" -gt 0 ] && [ "$cnt" = "$all" ] && ok "$desc: every request signed with the '$want' keys" ||
		fail "$desc: every request signed with the '$want' keys" "$(head -2 "$T/srv.log")"
}

# explain_is SOURCE_TEXT DESC [ARGS]: --explain-credentials names the source
explain_is() {
	want=$1 desc=$2
	shift 2
	run --format json pricing fetch --explain-credentials "$@"
	expect_rc 0 "$desc: --explain-credentials exits 0"
	expect_json source "$want" "$desc: the source is named"
}

# static keys in the credentials file and in the config file
printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
	"$(key_of profile 0)" "$(key_of profile 1)" >"$CRED"
fetch_as profile "[default] in the credentials file"
expect_json credentials "static keys of profile 'default' in '$CRED'" "the fetch reports its credential source"
rm "$CRED"
printf '[profile dev]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
	"$(key_of profile 0)" "$(key_of profile 1)" >"$CFG"
AWS_PROFILE=dev fetch_as profile "[profile dev] in the config file via AWS_PROFILE"
fetch_as profile "[profile dev] in the config file via --profile" --profile dev
# AWS_CONFIG_FILE moves it
mv "$CFG" "$T/cfg"
AWS_CONFIG_FILE=$T/cfg AWS_PROFILE=dev explain_is "static keys of profile 'dev' in '$T/cfg'" "AWS_CONFIG_FILE"
mv "$T/cfg" "$CFG"

# environment keys win over AWS_PROFILE, but --profile skips them (botocore)
AWS_PROFILE=dev with_creds fetch_as env "environment keys beat AWS_PROFILE"
with_creds fetch_as profile "--profile skips the environment keys" --profile dev
with_creds run --format json pricing fetch --explain-credentials --profile dev
expect_json tried.0.result "skipped: --profile names a profile" "explain: the environment was skipped for --profile"

# a role chain: reader <- hop <- base (static keys); two AssumeRole calls
cat >"$CFG" <<CONF
[profile reader]
role_arn = $R1
source_profile = hop
role_session_name = ebsize-test

[profile hop]
role_arn = $R2
source_profile = base

[profile base]
aws_access_key_id = $(key_of source 0)
aws_secret_access_key = $(key_of source 1)
CONF
: >"$T/creds.log"
fetch_as role "source_profile chain reader <- hop <- base" --profile reader
/usr/bin/python3 - "$T/creds.log" "$R1" "$R2" <<'PY' && ok "STS: hop assumed with base's keys, then reader with hop's" || fail "STS: hop assumed with base's keys, then reader with hop's" "$(cat "$T/creds.log")"
import json, sys
calls = [json.loads(l) for l in open(sys.argv[1]) if '"sts"' in l]
assert [(c["role"], c["signer"], c["status"]) for c in calls] == [
    (sys.argv[3], "source", 200), (sys.argv[2], "role2", 200)], calls
assert calls[1]["session"] == "ebsize-test", calls
assert all(c["sig"] == "ok" for c in calls), calls
PY
explain_is "role '$R1' of profile 'reader', assumed with role '$R2' of profile 'hop', assumed with static keys of profile 'base' in '$CFG'" \
	"a chain is explained hop by hop" --profile reader
run --format json pricing fetch --explain-credentials --profile reader
expect_json session_token True "explain: a session token came with the role"
expect_json expires 2099-01-01T00:00:00Z "explain: the role's expiry"
expect_json access_key_id "****************0001" "explain: the key id masked but its last 4"

# a profile that is its own source_profile signs with its own keys
cat >"$CFG" <<CONF
[profile self]
role_arn = $R1
source_profile = self
aws_access_key_id = $(key_of source 0)
aws_secret_access_key = $(key_of source 1)
CONF
fetch_as role "a self-referencing source_profile uses its own keys" --profile self

# credential_source = Environment
cat >"$CFG" <<CONF
[profile envsrc]
role_arn = $R1
credential_source = Environment
CONF
AWS_ACCESS_KEY_ID=$(key_of source 0) AWS_SECRET_ACCESS_KEY=$(key_of source 1) \
	fetch_as role "credential_source Environment" --profile envsrc

# web identity, from a profile and from the environment
printf 'ebsizeTESTwebIDENTITYtokenNOTREAL\n' >"$T/webtoken"
cat >"$CFG" <<CONF
[profile web]
role_arn = $R1
web_identity_token_file = $T/webtoken
CONF
fetch_as webid "web_identity_token_file in a profile" --profile web
rm "$CFG"
AWS_WEB_IDENTITY_TOKEN_FILE=$T/webtoken AWS_ROLE_ARN=$R1 fetch_as webid "AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN"

# refusals: each a clear message, exit 1, database untouched
# refused DESC EXPECTED_STDERR ARGS...
refused() {
	desc=$1 want=$2
	shift 2
	dump_db >"$T/before.sql"
	run pricing fetch --endpoint "$EP" --region us-west-2 "$@"
	expect_rc 1 "$desc: exits 1"
	expect_err "$want" "$desc: clear error"
	expect_db_unchanged "$desc"
}
cat >"$CFG" <<CONF
[profile loop1]
role_arn = $R1
source_profile = loop2

[profile loop2]
role_arn = $R2
source_profile = loop1

[profile mfa]
role_arn = $R1
source_profile = base
mfa_serial = arn:aws:iam::111122223333:mfa/me

[profile nosource]
role_arn = $R1

[profile badsource]
role_arn = $R1
credential_source = Somewhere

[profile denied]
role_arn = arn:aws:iam::111122223333:role/not-allowed
source_profile = base

[profile base]
aws_access_key_id = $(key_of source 0)
aws_secret_access_key = $(key_of source 1)

[profile half]
aws_access_key_id = $(key_of source 0)
CONF
for i in 1 2 3 4 5 6 7 8 9; do
	printf '[profile c%s]\nrole_arn = %s\nsource_profile = c%s\n\n' $i "$R1" $((i + 1)) >>"$CFG"
done
printf '[profile c10]\naws_access_key_id = a\naws_secret_access_key = b\n' >>"$CFG"
refused "a source_profile loop" \
	"error: source_profile loop: profile 'loop2' leads back to 'loop1'" --profile loop1
refused "a chain longer than 8" \
	"error: source_profile chain from profile 'c1' is longer than 8" --profile c1
refused "mfa_serial" \
	"error: profile 'mfa' needs an MFA code (mfa_serial), which ebsize cannot ask for; get temporary credentials first (for example with 'aws sts get-session-token') and use them through the environment" \
	--profile mfa
refused "role_arn without a source" \
	"error: profile 'nosource' has role_arn but neither source_profile nor credential_source" --profile nosource
refused "an unknown credential_source" \
	"error: profile 'badsource': credential_source 'Somewhere' is not Environment, Ec2InstanceMetadata or EcsContainer" \
	--profile badsource
refused "STS refuses the role" \
	"error: role 'arn:aws:iam::111122223333:role/not-allowed' of profile 'denied': AccessDenied: User is not authorized to perform: sts:AssumeRole (ok)" \
	--profile denied
refused "half a key pair" \
	"error: no AWS credentials: profile 'half' in '$CFG' lacks aws_access_key_id or aws_secret_access_key
hint: 'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials" \
	--profile half
refused "an unknown --profile" \
	"error: no AWS credentials: profile 'nope' (from --profile) is in neither '$CFG' nor '$CRED'
hint: 'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials" \
	--profile nope
AWS_ENDPOINT_URL_STS=http://example.com/ refused "plain http to a remote STS" \
	"error: STS endpoint 'http://example.com/' must use https (plain http only to a loopback host)" --profile denied
