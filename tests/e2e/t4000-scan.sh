#!/bin/sh
# t4000-scan: `ebsize scan` end to end - the real aws-cli fixtures, hand-worked
# savings for every finding type in two regions, the gp2 downgrade trap,
# Kubernetes PV + StorageClass input, exclusions, usage and CloudWatch input.
#
# Inputs under tests/fixtures/scan are GENERATED test data (see its README).
# Prices (ebs-facts.md T6, embedded snapshot): us-east-1 gp2 0.10, gp3 0.08
# + 0.005/IOPS over 3,000 + 0.04/MiB/s over 125, io1 0.125 + 0.065/IOPS,
# io2 0.125 + 0.065 / 0.0455 / 0.03185 per IOPS tier; eu-west-1 gp2 0.11,
# gp3 0.088 + 0.0055 + 0.044, io1/io2 0.138 + 0.072 (io2 tier 2 0.0504).
. "$(dirname "$0")/../lib/test-lib.sh"

F="$FIXTURES/scan"

# ---------------------------------------------------------------- help, usage
run scan -h
expect_rc 0 "scan -h exits 0"
expect_out_has "usage: ebsize scan FILE..." "scan -h prints usage"

usage_error "no input is a usage error" \
	"missing inventory FILE (aws ec2 describe-volumes or kubectl get pv -o json output, or a billing export)" scan
usage_error "bad --headroom" \
	"--headroom must be a number from 0 to 1000, not 'lots'" scan x.json --headroom lots
usage_error "bad --exclude-tag" \
	"--exclude-tag needs KEY or KEY=VALUE, not '=true'" scan x.json --exclude-tag =true
usage_error "--metric-queries with inventory files" \
	"--metric-queries takes no other input files" scan --metric-queries a.json b.json
usage_error "unknown option" "unknown option '--frob'" scan --frob x.json
usage_error "--period not a multiple of 60" \
	"--period must be a multiple of 60 seconds, not '90'" scan --metric-queries a.json --period 90

# ---------------------------------------------------------------- real fixtures
# aws-cli docs example (2019): gp2 8 GiB in-use, gp2 100 GiB available.
run --format json scan "$FIXTURES/describe-volumes-awscli-example-2019.json"
expect_rc 0 "real describe-volumes fixture scans"
expect_err_empty "real fixture: no warnings"
expect_json summary.volumes_scanned 2 "real fixture: 2 volumes"
# 8 x 0.10 = 0.80 -> gp3 8 x 0.08 = 0.64: saves 0.16
expect_finding vol-049df61146c4d7901 category gp2_to_gp3 "real: 8 GiB gp2 -> gp3"
expect_finding vol-049df61146c4d7901 savings.monthly_usd 0.16 "real: saves 0.16/month" 1e-9
# 100 x 0.10 = 10.00, unattached ("State": "available"; gp2 "Iops" ignored)
expect_finding vol-1234567890abcdef0 category unattached "real: available volume is unattached"
expect_finding vol-1234567890abcdef0 savings.monthly_usd 10 "real: unattached costs 10/month" 1e-9
expect_finding vol-1234567890abcdef0 savings.annual_usd 120 "real: 120/year" 1e-9
# the fleet: 0.80 + 10.00 = 10.80 now; saves 0.16 + 10.00 = 10.16; after the
# proposals 0.64 (the gp3); 10.16 / 10.80 = 94.07 %
expect_json summary.current_monthly_usd 10.8 "real: the fleet costs 10.80 a month" 1e-9
expect_json summary.proposed_monthly_usd 0.64 "real: 0.64 after the proposals" 1e-9
expect_json summary.savings_pct 94.07 "real: saves 94.07 % of it" 1e-9
expect_json summary.extra_cost_monthly_usd 0 "real: no fix costs more" 1e-9
expect_json summary.volumes_without_finding 0 "real: both volumes have a finding"
expect_json totals_by_currency.0.current_monthly_usd 10.8 "real: USD total: 10.80 now" 1e-9
expect_json totals_by_currency.0.proposed_monthly_usd 0.64 "real: USD total: 0.64 after" 1e-9
expect_json totals_by_currency.0.volumes_scanned 2 "real: USD total: 2 volumes scanned"
expect_json totals_by_currency.0.savings_pct 94.07 "real: USD total: saves 94.07 %" 1e-9
expect_json totals_by_category.0.proposed_monthly_usd 0 "real: unattached: nothing after the delete" 1e-9
expect_json totals_by_category.1.proposed_monthly_usd 0.64 "real: gp2_to_gp3: 0.64 after" 1e-9
run scan "$FIXTURES/describe-volumes-awscli-example-2019.json"
expect_out_has "  Fleet cost/month (USD):  \$10.80" "real, table: the fleet's cost now"
expect_out_has "  Proposed/month (USD):    \$0.64" "real, table: and after the proposals"
expect_out_has "  Savings (% of cost):     94.1 %" "real, table: the savings as a share of it"

