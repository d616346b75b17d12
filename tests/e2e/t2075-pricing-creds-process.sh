#!/bin/sh
# t2075-pricing-creds-process: credential_process, end to end: a script
# prints credentials as JSON and the loopback GetProducts server sees them
# sign; the command line is split without a shell; a failing, a slow, an
# expired and a malformed one each give a clear error naming the profile
# and the program, never the program's output, and leave the database as
# it was.  The scripts and their keys are made up for the test.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
mkdir -p "$HOME/.aws" "$T/bin dir"
CFG=$HOME/.aws/config
AKID=$(key_of process 0)
SECRET=$(key_of process 1)
TOKEN=$(key_of process 2)

# script NAME BODY: an executable sh script in "$T/bin dir"
script() {
	printf '#!/bin/sh\n%s\n' "$2" >"$T/bin dir/$1"
	chmod +x "$T/bin dir/$1"
}
json() {
	printf '{"Version": %s, "AccessKeyId": "%s", "SecretAccessKey": "%s", "SessionToken": "%s", "Expiration": "%s"}' \
		"$1" "$AKID" "$SECRET" "$TOKEN" "$2"
}
script good "[ \"\$1\" = '--arg' ] && [ \"\$2\" = 'a b' ] || exit 9
printf '%s' '$(json 1 2099-01-01T00:00:00Z)'"
script fail "echo 'credential helper: not logged in' >&2; exit 3"
script slow "exec sleep 30"
script expired "printf '%s' '$(json 1 2020-01-01T00:00:00Z)'"
script v2 "printf '%s' '$(json 2 2099-01-01T00:00:00Z)'"
script junk "printf 'not json, but %s' '$SECRET'"
script noexp "printf '%s' '{\"Version\": 1, \"AccessKeyId\": \"$AKID\", \"SecretAccessKey\": \"$SECRET\", \"SessionToken\": \"$TOKEN\"}'"

profile() {
	printf '[profile %s]\ncredential_process = %s\n\n' "$1" "$2" >>"$CFG"
}
: >"$CFG"
profile good "\"$T/bin dir/good\" --arg 'a b'"
profile fail "'$T/bin dir/fail'"
profile slow "'$T/bin dir/slow'"
profile expired "'$T/bin dir/expired'"
profile v2 "'$T/bin dir/v2'"
profile junk "'$T/bin dir/junk'"
profile noexp "'$T/bin dir/noexp'"
profile shell "/bin/echo \$(touch $T/pwned) ; touch $T/pwned2"
profile missing "'$T/bin dir/nope' x"
profile unclosed "'$T/bin dir/good"

start_server '{"page_size": 20}'
run --format json pricing fetch --endpoint "$EP" --region us-west-2 --profile good
expect_rc 0 "credential_process: fetch succeeds"
[ "$(srv_count source process)" = "$(grep -c . "$T/srv.log")" ] &&
	ok "every request signed with the process's keys and session token" ||
	fail "every request signed with the process's keys and session token" "$(head -2 "$T/srv.log")"
expect_json credentials "credential_process of profile 'good' ('$T/bin dir/good')" \
	"the source names the profile and program (quoted path with a space, argument 'a b')"
run --format json pricing fetch --explain-credentials --profile good
expect_json expires 2099-01-01T00:00:00Z "explain: Expiration honoured"
AWS_PROFILE=noexp run pricing fetch --endpoint "$EP" --region us-west-2
expect_rc 0 "no Expiration: fine"

# refused PROFILE DESC EXPECTED_STDERR [ARGS]
refused() {
	p=$1 desc=$2 want=$3
	shift 3
	dump_db >"$T/before.sql"
	run pricing fetch --endpoint "$EP" --region us-west-2 --profile "$p" "$@"
	expect_rc 1 "$desc: exits 1"
	expect_err "$want" "$desc: clear error"
	expect_db_unchanged "$desc"
}
refused fail "a failing helper" \
	"credential helper: not logged in
error: credential_process of profile 'fail': '$T/bin dir/fail' exited with status 3"
t0=$(date +%s)
refused slow "a helper slower than --timeout 2" \
	"error: credential_process of profile 'slow': '$T/bin dir/slow' did not finish within 2 s; it was stopped" \
	--timeout 2
t1=$(date +%s)
[ $((t1 - t0)) -le 6 ] && ok "the slow helper was stopped in time ($((t1 - t0)) s)" ||
	fail "the slow helper was stopped in time ($((t1 - t0)) s)"
refused expired "an expired Expiration" \
	"error: credential_process of profile 'expired': the credentials expired at 2020-01-01T00:00:00Z"
refused v2 "Version 2" \
	"error: credential_process of profile 'v2': \"Version\" must be 1"
refused junk "output that is not JSON (holding the secret)" \
	"error: credential_process of profile 'junk': the answer is not a JSON object"
refused shell "no shell: \$(...) and ; are not interpreted" \
	"error: credential_process of profile 'shell': the answer is not a JSON object"
[ ! -e "$T/pwned" ] && [ ! -e "$T/pwned2" ] && ok "no shell ran the command line" ||
	fail "no shell ran the command line"
refused missing "a program that does not exist" \
	"error: credential_process of profile 'missing': cannot run '$T/bin dir/nope': No such file or directory"
refused unclosed "an unclosed quote" \
	"error: credential_process of profile 'unclosed': cannot split the command: a quotation is not closed"
