#!/bin/sh
# t2090-pricing-creds-precedence: with every credential source configured
# at once, the one used is the first in the AWS CLI's documented order
# (its "configuration and credential file settings" precedence; botocore's
# provider chain):
#   environment > role_arn (AssumeRole) > web identity from the environment
#   > SSO > credentials-file keys > credential_process > config-file keys
#   > container > instance metadata.
# Sources are then removed one at a time; each step checks the source that
# --explain-credentials names and that a real fetch is signed with that
# source's made-up keys (the loopback server logs which pair signed).
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
mkdir -p "$HOME/.aws/sso/cache" "$T/bin"
CFG=$HOME/.aws/config
CRED=$HOME/.aws/credentials
ROLE=arn:aws:iam::111122223333:role/ebsize-reader
SSOTOKEN=ebsizeTESTssoBEARERtokenNOTREAL
CTOKEN=ebsizeTESTcontainerAUTHtokenNOTREAL
WEBTOKEN=ebsizeTESTwebIDENTITYtokenNOTREAL

start_server '{"page_size": 20}'
start_creds "{\"roles\": {\"$ROLE\": \"role\"}, \"sso_token\": \"$SSOTOKEN\", \"container_token\": \"$CTOKEN\", \"web_token\": \"$WEBTOKEN\"}"
/usr/bin/python3 -c 'import hashlib, sys; print(hashlib.sha1(b"corp").hexdigest())' >"$T/sha"
printf '{"accessToken": "%s", "expiresAt": "2099-01-01T00:00:00Z"}' "$SSOTOKEN" \
	>"$HOME/.aws/sso/cache/$(cat "$T/sha").json"
printf '%s' "$WEBTOKEN" >"$T/webtoken"
printf '#!/bin/sh\nprintf %s %s\n' "'%s'" \
	"'{\"Version\": 1, \"AccessKeyId\": \"$(key_of process 0)\", \"SecretAccessKey\": \"$(key_of process 1)\", \"SessionToken\": \"$(key_of process 2)\"}'" \
	>"$T/bin/proc"
chmod +x "$T/bin/proc"

# config PARTS: write ~/.aws/config's [default] with the named parts
# (role sso proc keys) and ~/.aws/credentials with keys when "ckeys" given
config() {
	{
		echo "[default]"
		case " $* " in *" role "*) printf 'role_arn = %s\nsource_profile = base\n' "$ROLE" ;; esac
		case " $* " in *" sso "*) printf 'sso_session = corp\nsso_account_id = 111122223333\nsso_role_name = ReadOnly\n' ;; esac
		case " $* " in *" proc "*) printf 'credential_process = %s/bin/proc\n' "$T" ;; esac
		case " $* " in *" keys "*) printf 'aws_access_key_id = %s\naws_secret_access_key = %s\n' "$(key_of source 0)" "$(key_of source 1)" ;; esac
		printf '\n[profile base]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$(key_of source 0)" "$(key_of source 1)"
		printf '\n[sso-session corp]\nsso_start_url = https://d-0123456789.awsapps.com/start\nsso_region = us-east-1\n'
	} >"$CFG"
	case " $* " in
	*" ckeys "*) printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
		"$(key_of profile 0)" "$(key_of profile 1)" >"$CRED" ;;
	*) rm -f "$CRED" ;;
	esac
}

# step KEYS SOURCE_TEXT DESC: explain names SOURCE_TEXT; a fetch signs with KEYS
step() {
	run --format json pricing fetch --explain-credentials
	expect_json source "$2" "$3: explained"
	rm -f "$T/srv.log"
	run pricing fetch --endpoint "$EP" --region us-west-2 --accept-changes
	expect_rc 0 "$3: fetch succeeds"
	[ "$(srv_count source "$1")" = "$(grep -c . "$T/srv.log")" ] &&
		ok "$3: signed with the '$1' keys" || fail "$3: signed with the '$1' keys" "$(head -1 "$T/srv.log")"
}

export AWS_ENDPOINT_URL_STS=$CEP/sts AWS_ENDPOINT_URL_SSO=$CEP/sso
export AWS_CONTAINER_CREDENTIALS_FULL_URI=$CEP/container/creds AWS_CONTAINER_AUTHORIZATION_TOKEN=$CTOKEN
export AWS_EC2_METADATA_SERVICE_ENDPOINT=$CEP
unset AWS_EC2_METADATA_DISABLED
export AWS_WEB_IDENTITY_TOKEN_FILE=$T/webtoken AWS_ROLE_ARN=$ROLE
export AWS_ACCESS_KEY_ID=$TEST_AKID AWS_SECRET_ACCESS_KEY=$TEST_SECRET
config role sso proc keys ckeys

step env "environment" "1 environment first"
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
step role "role '$ROLE' of profile 'default', assumed with static keys of profile 'base' in '$CFG'" \
	"2 then role_arn (AssumeRole)"
config sso proc keys ckeys
step webid "role '$ROLE' assumed with the web identity token in '$T/webtoken'" \
	"3 then web identity from the environment"
unset AWS_WEB_IDENTITY_TOKEN_FILE AWS_ROLE_ARN
step sso "SSO role 'ReadOnly' in account 111122223333 for profile 'default'" "4 then SSO"
config proc keys ckeys
step profile "static keys of profile 'default' in '$CRED'" "5 then the credentials file's keys"
config proc keys
step process "credential_process of profile 'default' ('$T/bin/proc')" "6 then credential_process"
config keys
step source "static keys of profile 'default' in '$CFG'" "7 then the config file's keys"
config
step container "container credentials from '$CEP/container/creds'" "8 then container credentials"
unset AWS_CONTAINER_CREDENTIALS_FULL_URI
step imds "instance metadata (IMDSv2) role 'ebsize-test-role' at '$CEP'" "9 then instance metadata"
export AWS_EC2_METADATA_DISABLED=true
run --format json pricing fetch --explain-credentials
expect_rc 1 "10 nothing left: explain exits 1"
expect_json source None "10 nothing left: no source"
expect_json tried.0.source environment "10 tried: the environment first"
expect_json tried.1.source "profile 'default'" "10 tried: then the profile"
expect_json tried.2.source container "10 tried: then the container"
expect_json tried.3.source "instance metadata" "10 tried: then instance metadata"
expect_err_has "error: no AWS credentials:" "10 nothing left: the error says so"