run scan "$FIXTURES/describe-volumes-awscli-example-2020-INVALID-json.txt"
expect_rc 1 "invalid describe-volumes fixture fails"
expect_err "error: cannot parse '$FIXTURES/describe-volumes-awscli-example-2020-INVALID-json.txt': line 16: unterminated string or value" \
	"invalid fixture: message names the file and the line of the broken KmsKeyId"
expect_out_empty "invalid fixture: no report"

run scan "$FIXTURES/cloudwatch-get-metric-data-billing-awscli-example.json"
expect_rc 1 "metrics alone are not an inventory"
expect_err "warning: '$FIXTURES/cloudwatch-get-metric-data-billing-awscli-example.json': metric result 'm1' does not name an EBS volume and metric (see 'ebsize scan --metric-queries'); skipped
error: no volumes in the inputs: give aws ec2 describe-volumes or kubectl get pv -o json output, or a billing export with resource ids" \
	"billing metric result is skipped by name, then no volumes"

printf 'not json\n' >"$T/junk.txt"
run scan "$T/junk.txt"
expect_rc 1 "unrecognised input fails"
expect_err "error: '$T/junk.txt' is not describe-volumes, kubectl or CloudWatch get-metric-data JSON, nor a FOCUS or CUR billing export" \
	"unrecognised input message"

run scan "$T/missing.json"
expect_rc 1 "missing file fails"
expect_err_has "'$T/missing.json'" "missing file is named"

# real kubectl fixtures (YAML in tests/fixtures; kubectl -o json is the same object)
for y in kubectl-get-pv-list-ebs-csi-2019 k8s-storageclass-ebs-io1-iopspergb-aws-ebs-csi-driver-example \
	kubectl-get-pvc-list-ebs-csi-2019; do
	/usr/bin/python3 -c 'import sys, yaml, json; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' \
		"$FIXTURES/$y.yaml" >"$T/$y.json"
done
run --format json scan "$T/kubectl-get-pv-list-ebs-csi-2019.json" \
	"$T/k8s-storageclass-ebs-io1-iopspergb-aws-ebs-csi-driver-example.json" \
	"$T/kubectl-get-pvc-list-ebs-csi-2019.json"
expect_rc 0 "real PV + StorageClass + PVC fixtures parse"
# the PV's zone us-east-2c (nodeAffinity) puts it in us-east-2, which has
# prices now; its class makes it io1, and 3 GiB is below io1's 4 GiB
# minimum (ebs-facts.md T1): not a real io1 volume, so skipped, not priced
expect_json summary.skipped 1 "real PV: zone us-east-2c read from nodeAffinity; priced region, rules checked"
expect_err "warning: '$T/kubectl-get-pv-list-ebs-csi-2019.json': volume 'vol-03498a2445f718b3b' (io1 3 GiB): io1 volumes are 4 to 16384 GiB; 3 GiB is out of range; skipped" \
	"real PV: io1 of 3 GiB is below the io1 minimum, skipped with a warning"
run --format json --region us-east-1 scan "$T/kubectl-get-pv-list-ebs-csi-2019.json" \
	"$T/k8s-storageclass-ebs-io1-iopspergb-aws-ebs-csi-driver-example.json"
expect_json summary.other_regions 1 "--region us-east-1 leaves the us-east-2 PV out"

# ---------------------------------------------------------------- the full set
ALL="$F/inv-us.json $F/inv-eu.json $F/pv.json $F/sc.json"
# shellcheck disable=SC2086
run --format json scan $ALL --metrics "$F/metrics.json" --usage "$F/generated-usage.csv" \
	--exclude-tag gp3-exemption=true --by-tag team
