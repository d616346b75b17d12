#!/bin/sh
# t4010-scan-review: regressions from the `ebsize scan` review - impossible
# CloudWatch values, Multi-Attach, the same metrics file given twice,
# volumes that break the type rules, a missing State, encryption of a
# right-size, a PV without a zone and the VolumeAttributesClass in the
# human output.
#
# Every input below is GENERATED test data written into $T (volume ids
# vol-0e2e0000000004xxx), not AWS output.  Prices: ebs-facts.md T6,
# us-east-1: gp2 0.10, gp3 0.08 (+0.005/IOPS over 3,000, +0.04/MiB/s over
# 125), io1 0.125 + 0.065/IOPS, io2 0.125 + 0.065/IOPS (first tier).
. "$(dirname "$0")/../lib/test-lib.sh"

KEY=arn:aws:kms:us-east-1:111122223333:key/0e2e-4010
cat >"$T/vols.json" <<JSON
{"Volumes": [
 {"VolumeId": "vol-0e2e0000000004001", "VolumeType": "io2", "Size": 100,
  "Iops": 5000, "State": "in-use", "AvailabilityZone": "us-east-1a",
  "Attachments": [{"InstanceId": "i-0e2e0001"}]},
 {"VolumeId": "vol-0e2e0000000004002", "VolumeType": "io1", "Size": 500,
  "Iops": 10000, "State": "in-use", "AvailabilityZone": "us-east-1a",
  "MultiAttachEnabled": true,
  "Attachments": [{"InstanceId": "i-0e2e0001"}, {"InstanceId": "i-0e2e0002"}]},
 {"VolumeId": "vol-0e2e0000000004003", "VolumeType": "gp2", "Size": 100,
  "AvailabilityZone": "us-east-1a"},
 {"VolumeId": "vol-0e2e0000000004004", "VolumeType": "gp2", "Size": 1048576,
  "State": "in-use", "AvailabilityZone": "us-east-1a"},
 {"VolumeId": "vol-0e2e0000000004005", "VolumeType": "io1", "Size": 100,
  "Iops": 64000, "State": "in-use", "AvailabilityZone": "us-east-1a"},
 {"VolumeId": "vol-0e2e0000000004006", "VolumeType": "gp2", "Size": 1000,
  "State": "in-use", "AvailabilityZone": "us-east-1a", "Encrypted": true,
  "KmsKeyId": "$KEY", "Attachments": [{"InstanceId": "i-0e2e0001"}]}
]}
JSON
# 4001: 1e300 read ops (the io2 overflow); 4002: 600,000 read ops in 300 s
# = 2,000 IOPS
cat >"$T/metrics.json" <<'JSON'
{"MetricDataResults": [
 {"Id": "rops_300_vol_0e2e0000000004001", "StatusCode": "Complete",
  "Timestamps": ["2026-11-01T10:00:00Z"], "Values": [1e300]},
 {"Id": "rops_300_vol_0e2e0000000004002", "StatusCode": "Complete",
  "Timestamps": ["2026-11-01T10:00:00Z", "2026-11-01T10:05:00Z"],
  "Values": [600000, 300000]}
]}
JSON
printf 'volume_id,used_gib\nvol-0e2e0000000004006,83\n' >"$T/usage.csv"

run --format json scan "$T/vols.json" --metrics "$T/metrics.json" \
	--metrics "$T/metrics.json" --usage "$T/usage.csv"
expect_rc 0 "review inventory scans"
expect_err "warning: '$T/metrics.json': volume 'vol-0e2e0000000004001': VolumeReadOps: 1 of 1 values negative or beyond what any EBS volume does; skipped
warning: '$T/metrics.json': volume 'vol-0e2e0000000004001': VolumeReadOps: 1 of 1 values negative or beyond what any EBS volume does; skipped
warning: '$T/vols.json': volume 'vol-0e2e0000000004003' (line 9): missing \"State\"; treated as in use (no delete proposed)
warning: '$T/vols.json': volume 'vol-0e2e0000000004004' (gp2 1048576 GiB): gp2 volumes are 1 to 16384 GiB; 1048576 GiB is out of range; skipped
warning: '$T/vols.json': volume 'vol-0e2e0000000004005' (io1 100 GiB): io1 allows at most 50 IOPS per GiB: 64000 IOPS need at least 1280 GiB; skipped" \
	"warnings name the file, the volume and the value or rule"
expect_json summary.volumes_scanned 4 "the two illegal volumes are not scanned"
expect_json summary.skipped 2 "... but counted as skipped"

# 1: 1e300 ops over 300 s is far above io2's 256,000 IOPS (T1): refused,
# so the io2 has no metrics and no proposal (it was --iops -9223372036854775808)
expect_finding vol-0e2e0000000004001 category "(no finding)" "io2 with an impossible peak: no proposal"

# 2 + 3: the metrics file twice still peaks at 2,000 IOPS (doubled: 4,000).
# io1 500 GiB 10,000 IOPS = 62.50 + 650.00 = 712.50; Multi-Attach keeps it
# off gp3: io1 at 2,000 x 1.2 = 2,400 IOPS = 62.50 + 156.00 = 218.50,
# saves 494.00 (io2 at 2,400 costs the same in us-east-1: not cheaper)
V=vol-0e2e0000000004002
expect_finding $V proposed.type io1 "Multi-Attach io1 is never proposed as gp3"
expect_finding $V proposed.iops 2400 "duplicate points count once: 2,000 x 1.2"
expect_finding $V savings.monthly_usd 494 "Multi-Attach io1: 712.50 - 218.50" 1e-9

