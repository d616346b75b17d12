#!/bin/sh
# t0100-cli: global options, help, version, exit codes.
. "$(dirname "$0")/../lib/test-lib.sh"

run_raw --version
expect_rc 0 "--version exits 0"
expect_out_has "ebsize 0.1.0" "--version prints the version"

run_raw --help
expect_rc 0 "--help exits 0"
expect_out_has "Commands:" "--help lists commands"

run_raw help
expect_rc 0 "help exits 0"
cp "$T/out" "$T/help"
for c in cost db instances pricing; do
	grep -q "^   $c " "$T/help" && ok "help lists $c" || fail "help lists $c"
	run_raw help "$c"
	expect_rc 0 "help $c exits 0"
	expect_out_has "usage: ebsize $c" "help $c prints its usage"
	run_raw "$c" -h
	expect_rc 0 "$c -h exits 0"
	expect_out_has "usage: ebsize $c" "$c -h prints its usage"
	[ ! -e "$HOME/.local/share/ebsize/ebsize.db" ] && [ ! -e "$XDG_DATA_HOME/ebsize/ebsize.db" ] &&
		ok "$c -h creates no database" || fail "$c -h creates no database"
done

run_raw -h cost
expect_out_has "usage: ebsize cost" "-h before a command shows that command's help"

run_raw
expect_rc 2 "no command is a usage error"
expect_err_has "usage: ebsize" "no command prints usage on stderr"

run_raw frobnicate
expect_rc 2 "unknown command exits 2"
expect_err "error: unknown command 'frobnicate'
hint: see 'ebsize help'" "unknown command message"

run_raw help frobnicate
expect_rc 2 "help for an unknown command exits 2"

run_raw --format yaml cost
expect_rc 2 "unknown format exits 2"
expect_err "error: unknown format 'yaml' (use table, csv, json, md or xlsx)
hint: see 'ebsize help'" "unknown format message"

run_raw --db
expect_rc 2 "--db without a value exits 2"
expect_err "error: option '--db' needs a value
hint: see 'ebsize help'" "--db without a value message"

run_raw --region 'us east' cost --type gp3 --size 1
expect_rc 2 "malformed region exits 2"
expect_err "error: 'us east' is not an AWS region code (like us-east-1)
hint: see 'ebsize help'" "malformed region message"

run_raw --bogus cost
expect_rc 2 "unknown global option exits 2"
expect_err "error: unknown option '--bogus'
hint: see 'ebsize help'" "unknown global option message"

# globals after the command work too
run cost --type gp3 --size 100 --format json --region eu-west-1
expect_rc 0 "global options after the command"
expect_json region eu-west-1 "--region after the command applies"

# AWS_REGION and AWS_DEFAULT_REGION, in that order, else us-east-1
AWS_DEFAULT_REGION=ap-northeast-1 run cost --type gp3 --size 100 --format json
expect_json region ap-northeast-1 "AWS_DEFAULT_REGION is used"
AWS_REGION=eu-central-1 AWS_DEFAULT_REGION=ap-northeast-1 run cost --type gp3 --size 100 --format json
expect_json region eu-central-1 "AWS_REGION wins over AWS_DEFAULT_REGION"
run cost --type gp3 --size 100 --format json
expect_json region us-east-1 "default region us-east-1"

# a full disk is an error: stdout is checked at exit
if [ -w /dev/full ]; then
	"$EBSIZE" --db "$DB" cost --type gp3 --size 100 >/dev/full 2>"$T/err"
	rc=$?
	: >"$T/out"
	expect_rc 1 "writing to a full disk exits 1"
	expect_err_has "error: cannot write output" "full disk message"
fi

# terminal escapes from input never reach stderr raw (issue 13 defect 2)
run cost --type "$(printf 'gp3\033]0;pwned\007')" --size 1
expect_rc 2 "escape in an option value: usage error"
expect_err "error: unknown volume type 'gp3\x1b]0;pwned\x07' (use gp2, gp3, io1, io2, st1, sc1 or standard)
hint: see 'ebsize cost -h'" "escape sequence shown escaped in the message"
run instances show "$(printf 'm5\302\2332J')"
expect_err_has "unknown instance type 'm5\u009b2J'" "UTF-8 C1 control shown escaped"
if LC_ALL=C grep -q "$(printf '\033')" "$T/err"; then
	fail "no raw ESC byte on stderr"
else
	ok "no raw ESC byte on stderr"
fi