expect_rc 0 "full generated inventory scans"
expect_json summary.volumes_scanned 19 "17 describe-volumes + 2 PV-only volumes scanned"
expect_json summary.findings 16 "16 findings (gp2 200 GiB and st1 have none)"
expect_json summary.excluded 1 "one volume excluded by tag"
# 330.16 (us-east-1) + 2176.5485 (eu-west-1), each worked below
expect_json summary.monthly_savings_usd 2506.7085 "total monthly savings" 1e-6
expect_json summary.annual_savings_usd 30080.502 "total annual savings" 1e-6
expect_json summary.volumes_without_finding 2 "19 scanned - 16 findings - 1 excluded = 2 without"

# The downgrade trap: gp2 2,000 GiB has a 6,000 IOPS baseline and 250 MiB/s.
# gp3 must keep both: 2000 x 0.08 + 3000 x 0.005 + 125 x 0.04 = 180.00
# against 2000 x 0.10 = 200.00: saves 20.00 (the naive 3,000 IOPS / 125 MiB/s
# change would claim 40.00 and halve the volume's IOPS).
V=vol-0e2e0000000000001
expect_finding $V category gp2_to_gp3 "trap: gp2 2000 GiB -> gp3 in place"
expect_finding $V proposed.iops 6000 "trap: keeps 6,000 IOPS"
expect_finding $V proposed.throughput_mibps 250 "trap: keeps 250 MiB/s"
expect_finding $V proposed.monthly_usd 180 "trap: gp3 costs 180.00" 1e-9
expect_finding $V savings.monthly_usd 20 "trap: true saving 20.00" 1e-9
expect_finding $V command "aws ec2 modify-volume --region us-east-1 --volume-id $V --volume-type gp3 --iops 6000 --throughput 250" \
	"trap: one batched modify-volume"
expect_finding $V k8s.pvc big "trap: PV pvc-c adds the claim shop/big"
expect_finding $V alarm.threshold_pct null "trap: no BurstBalance alarm at >= 1,000 GiB (no burst)"

# gp2 sized for IOPS: 1,000 GiB holding 83 GiB -> ceil(83 x 1.2) = 100 GiB
# gp3 at 3,000 IOPS, 250 MiB/s: 8.00 + 5.00 = 13.00 vs 100.00: saves 87.00
V=vol-0e2e0000000000002
expect_finding $V category gp2_sized_for_iops "gp2 1000 GiB with 83 GiB used is sized for IOPS"
expect_finding $V proposed.size_gib 100 "right-size to 100 GiB"
expect_finding $V proposed.iops 3000 "right-size keeps 3,000 IOPS"
expect_finding $V proposed.new_volume True "right-size needs a new volume"
expect_finding $V savings.monthly_usd 87 "right-size saves 87.00" 1e-9
expect_finding $V risk medium "right-size risk medium (data copy)"
# CreateVolume gives gp3 3,000 IOPS by default (A1/A2): not stated
expect_finding $V command "aws ec2 create-volume --region us-east-1 --availability-zone us-east-1a --volume-type gp3 --size 100 --throughput 250 --tag-specifications 'ResourceType=volume,Tags=[{Key=ebsize-replaces,Value=$V}]'" \
	"right-size command creates the new volume"

# gp2 100 GiB, no metrics: 10.00 -> 8.00.  Alarm: worst case 3,000 IOPS drains
# 2,700/s; 5 min = 810,000 credits = 15 % of 5,400,000.
V=vol-0e2e0000000000003
expect_finding $V savings.monthly_usd 2 "gp2 100 GiB saves 2.00" 1e-9
expect_finding $V alarm.threshold_pct 15 "alarm at 15 % of a 100 GiB bucket"
expect_finding $V alarm.lead_seconds 300 "15 % lasts 300 s at 3,000 IOPS"
expect_finding $V alarm.command "aws cloudwatch put-metric-alarm --region us-east-1 --alarm-name ebsize-burstbalance-$V --alarm-description 'gp2 $V: about 5 min of burst left at 3000 IOPS' --namespace AWS/EBS --metric-name BurstBalance --dimensions Name=VolumeId,Value=$V --statistic Minimum --period 60 --evaluation-periods 1 --threshold 15 --comparison-operator LessThanOrEqualToThreshold" \
	"alarm command"

