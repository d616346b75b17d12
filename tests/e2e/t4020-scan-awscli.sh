#!/bin/sh
# t4020-scan-awscli: issue 10 item 6 and "done when" -- every command `scan`
# prints (modify-volume, create-volume, snapshot-then-delete,
# put-metric-alarm) runs through the real AWS CLI v2 (Debian's awscli,
# /usr/bin/aws) against a loopback endpoint that records each request
# (tests/lib/aws_recorder.py, --endpoint-url).  Each command parses and
# runs; the recorded API parameters are only what the finding must state,
# and the state AWS would end up in after its defaults (A1 ModifyVolume,
# A2 CreateVolume) equals the finding's proposal.
#
# The inventory and metrics below are GENERATED test data.
. "$(dirname "$0")/../lib/test-lib.sh"

if [ ! -x /usr/bin/aws ]; then
	skip "AWS CLI commands" "/usr/bin/aws is missing (make deps installs awscli)"
	exit 0
fi

ver=$(/usr/bin/aws --version 2>&1)
case "$ver" in
aws-cli/2.*) ok "the real AWS CLI v2: $ver" ;;
*) fail "the real AWS CLI v2" "got: $ver" ;;
esac

# ---------------------------------------------------------------- inputs
cat >"$T/inv.json" <<'J'
{"Generated": "generated test data for t4020 (not AWS output)",
 "Volumes": [
  {"VolumeId": "vol-0e2e00000000a0001", "VolumeType": "gp2", "Size": 100, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0002", "VolumeType": "gp2", "Size": 2000, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0003", "VolumeType": "gp2", "Size": 500, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0004", "VolumeType": "gp3", "Size": 100, "Iops": 3000, "Throughput": 500, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0005", "VolumeType": "gp3", "Size": 1000, "Iops": 12000, "Throughput": 500, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0006", "VolumeType": "io1", "Size": 800, "Iops": 40000, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0007", "VolumeType": "io2", "Size": 4, "Iops": 4000, "State": "in-use", "AvailabilityZone": "us-east-1a", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0008", "VolumeType": "gp2", "Size": 1000, "State": "in-use", "AvailabilityZone": "us-east-1b", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a0009", "VolumeType": "gp2", "Size": 1000, "State": "in-use", "AvailabilityZone": "us-east-1b", "Encrypted": true, "KmsKeyId": "arn:aws:kms:us-east-1:111122223333:key/0e2e-4020", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a000a", "VolumeType": "gp2", "Size": 50, "State": "available", "AvailabilityZone": "us-east-1c"},
  {"VolumeId": "vol-0e2e00000000a000b", "VolumeType": "gp2", "Size": 100, "State": "in-use", "AvailabilityZone": "us-east-1c", "Attachments": [{"InstanceId": "i-0e2e0001"}]},
  {"VolumeId": "vol-0e2e00000000a000c", "VolumeType": "gp3", "Size": 4, "Iops": 3000, "Throughput": 750, "State": "in-use", "AvailabilityZone": "us-east-1c", "Attachments": [{"InstanceId": "i-0e2e0001"}]}
 ]}
J
# peaks over 300 s periods: ops / 300 = IOPS, bytes / 300 / 2^20 = MiB/s
m() {   # m VOLUME METRIC VALUE [TIME]
	printf '{"Id": "m%s", "Label": "%s %s 300", "Timestamps": ["%s"], "Values": [%s], "StatusCode": "Complete"},\n' \
		"$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" "$1" "$2" "${4:-2026-11-01T10:00:00+00:00}" "$3"
}
{
	echo '{"Generated": "generated test data for t4020 (not AWS output)", "MetricDataResults": ['
	m vol-0e2e00000000a0004 VolumeReadOps 30000          # 100 IOPS
	m vol-0e2e00000000a0004 VolumeReadBytes 3145728000   # 10 MiB/s
	m vol-0e2e00000000a0005 VolumeReadOps 1200000        # 4,000 IOPS
	m vol-0e2e00000000a0005 VolumeReadBytes 31457280000  # 100 MiB/s
	m vol-0e2e00000000a0007 VolumeReadOps 30000          # 100 IOPS
	m vol-0e2e00000000a0007 VolumeReadBytes 1572864000   # 5 MiB/s
	m vol-0e2e00000000a000c VolumeReadOps 30000
	m vol-0e2e00000000a000c VolumeReadBytes 3145728000
	m vol-0e2e00000000a000b BurstBalance 60 2026-11-01T10:00:00+00:00
	m vol-0e2e00000000a000b BurstBalance 40 2026-11-01T11:00:00+00:00 | sed 's/},$/}/'
	echo ']}'
} >"$T/metrics.json"
printf 'volume_id,used_gib\nvol-0e2e00000000a0008,83\nvol-0e2e00000000a0009,83\n' >"$T/generated-usage.csv"

run --format json scan "$T/inv.json" --metrics "$T/metrics.json" --usage "$T/generated-usage.csv"
expect_rc 0 "scan of the generated inventory"
cp "$T/out" "$T/findings.json"
expect_json summary.findings 12 "a finding for every volume"

# ---------------------------------------------------------------- the commands as printed
# Hand-worked expectations (ebs-facts.md T2, T3, T4; A1 defaults):
#  a0001 gp2 100 -> gp3 3,000 / 125: both are ModifyVolume's defaults
#  a0002 gp2 2,000 -> gp3 6,000 / 250 (the gp2 baseline and 250 MiB/s)
#  a0003 gp2 500 -> gp3 3,000 / 250
#  a0004 gp3 3,000 / 500, peak 100 IOPS 10 MiB/s -> 125: a gp3 keeps
#        what it is not given, so the reduction must say --throughput 125
#  a0005 gp3 12,000 / 500, peak 4,000 / 100 -> 4,800 / 125 (+20 %)
#  a0006 io1 40,000, no metrics -> io2 40,000 (a type change to io2
#        would default to 3,000 IOPS: stated)
#  a0007 io2 4 GiB, peak 100 IOPS 5 MiB/s -> gp3 4 GiB 3,000 / 125
#  a0008/9 gp2 1,000 holding 83 GiB -> new gp3 100 GiB 3,000 / 250
#  a000a unattached -> snapshot, then delete
#  a000b gp2 100, BurstBalance 60 -> 40 % in an hour -> gp3 3,000 / 125
#  a000c gp3 4 GiB 3,000 / 750, peak 100 / 10 -> 125
V=vol-0e2e00000000a
expect_finding ${V}0001 command "aws ec2 modify-volume --region us-east-1 --volume-id ${V}0001 --volume-type gp3" \
	"gp2 -> gp3 at the defaults: no --iops 3000 --throughput 125"
expect_finding ${V}0003 command "aws ec2 modify-volume --region us-east-1 --volume-id ${V}0003 --volume-type gp3 --throughput 250" \
	"gp2 500 -> gp3: only the throughput above the default"
expect_finding ${V}0004 command "aws ec2 modify-volume --region us-east-1 --volume-id ${V}0004 --throughput 125" \
	"gp3 reduction states the value it lowers"
# item 5: a000b has BurstBalance only: 20 % of 5,400,000 in 3,600 s = 300
# credits/s, a load of 300 + 300 = 600 IOPS; 40 % left = 2,160,000 / 300 =
# 7,200 s to the cliff; the alarm at the same drain: 300 s x 300 / 54,000 =
# 1.7 -> 2 %, which is 108,000 / 300 = 360 s before the cliff (T2, T15)
expect_finding ${V}000b reason "no IOPS metrics: BurstBalance falling 20 % an hour, a load of about 600 IOPS against a 300 IOPS baseline; gp3 at 3000 IOPS sustains it without credits" \
	"BurstBalance only: the reason says what it saw"
expect_finding ${V}000b cliff_seconds 7200 "BurstBalance only: cliff at the balance's drain"
expect_finding ${V}000b alarm.load_iops 600 "... and the alarm at the same drain"
expect_finding ${V}000b alarm.threshold_pct 2 "... 2 %"
expect_finding ${V}000b alarm.lead_seconds 360 "... 360 s before the cliff"
expect_finding ${V}0007 command "aws ec2 modify-volume --region us-east-1 --volume-id ${V}0007 --volume-type gp3" \
	"small io2 -> gp3 at the defaults"

# ---------------------------------------------------------------- through the AWS CLI
rm -f "$T/port"
/usr/bin/python3 "$ROOT/tests/lib/aws_recorder.py" "$T/port" "$T/requests.log" "$T/state.json" "$T/inv.json" &
REC_PID=$!
trap 'kill $REC_PID 2>/dev/null; wait $REC_PID 2>/dev/null; rm -rf "$T"' EXIT
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
EP="http://127.0.0.1:$(cat "$T/port")"
# `aws` on PATH is the real CLI pointed at the recorder; made-up
# credentials (valid nowhere), no config files, no pager
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec /usr/bin/aws --endpoint-url "%s" "$@"\n' "$EP" >"$T/bin/aws"
chmod +x "$T/bin/aws"
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=ebsizeTESTsecretNOTREAL \
	AWS_CONFIG_FILE="$T/no-config" AWS_SHARED_CREDENTIALS_FILE="$T/no-credentials" \
	AWS_EC2_METADATA_DISABLED=true AWS_PAGER=""

/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    for c in (f["command"], f["alarm"]["command"]):
        if c:
            print(f["volume_id"] + "\t" + c)' "$T/findings.json" >"$T/commands.tsv"
ncmd=$(wc -l <"$T/commands.tsv")
# alarms: the in-place gp2 volumes that can burst (a0001, a0003, a000b)
expect_value "$ncmd" 15 "12 fix commands and 3 BurstBalance alarms to run"
while IFS="$(printf '\t')" read -r vol cmd; do
	if PATH="$T/bin:$PATH" sh -c "$cmd" >"$T/aws.out" 2>"$T/aws.err"; then
		ok "$vol: runs through the AWS CLI: ${cmd%% --region*} ..."
	else
		fail "$vol: runs through the AWS CLI" "$cmd" "$(head -n 3 "$T/aws.err" | tr '\n' ' ')"
	fi
done <"$T/commands.tsv"

# ---------------------------------------------------------------- what AWS received and ended with
/usr/bin/python3 "$ROOT/tests/lib/aws_scan_check.py" "$T/findings.json" "$T/requests.log" "$T/state.json"
