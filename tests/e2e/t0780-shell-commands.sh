#!/bin/sh
# t0780-shell-commands: every shell command scan prints (modify-volume,
# create-volume, snapshot-then-delete, put-metric-alarm, kubectl patch /
# get / apply / annotate) holds nothing from its inputs that a shell would
# run (issue 13, security).  tests/lib/shell_inject.py replaces every
# string of every input -- volume ids, zones, KMS keys, tags, PV, PVC,
# namespace, StorageClass and VolumeAttributesClass names and parameters,
# annotation and label keys, usage CSV ids -- one at a time with `$(...)`,
# backquotes, quotes that close the quoting, newlines and `$(id)`; each
# printed command must pass `sh -n` and, run with aws and kubectl as
# logging shell functions, run nothing else.  Region options with such
# text are usage errors.
. "$(dirname "$0")/../lib/test-lib.sh"

# a GENERATED inventory reaching every command kind: an encrypted gp2
# 1,000 GiB holding 83 GiB with a KMS key (create-volume, --kms-key-id), an
# unattached volume (snapshot, then delete), a busy small gp2 (modify-volume
# and a BurstBalance alarm)
cat >"$T/vols.json" <<'JSON'
{"Generated": "generated test data (t0740)", "Volumes": [
 {"VolumeId": "vol-0e2e0000000740001", "VolumeType": "gp2", "Size": 1000, "Iops": 3000,
  "State": "in-use", "AvailabilityZone": "us-east-1a", "Encrypted": true,
  "KmsKeyId": "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
  "Attachments": [{"InstanceId": "i-0e2e0000000740001", "State": "attached"}],
  "Tags": [{"Key": "Name", "Value": "db"}, {"Key": "team", "Value": "payments"}]},
 {"VolumeId": "vol-0e2e0000000740002", "VolumeType": "gp2", "Size": 100, "Iops": 300,
  "State": "available", "AvailabilityZone": "us-east-1b", "Attachments": [],
  "Tags": [{"Key": "Name", "Value": "old"}]},
 {"VolumeId": "vol-0e2e0000000740003", "VolumeType": "gp2", "Size": 500, "Iops": 1500,
  "State": "in-use", "AvailabilityZone": "eu-west-1a", "MultiAttachEnabled": false,
  "Attachments": [{"InstanceId": "i-0e2e0000000740003", "State": "attached"}]}
]}
JSON
printf 'volume_id,used_gib\nvol-0e2e0000000740001,83\n' >"$T/usage.csv"
mkdir "$T/work"
K=$FIXTURES/k8s
/usr/bin/python3 "$ROOT/tests/lib/shell_inject.py" "$EBSIZE" "$DB" "$T/work" \
	"vols=$T/vols.json+usage=$T/usage.csv" \
	"inv-us=$FIXTURES/scan/inv-us.json" \
	"pv-sc=$FIXTURES/scan/pv.json,$FIXTURES/scan/sc.json" \
	"cluster-a=$K/a-pvs.json,$K/a-pvcs.json,$K/a-storageclasses.json,$K/a-volumeattributesclasses.json" \
	"cluster-b=$K/b-cluster.json" >"$T/inject" 2>&1
rc=$?
summary=$(tail -n 1 "$T/inject")
if [ $rc = 0 ]; then
	ok "no printed command runs what its inputs hold ($summary)"
else
	fail "no printed command runs what its inputs hold" "$(grep FAIL "$T/inject" | head -5)" "$summary"
fi
# the variants reached the commands: every kind was printed
runs=$(printf '%s' "$summary" | sed -n 's/.*runs with commands \([0-9]*\).*/\1/p')
[ "${runs:-0}" -gt 300 ] && ok "the variants produced commands ($runs runs)" ||
	fail "the variants produced commands (${runs:-0} runs)"
# shellcheck disable=SC2016
for r in 'us-east-1$(id)' 'us-east-1`id`' "us-east-1'" 'us-east-1
x'; do
	run --region "$r" scan "$T/vols.json"
	expect_rc 2 "a region with shell text is a usage error"
done