# burst risk: peak (400,000 + 200,000) / 300 s = 2,000 IOPS on a 300 IOPS
# baseline; BurstBalance 60 % -> 40 %: credits 2,160,000 / 1,700 = 1,270.6 s
# (the balance slope, 20 % per hour, would give 7,200 s: the shorter wins).
# Alarm at 2,000 IOPS: 300 x 1,700 / 54,000 = 9.44 -> 10 %, i.e. 317.6 s.
V=vol-0e2e0000000000004
expect_finding $V category gp2_burst_risk "gp2 with observed peak over baseline is at burst risk"
expect_finding $V cliff_seconds 1270 "cliff in 1,270 s"
expect_finding $V proposed.iops 3000 "gp3 3,000 IOPS removes the cliff"
expect_finding $V savings.monthly_usd 2 "burst fix also saves 2.00" 1e-9
expect_finding $V alarm.threshold_pct 10 "alarm threshold from the observed load"
expect_finding $V alarm.lead_seconds 317 "alarm leaves 317 s"

# gp2 200 GiB: gp3 keeping 250 MiB/s costs 16 + 5 = 21.00 > 20.00: no finding
expect_finding vol-0e2e0000000000005 category "(no finding)" "no saving, no finding (never a negative saving)"

# gp3 1000 GiB 12,000 IOPS 500 MiB/s, peak 4,000 IOPS and 100 MiB/s:
# need 4,800 / 120 -> 4,800 IOPS, 125 MiB/s: 80 + 9 = 89 vs 80 + 45 + 15 = 140
V=vol-0e2e0000000000006
expect_finding $V category overprovisioned "gp3 far above its peak"
expect_finding $V proposed.iops 4800 "gp3 lowered to peak + 20 %"
expect_finding $V proposed.throughput_mibps 125 "gp3 throughput back to included 125"
expect_finding $V savings.monthly_usd 51 "gp3 saves 51.00" 1e-9

# io1 800 GiB 40,000 IOPS, no metrics: io2 tiers 100 + 2080 + 8000 x 0.0455
# = 2,544.00 vs 100 + 2,600 = 2,700.00: saves 156.00
V=vol-0e2e0000000000007
expect_finding $V proposed.type io2 "io1 -> io2"
expect_finding $V savings.monthly_usd 156 "io1 -> io2 saves 156.00" 1e-9
expect_finding $V confidence high "io1 -> io2 at equal IOPS: high confidence"

# unattached gp2 50 GiB: 5.00
V=vol-0e2e0000000000008
expect_finding $V category unattached "available gp2 is unattached"
expect_finding $V savings.monthly_usd 5 "unattached saves 5.00" 1e-9

# exempted by tag: listed, never changed
V=vol-0e2e0000000000009
expect_finding $V category excluded "gp3-exemption=true is excluded"
expect_finding $V command null "excluded: no command"
expect_finding $V savings.monthly_usd 0 "excluded: no saving"
expect_finding $V reason "exempted by tag gp3-exemption=true" "excluded: names the rule"

# tag values are data: exactly kept in JSON
V=vol-0e2e000000000000a
expect_finding $V name '=HYPERLINK("http://x","y")' "tag Name kept verbatim in JSON"

# eu-west-1 ------------------------------------------------------------------
# io1 500 GiB 10,000 IOPS: 69 + 720 = 789.00; peak 2,000 IOPS, 50 MiB/s ->
# need 2,400 / 60: gp3 500 GiB 3,000 / 125 = 44.00: saves 745.00
V=vol-0e2e000000000000b
expect_finding $V proposed.type gp3 "io1 at 2,000 IOPS peak -> gp3"
expect_finding $V savings.monthly_usd 745 "io1 -> gp3 saves 745.00" 1e-9
expect_finding $V risk medium "io -> gp3 risk medium (latency, durability)"
# gp2 1,667 GiB: 183.37 vs 146.696 + 2,001 x 0.0055 + 5.50 = 163.2015
V=vol-0e2e000000000000c
expect_finding $V proposed.iops 5001 "gp2 1667 GiB keeps 5,001 IOPS"
expect_finding $V savings.monthly_usd 20.1685 "gp2 1667 GiB saves 20.1685" 1e-9
expect_finding $V reason "gp3 at 5001 IOPS and 250 MiB/s is nowhere slower; the size looks chosen for 5000 IOPS: give --usage to price a smaller gp3" \
	"1,667 GiB looks sized for 5,000 IOPS"
