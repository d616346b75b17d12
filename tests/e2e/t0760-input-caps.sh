#!/bin/sh
# t0760-input-caps: every input from outside has a size cap, and going over
# it is an error that names the input and the cap (issue 13, security; the
# list is the README's "Hardening" section).  Whole files are sparse where
# only their size matters (nothing is written to disk); exit 1 each time,
# the database unchanged.  Elsewhere: a Query API page over 16 MiB
# (t2010), a billing record over 1 MiB (unit tests).
. "$(dirname "$0")/../lib/test-lib.sh"
unset AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE AWS_CONTAINER_CREDENTIALS_FULL_URI \
	AWS_CONTAINER_CREDENTIALS_RELATIVE_URI AWS_CONTAINER_AUTHORIZATION_TOKEN \
	AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE AWS_WEB_IDENTITY_TOKEN_FILE AWS_ROLE_ARN 2>/dev/null || true
export AWS_EC2_METADATA_DISABLED=true
MiB=1048576

run db check
expect_rc 0 "setup: a database"
sqlite3 "$DB" .dump >"$T/before.sql"

# sparse FILE BYTES [HEAD]: a file of BYTES bytes (HEAD first, then a hole)
sparse() {
	printf '%s' "${3:-}" >"$1"
	truncate -s "$2" "$1"
}

# capped DESC WANT ARGS...: `ebsize ARGS` exits 1 (CODE=2: a file given
# to an option, a usage error) with WANT on stderr
capped() {
	desc=$1 want=$2
	shift 2
	run "$@"
	expect_rc "${CODE:-1}" "$desc: exits ${CODE:-1}"
	expect_err_has "$want" "$desc: the error names the input and the cap"
}

# --- scan
sparse "$T/vols.json" $((2048 * MiB + 1)) '{"Volumes": ['
capped "describe-volumes over 2 GiB" "error: '$T/vols.json' is larger than the limit of 2 GiB" \
	scan "$T/vols.json"
sparse "$T/usage.csv" $((256 * MiB + 1)) 'volume_id,used_gib'
capped "usage CSV over 256 MiB" "error: '$T/usage.csv' is larger than the limit of 256 MiB" \
	scan "$FIXTURES/scan/inv-us.json" --usage "$T/usage.csv"
sparse "$T/pv.json" $((256 * MiB + 1)) '{"apiVersion": "v1", "kind": "List", "items": ['
capped "kubectl JSON over 256 MiB" "'$T/pv.json' is larger than the limit of 256 MiB" \
	scan "$T/pv.json"
sparse "$T/metrics.json" $((2048 * MiB + 1)) '{"MetricDataResults": ['
capped "get-metric-data JSON over 2 GiB" "'$T/metrics.json' is larger than the limit of 2 GiB" \
	scan "$FIXTURES/scan/inv-us.json" "$T/metrics.json"
sparse "$T/queries.json" $((2048 * MiB + 1)) '{"Volumes": ['
capped "--metric-queries input over 2 GiB" "error: '$T/queries.json' is larger than the limit of 2 GiB" \
	scan --metric-queries "$T/queries.json"
/usr/bin/python3 - "$T/onevol.json" <<'PY'
import sys
tag = "x" * (1 << 20)
open(sys.argv[1], "w").write('{"Volumes": [{"VolumeId": "vol-0e2e0000000760001", "VolumeType": "gp2", '
    '"Size": 100, "AvailabilityZone": "us-east-1a", "Tags": [{"Key": "Name", "Value": "%s"}]}]}' % tag)
PY
capped "one describe-volumes record over 1 MiB" "line 1: volume record larger than the limit of 1 MiB" \
	scan "$T/onevol.json"