# 5: no State: gp2 100 GiB -> gp3 in place (10.00 - 8.00), never a delete
V=vol-0e2e0000000004003
expect_finding $V category gp2_to_gp3 "missing State is not unattached"
expect_finding $V savings.monthly_usd 2 "missing State: 10.00 - 8.00" 1e-9

# 6: gp2 1,000 GiB holding 83 GiB -> ceil(83 x 1.2) = 100 GiB gp3 at 3,000
# IOPS and 250 MiB/s, created encrypted with the same key
V=vol-0e2e0000000004006
expect_finding $V category gp2_sized_for_iops "encrypted gp2 sized for IOPS"
expect_finding $V command "aws ec2 create-volume --region us-east-1 --availability-zone us-east-1a --volume-type gp3 --size 100 --throughput 250 --encrypted --kms-key-id '$KEY' --tag-specifications 'ResourceType=volume,Tags=[{Key=ebsize-replaces,Value=$V}]'" \
	"create-volume keeps the encryption and the key"
expect_finding $V extra_cost.monthly_usd 0 "no extra cost outside burst risk"

# 6: a KmsKeyId that could break out of the command line is refused
sed 's/"KmsKeyId": "[^"]*"/"KmsKeyId": "x'"'"' ; rm -rf ~"/' "$T/vols.json" >"$T/badkey.json"
run --format json scan "$T/badkey.json"
expect_err_has "'$T/badkey.json': volume 'vol-0e2e0000000004006' (line 15): \"KmsKeyId\" is not a KMS key id, alias or ARN; skipped" \
	"an unsafe KmsKeyId skips the volume"

# 8 + 9: a PV without a zone (generated), priced in the default region
# with a warning; table output shows the class the kubectl patch names.
# gp2 100 GiB -> gp3 3,000 IOPS 125 MiB/s: 10.00 - 8.00
cat >"$T/pv.json" <<'JSON'
{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "v1", "kind": "PersistentVolume",
  "metadata": {"name": "pvc-review"},
  "spec": {"capacity": {"storage": "100Gi"}, "storageClassName": "gp2-csi",
   "claimRef": {"name": "data", "namespace": "shop"},
   "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0e2e0000000004010"}}},
 {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
  "metadata": {"name": "gp2-csi"}, "provisioner": "ebs.csi.aws.com",
  "parameters": {"type": "gp2"}}
]}
JSON
run scan "$T/pv.json"
expect_rc 0 "PV without a zone scans"
expect_err "warning: '$T/pv.json': persistent volume 'pvc-review' (vol-0e2e0000000004010): no zone; priced in region 'us-east-1' (give describe-volumes output or --region)" \
	"a PV without a zone is warned about, naming file and PV"
expect_out_has "echo '{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"VolumeAttributesClass\",\"metadata\":{\"name\":\"ebsize-gp3-3000-125\"},\"driverName\":\"ebs.csi.aws.com\",\"parameters\":{\"type\":\"gp3\",\"iops\":\"3000\",\"throughput\":\"125\"}}' | kubectl apply -f -" \
	"table output creates the VolumeAttributesClass"
expect_out_has "kubectl patch pvc data -n shop --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"ebsize-gp3-3000-125\"}}'" \
	"... and patches the claim to it"
run --format md scan "$T/pv.json"
expect_out_has "kubectl apply -f -" "md output creates the class too"

# 11: gp2 200 GiB at 2,000 IOPS (> 600 baseline): gp3 200 GiB 3,000 IOPS
# 250 MiB/s = 16.00 + 5.00 = 21.00 against 20.00: saving 0, extra 1.00
cat >"$T/burst.json" <<'JSON'
{"Volumes": [
 {"VolumeId": "vol-0e2e0000000004020", "VolumeType": "gp2", "Size": 200,
  "State": "in-use", "AvailabilityZone": "us-east-1a",
  "Attachments": [{"InstanceId": "i-0e2e0001"}]}
]}
JSON
cat >"$T/burst-metrics.json" <<'JSON'
{"MetricDataResults": [
 {"Id": "rops_300_vol_0e2e0000000004020", "StatusCode": "Complete",
  "Timestamps": ["2026-11-01T10:00:00Z"], "Values": [600000]}
]}
JSON
run --format json scan "$T/burst.json" --metrics "$T/burst-metrics.json"
V=vol-0e2e0000000004020
expect_finding $V category gp2_burst_risk "gp2 200 GiB at 2,000 IOPS is a burst risk"
expect_finding $V savings.monthly_usd 0 "burst risk: saving 0, not -1.00" 1e-9
expect_finding $V extra_cost.monthly_usd 1 "burst risk: the fix costs 1.00 more" 1e-9
expect_json summary.monthly_savings_usd 0 "totals are not lowered by the fix's cost" 1e-9
# the fleet: 200 x 0.10 = 20.00 now, 21.00 after the fix (20.00 - 0 + 1.00)
expect_json summary.current_monthly_usd 20 "the fleet costs 20.00 now" 1e-9
expect_json summary.extra_cost_monthly_usd 1 "the fix adds 1.00" 1e-9
expect_json summary.proposed_monthly_usd 21 "after the fix: 21.00 = now - savings + extra" 1e-9
expect_json totals_by_category.0.proposed_monthly_usd 21 "gp2_burst_risk: 21.00 after" 1e-9
run --format json scan "$T/burst.json" --metrics "$T/burst-metrics.json" --min-savings 0.01
expect_json summary.findings 0 "--min-savings 0.01 drops a finding that saves nothing"

echo "1..$n"