# unattached gp3 200 GiB: 200 x 0.088 = 17.60
expect_finding vol-0e2e000000000000d savings.monthly_usd 17.6 "eu unattached gp3 saves 17.60" 1e-9
# gp2 500 GiB: 55.00 vs 44.00 + 5.50: saves 5.50; alarm 300 x 1,500 / 54,000 = 8.3 -> 9 %
expect_finding vol-0e2e000000000000e savings.monthly_usd 5.5 "eu gp2 500 GiB saves 5.50" 1e-9
expect_finding vol-0e2e000000000000e alarm.threshold_pct 9 "eu gp2 500 GiB alarm at 9 %"
expect_finding vol-0e2e000000000000f category "(no finding)" "st1: no finding"
# gp2 4,000 GiB: 440.00 vs 352 + 9,000 x 0.0055 + 5.50 = 407.00: saves 33.00
expect_finding vol-0e2e0000000000010 proposed.iops 12000 "gp2 4000 GiB keeps 12,000 IOPS"
expect_finding vol-0e2e0000000000010 savings.monthly_usd 33 "gp2 4000 GiB saves 33.00" 1e-9
# io2 400 GiB 20,000 IOPS: 55.2 + 1,440 = 1,495.20; peak 12,000 IOPS, 900 MiB/s
# -> need 14,400 / 1,080: gp3 35.2 + 11,400 x 0.0055 + 955 x 0.044 = 139.92
V=vol-0e2e0000000000011
expect_finding $V proposed.iops 14400 "io2 -> gp3 at 14,400 IOPS"
expect_finding $V proposed.throughput_mibps 1080 "io2 -> gp3 carries the 1,080 MiB/s need"
expect_finding $V savings.monthly_usd 1355.28 "io2 -> gp3 saves 1,355.28" 1e-9

# Kubernetes PV-only volumes ---------------------------------------------------
# CSI PV 500Gi, StorageClass gp2-csi (parameter key TYPE: case-insensitive)
V=vol-0e2e0000000000012
expect_finding $V k8s.namespace shop "PV finding names the namespace"
expect_finding $V k8s.pvc db-data "PV finding names the PVC"
expect_finding $V region us-east-1 "PV region from nodeAffinity zone"
expect_finding $V savings.monthly_usd 5 "PV gp2 500 GiB saves 5.00" 1e-9
expect_finding $V k8s.patch_command "kubectl patch pvc db-data -n shop --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"ebsize-gp3-3000-250\"}}'" \
	"kubectl patch line"
json_get findings >"$T/findings.json" <"$T/out"
if /usr/bin/python3 -c '
import json, re, sys, yaml
f = [x for x in json.load(open(sys.argv[1])) if x["volume_id"] == "vol-0e2e0000000000012"][0]
m = yaml.safe_load(f["k8s"]["volume_attributes_class"])
assert m["apiVersion"] == "storage.k8s.io/v1", m
assert m["kind"] == "VolumeAttributesClass", m
assert m["driverName"] == "ebs.csi.aws.com", m
assert m["parameters"] == {"type": "gp3", "iops": "3000", "throughput": "250"}, m
assert re.fullmatch(r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?", m["metadata"]["name"]), m
assert m["metadata"]["name"] in f["k8s"]["patch_command"]
' "$T/findings.json"; then
	ok "VolumeAttributesClass manifest is valid YAML with string parameters"
else
	fail "VolumeAttributesClass manifest is valid YAML with string parameters"
fi
# in-tree PV (aws://us-east-1c/vol-...), in-tree StorageClass default gp2
expect_finding vol-0e2e0000000000013 k8s.pvc cache "in-tree PV finding names its PVC"
expect_finding vol-0e2e0000000000013 availability_zone us-east-1c "in-tree zone from aws:// volume id"
expect_finding vol-0e2e0000000000013 savings.monthly_usd 2 "in-tree gp2 100 GiB saves 2.00" 1e-9

# totals ---------------------------------------------------------------------
json_get totals_by_region.0.region <"$T/out" >"$T/r0"
json_get totals_by_region.0.monthly_savings_usd <"$T/out" >"$T/s0"
[ "$(cat "$T/r0")" = eu-west-1 ] && ok "regions sorted by savings" || fail "regions sorted by savings"
expect_json totals_by_region.0.monthly_savings_usd 2176.5485 "eu-west-1 total" 1e-6
expect_json totals_by_region.1.monthly_savings_usd 330.16 "us-east-1 total" 1e-6
expect_json totals_by_category.0.category overprovisioned "top category"
expect_json totals_by_category.0.monthly_savings_usd 2307.28 "overprovisioned total" 1e-6
expect_json findings.0.volume_id vol-0e2e0000000000011 "findings sorted by savings"
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["tag_value"]: x["monthly_savings_usd"] for x in d["totals_by_tag"]}
assert abs(t["payments"] - 107.0) < 1e-9, t
assert abs(t["search"] - 22.1685) < 1e-9, t
' "$T/out" && ok "totals by tag team" || fail "totals by tag team"