/usr/bin/python3 - "$T/onemetric.json" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"MetricDataResults": [{"Id": "rops_300_vol_0e2e0000000760001", "Label": "x", '
            '"Timestamps": [], "StatusCode": "Complete", "Values": [')
    f.write("0," * (32 << 20))
    f.write('0]}]}')
PY
capped "one get-metric-data result over 64 MiB" "metric result over 64 MiB" \
	scan "$FIXTURES/scan/inv-us.json" "$T/onemetric.json"
rm -f "$T/onemetric.json" "$T/onevol.json"

# --- imports
sparse "$T/types.json" $((64 * MiB + 1)) '{"InstanceTypes": ['
capped "instances import over 64 MiB" "'$T/types.json' is larger than the limit of 64 MiB" \
	instances import "$T/types.json"
sparse "$T/fio.json" $((64 * MiB + 1)) '{'
capped "a fio JSON output over 64 MiB" "'$T/fio.json' is larger than the limit of 64 MiB" \
	bench import "$T/fio.json"
cp "$FIXTURES/fio/fio-3.1-randread-libaio-qd1.json" "$T/x.json"
sparse "$T/x_iops.1.log" $((256 * MiB + 1)) '1000, 5, 0, 4096'
capped "a fio IOPS log over 256 MiB" "'$T/x_iops.1.log' is larger than the limit of 256 MiB" \
	bench import "$T/x.json" "$T/x_iops.1.log"
rm -f "$T/x_iops.1.log"
/usr/bin/python3 - "$T/price.json" <<'PY'
import sys
# one Price List value of 8 MiB + 1 byte
open(sys.argv[1], "w").write('{"FormatVersion": "aws_v1", "PriceList": ["%s"]}' % ("x" * ((8 << 20) + 1)))
PY
capped "a Price List value over 8 MiB" "a value longer than 8 MiB" \
	pricing import "$T/price.json"
rm -f "$T/price.json"

# --- profiles
sparse "$T/b.profile" $((MiB + 1)) 'size 16m'
CODE=2 capped "a bench profile over 1 MiB" "'$T/b.profile' is larger than the limit of 1 MiB" \
	bench run --target "$T/t.fio" --profile "$T/b.profile"
sparse "$T/burst.profile" $((MiB + 1)) '0 3000'
capped "a burst profile over 1 MiB" "'$T/burst.profile' is larger than the limit of 1 MiB" \
	burst --size 100 --profile "$T/burst.profile"

# --- credentials
sparse "$T/config" $((MiB + 1)) '[default]'
AWS_CONFIG_FILE=$T/config capped "an AWS config file over 1 MiB" \
	"'$T/config' is larger than the limit of 1 MiB" pricing fetch --explain-credentials
sparse "$T/credentials" $((MiB + 1)) '[default]'
AWS_SHARED_CREDENTIALS_FILE=$T/credentials capped "an AWS credentials file over 1 MiB" \
	"'$T/credentials' is larger than the limit of 1 MiB" pricing fetch --explain-credentials
printf '#!/bin/sh\nhead -c 70000 /dev/zero | tr "\\\\0" x\n' >"$T/helper"
chmod +x "$T/helper"
printf '[default]\ncredential_process = %s\n' "$T/helper" >"$T/config2"
AWS_CONFIG_FILE=$T/config2 capped "credential_process output over 64 KiB" \
	"'$T/helper' wrote more than 64 KiB" pricing fetch --endpoint http://127.0.0.1:9 --region us-east-1
head -c 20000 /dev/zero | tr '\0' x >"$T/ctoken"
AWS_CONTAINER_CREDENTIALS_FULL_URI=http://127.0.0.1:9/creds AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=$T/ctoken \
	capped "a container authorization token file over 16 KiB" \
	"'$T/ctoken' is larger than the limit of 16 KiB" pricing fetch --endpoint http://127.0.0.1:9 --region us-east-1
head -c 70000 /dev/zero | tr '\0' x >"$T/webtoken"
AWS_WEB_IDENTITY_TOKEN_FILE=$T/webtoken AWS_ROLE_ARN=arn:aws:iam::111122223333:role/r \
	capped "a web identity token file over 64 KiB" \
	"'$T/webtoken' is larger than the limit of 64 KiB" pricing fetch --endpoint http://127.0.0.1:9 --region us-east-1

check_unchanged "after every refused input"