# warnings name the file and the volume
expect_err_has "warning: '$F/inv-us.json': volume 'vol-0e2e0000000000003' uses 150 GiB by '$F/generated-usage.csv', more than its 100 GiB; usage ignored" \
	"usage larger than size: warned and ignored"
expect_err_has "warning: '$F/generated-usage.csv': usage for volume 'vol-0e2e00000000000fe', which is not in the inventory; ignored" \
	"usage for an unknown volume"
expect_err_has "warning: '$F/metrics.json': metrics for volume 'vol-0e2e00000000000ff', which is not in the inventory; ignored" \
	"metrics for an unknown volume"
expect_err_has "warning: '$F/metrics.json': metric result 'm1' does not name an EBS volume and metric" \
	"foreign metric result"

# CSV: tag values cannot become formulas
# shellcheck disable=SC2086
run --format csv scan $ALL --by-tag team
expect_rc 0 "csv output"
expect_out_has '"'"'"'=HYPERLINK(""http://x"",""y"")"' "csv: formula-looking tag defused and quoted"
grep -q '^volume_id,name,tag,k8s.namespace' "$T/out" && ok "csv findings header" || fail "csv findings header"

# table: a newline in a tag value stays one cell
# shellcheck disable=SC2086
run scan $ALL --by-tag team
expect_out_has 'a"b,c?d' "table: control characters in tag values shown as ?"
expect_out_has "Findings (by monthly savings)" "table title"

# filters ----------------------------------------------------------------------
# shellcheck disable=SC2086
run --format json --region eu-west-1 scan $ALL
expect_json summary.volumes_scanned 7 "--region keeps only eu-west-1"
expect_json summary.other_regions 12 "--region counts the others"
# shellcheck disable=SC2086
run --format json scan $ALL --min-savings 100
# without metrics and usage only io1 -> io2 (156.00) saves 100 or more
expect_json summary.findings 1 "--min-savings 100 keeps 1 finding"
run --format md scan "$F/inv-us.json" --limit 2
expect_out_has "| vol-0e2e0000000000007 |" "md output"
expect_out_has "more findings not shown (--limit 0 shows all" "--limit note"

# bad records: unknown type, missing Size, duplicate ids ------------------------
cat >"$T/bad.json" <<'EOF'
{"Generated": "generated test data", "Volumes": [
 {"VolumeId": "vol-0e2e00000000000a1", "VolumeType": "gp9", "Size": 10, "AvailabilityZone": "us-east-1a", "State": "in-use"},
 {"VolumeId": "vol-0e2e00000000000a2", "VolumeType": "gp2", "AvailabilityZone": "us-east-1a", "State": "in-use"},
 {"VolumeId": "vol-0e2e00000000000a3", "VolumeType": "gp2", "Size": "10", "AvailabilityZone": "us-east-1a", "State": "in-use"},
 {"VolumeType": "gp2", "Size": 10, "AvailabilityZone": "us-east-1a"},
 {"VolumeId": "vol-0e2e0000000000001", "VolumeType": "gp2", "Size": 2000, "AvailabilityZone": "us-east-1a", "State": "in-use"}
]}
EOF
run --format json scan "$F/inv-us.json" "$T/bad.json"
expect_rc 0 "bad records do not stop the scan"
expect_err_has "warning: '$T/bad.json': volume 'vol-0e2e00000000000a1' (line 2): unknown volume type 'gp9'; skipped" "unknown type named"
expect_err_has "warning: '$T/bad.json': volume 'vol-0e2e00000000000a2' (line 3): missing \"Size\"; skipped" "missing Size named"
expect_err_has "warning: '$T/bad.json': volume 'vol-0e2e00000000000a3' (line 4): \"Size\" is not a whole number of GiB; skipped" "string Size named"
expect_err_has "warning: '$T/bad.json': volume #4 (line 5): missing \"VolumeId\"; skipped" "missing VolumeId: position named"
expect_err_has "warning: '$T/bad.json': duplicate volume 'vol-0e2e0000000000001' (line 6), already read from '$F/inv-us.json'; counted once" \
	"duplicate id named with both files"
expect_json summary.skipped 5 "5 records skipped"
expect_finding vol-0e2e0000000000001 savings.monthly_usd 20 "duplicate counted once (first wins)" 1e-9

# --metric-queries: round trip -------------------------------------------------
run scan --metric-queries "$F/inv-us.json" --period 60
expect_rc 0 "--metric-queries writes queries"
if /usr/bin/python3 -c '
import json, re, sys
q = json.load(open(sys.argv[1]))
# 9 in-use volumes x 7 metrics
assert len(q) == 63, len(q)
for x in q:
    assert re.fullmatch(r"[a-z][a-zA-Z0-9_]*", x["Id"]), x["Id"]
    assert x["MetricStat"]["Metric"]["Namespace"] == "AWS/EBS"
    assert x["MetricStat"]["Period"] == 60
    d = x["MetricStat"]["Metric"]["Dimensions"][0]
    assert d["Name"] == "VolumeId" and x["Label"].startswith(d["Value"] + " ")
ids = [x["Id"] for x in q]
assert "rops_60_vol_0e2e0000000000004" in ids and "burst_60_vol_0e2e0000000000004" in ids
stat = {x["Id"].split("_")[0]: x["MetricStat"]["Stat"] for x in q}
assert stat == {"rops": "Sum", "wops": "Sum", "rbytes": "Sum", "wbytes": "Sum",
                "burst": "Minimum", "iopsx": "Maximum", "tputx": "Maximum"}, stat
assert not any("0e2e0000000000008" in i for i in ids)  # unattached: no metrics
# answer as GetMetricData would: 2,400 IOPS on the gp2 100 GiB volume 4
res = [{"Id": "rops_60_vol_0e2e0000000000004", "Label": "x", "StatusCode": "Complete",
        "Timestamps": ["2026-11-01T10:00:00Z"], "Values": [144000]}]
json.dump({"MetricDataResults": res, "Messages": []}, open(sys.argv[2], "w"))
' "$T/out" "$T/answer.json"; then
	ok "queries: ids match ^[a-z][a-zA-Z0-9_]*\$, 7 per in-use volume, stats, labels"
else
	fail "queries: ids match ^[a-z][a-zA-Z0-9_]*\$, 7 per in-use volume, stats, labels"
fi
run --format json scan "$F/inv-us.json" --metrics "$T/answer.json"
# 144,000 / 60 s = 2,400 IOPS: drain 2,100/s from a full bucket: 2,571 s
expect_finding vol-0e2e0000000000004 category gp2_burst_risk "round trip: metrics read back by query id"
expect_finding vol-0e2e0000000000004 cliff_seconds 2571 "round trip: cliff from a full bucket"

run scan --metric-queries "$FIXTURES/describe-volumes-awscli-example-2020-INVALID-json.txt"
expect_rc 1 "--metric-queries on invalid JSON fails"
expect_out_empty "--metric-queries writes nothing on failure"

# stdin ("-") is read once and scanned --------------------------------------------
"$EBSIZE" --db "$DB" --format json scan - <"$FIXTURES/describe-volumes-awscli-example-2019.json" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "describe-volumes from stdin"
expect_json summary.volumes_scanned 2 "stdin: both volumes scanned"

# --metrics with something that is not get-metric-data output
run scan "$F/inv-us.json" --metrics "$F/generated-usage.csv"
expect_rc 1 "--metrics with a CSV fails"
expect_err "error: cannot parse '$F/generated-usage.csv': line 1: expected a JSON object" "--metrics CSV message"
