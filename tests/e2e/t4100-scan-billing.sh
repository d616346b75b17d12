#!/bin/sh
# t4100-scan-billing: `ebsize scan` over billing exports end to end - the
# real (anonymized) FOCUS 1.0 sample and the GENERATED legacy CUR and
# CUR 2.0 files of tests/fixtures/billing (see its README and gen-cur.py):
# per-volume size, type, findings and savings, totals per currency,
# account, region and tag, gzip, stdin, bad rows named with file and line,
# an export without resource ids, broken files (database unchanged), the
# join with a describe-volumes file (GENERATED here), used space, the
# --region filter, exclusions, and the output formats.
#
# Prices: ebs-facts.md T6 (the embedded snapshot holds the same values)
#   us-east-1, us-west-2: gp2 0.10, gp3 0.08 + 0.005/IOPS over 3,000 +
#     0.04/MiB/s over 125, io1 0.125 + 0.065/IOPS, io2 tiers 0.065 /
#     0.0455 / 0.03185, st1 0.045, standard 0.05 + 0.05 per 1M I/O
#   eu-west-1: gp2 0.11, gp3 0.088 + 0.0055 + 0.044, io1 0.138 + 0.072
#   eu-central-1: gp2 0.119, gp3 0.0952, st1 0.054
#   ap-northeast-1: gp2 0.12, gp3 0.096 + 0.006 + 0.048
#   ap-northeast-2: gp2 0.114, gp3 0.0912
#   ap-southeast-1: io2 0.138 + 0.072 / 0.0504 per IOPS tier
# and, for regions T6 does not list, pricing/snapshot.csv (the embedded
# snapshot's source rows, AWS Price List extract of 2022-02-10):
#   us-east-2: gp2 0.10, gp3 0.08; ap-south-1: gp2 0.114, gp3 0.0912;
#   cn-northwest-1 (CNY): gp3 0.5312.
# gp3 limits in force (T3): 80,000 IOPS, 2,000 MiB/s, 500 IOPS per GiB.
. "$(dirname "$0")/../lib/test-lib.sh"

B="$FIXTURES/billing"
FOCUS="$B/focus-1.0-aws-ebs-rows-sample.csv"
CUR="$B/cur-legacy-generated.csv"
CUR2="$B/cur2-generated.csv.gz"
CN="$B/cur2-cn-generated.csv"

# jq-free access to the JSON on stdout: bill_get EXPR (a Python expression
# over d, the document)
bill_get() {
	/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def tot(by, value, cur="USD"):
    r = [x for x in d["billing_totals"] if x["by"] == by and x["value"] == value and x["currency"] == cur]
    return r[0] if r else {}
def fid(i):
    r = [x for x in d["findings"] if x["volume_id"] == i]
    return r[0] if r else {}
v = eval(sys.argv[2])
print("null" if v is None else v)' "$T/out" "$1" 2>&1
}
expect_bill() { expect_value "$(bill_get "$1")" "$2" "$3" "${4:-0}" "$1"; }

# ---------------------------------------------------------------- legacy CUR
# Hourly rows of 2024-09-01 (24 h; September has 720 h, so an hour is
# 1/720 of a month and a GB-Mo quantity x 720 is the size).  Findings
# (cur -> proposed a month, saving; then x months billed):
#  V1 gp2 100 GiB us-east-1: 10.00 -> gp3 8.00, saves 2.00; x 24/720 = 0.066667
#  V2 gp2 2000 GiB us-west-2 (USW2 prefix): gp3 at 6,000 IOPS (3 x 2000)
#     and 250 MiB/s: 160 + 3000 x 0.005 + 125 x 0.04 = 180 (gp2 200): 20;
#     2000 = 1000 x 6 / 3: sized for 6,000 IOPS -> gp2_sized_for_iops; 0.666667
#  V3 io1 500 GiB 10,000 IOPS eu-west-1 from 12:00: 500 x 0.138 + 10000 x
#     0.072 = 789; gp3 at 10,000 IOPS and min(2000, 10000 x 256/1024 =
#     2500) ... io1 allows 500 MiB/s at 500 GiB: 44 + 7000 x 0.0055 + 375 x
#     0.044 = 99: saves 690; 12 h of 24: partial, 690 x 12/720 = 11.5
#  V4 io1 1000 GiB 50,000 IOPS: 125 + 3250 = 3375; gp3 50,000 IOPS and
#     50000 x 16/1024 = 781.25 -> 782 MiB/s: 80 + 47000 x 0.005 + 657 x
#     0.04 = 341.28: saves 3033.72; x 24/720 = 101.124
#  V8 gp2 1334 GiB: 133.40 -> gp3 4,002 IOPS 250 MiB/s: 106.72 + 5.01 +
#     5 = 116.73: 16.67; 1334 x 3 = 4002 -> sized for 4,000; 0.555667
#  V5 gp3, V6 st1, V7 standard, V9 (gp2 then gp3): nothing to propose
# Monthly 2 + 20 + 690 + 3033.72 + 16.67 = 3762.39; over the period
# 0.066667 + 0.666667 + 11.5 + 101.124 + 0.555667 = 113.913001.
run --format json scan "$CUR"
expect_rc 0 "legacy CUR scans"
expect_bill 'd["summary"]["volumes_scanned"]' 9 "legacy CUR: 9 volumes priced"
expect_bill 'd["summary"]["findings"]' 5 "legacy CUR: 5 findings"
expect_bill 'd["summary"]["monthly_savings_usd"]' 3762.39 "legacy CUR: 3,762.39 a month" 1e-6
expect_bill 'fid("vol-0aaa0000000000001")["category"]' gp2_to_gp3 "V1 gp2 -> gp3"
expect_bill 'fid("vol-0aaa0000000000001")["current"]["size_gib"]' 100 "V1 100 GiB (0.1388889 GB-Mo x 720)"
expect_bill 'fid("vol-0aaa0000000000001")["savings"]["monthly_usd"]' 2 "V1 saves 2.00" 1e-6
expect_bill 'fid("vol-0aaa0000000000001")["billing"]["savings_period"]' 0.066667 "V1 saves 0.066667 over 24 h" 1e-6
expect_bill 'fid("vol-0aaa0000000000001")["name"]' db-1 "V1 Name from resourceTags/user:Name"
expect_bill 'fid("vol-0aaa0000000000001")["command"]' \
	"aws ec2 modify-volume --region us-east-1 --volume-id vol-0aaa0000000000001 --volume-type gp3" \
	"V1 command: modify-volume in place"
expect_bill 'fid("vol-0aaa0000000000002")["category"]' gp2_sized_for_iops "V2 sized for IOPS"
expect_bill 'fid("vol-0aaa0000000000002")["region"]' us-west-2 "V2 region from the USW2 prefix"
expect_bill 'fid("vol-0aaa0000000000002")["proposed"]["iops"]' 6000 "V2 gp3 keeps 6,000 IOPS"
expect_bill 'fid("vol-0aaa0000000000002")["proposed"]["throughput_mibps"]' 250 "V2 gp3 at 250 MiB/s"
expect_bill 'fid("vol-0aaa0000000000002")["proposed"]["new_volume"]' False "V2 in place (check used space)"
expect_bill '"check used space" in fid("vol-0aaa0000000000002")["reason"]' True "V2 reason: check used space"
expect_bill 'fid("vol-0aaa0000000000002")["savings"]["monthly_usd"]' 20 "V2 saves 20.00" 1e-6
expect_bill 'fid("vol-0aaa0000000000003")["category"]' io1_to_gp3 "V3 io1 -> gp3"
expect_bill 'fid("vol-0aaa0000000000003")["current"]["monthly_usd"]' 789 "V3 io1 costs 789" 1e-6
expect_bill 'fid("vol-0aaa0000000000003")["proposed"]["monthly_usd"]' 99 "V3 gp3 costs 99" 1e-6
expect_bill 'fid("vol-0aaa0000000000003")["billing"]["partial"]' True "V3 created at 12:00: partial"
expect_bill 'fid("vol-0aaa0000000000003")["billing"]["hours"]' 12 "V3 billed 12 h"
expect_bill 'fid("vol-0aaa0000000000003")["billing"]["savings_period"]' 11.5 "V3 prorated: 690 x 12/720" 1e-6
expect_bill '"prorated" in fid("vol-0aaa0000000000003")["reason"]' True "V3 reason says prorated"
expect_bill 'fid("vol-0aaa0000000000004")["proposed"]["throughput_mibps"]' 782 "V4 gp3 at 782 MiB/s"
expect_bill 'fid("vol-0aaa0000000000004")["savings"]["monthly_usd"]' 3033.72 "V4 saves 3,033.72" 1e-6
expect_bill 'fid("vol-0aaa0000000000004")["risk"]' medium "io1 -> gp3 is medium risk"
expect_bill 'fid("vol-0aaa0000000000008")["proposed"]["iops"]' 4002 "V8 gp3 at 4,002 IOPS"
expect_bill 'fid("vol-0aaa0000000000008")["savings"]["monthly_usd"]' 16.67 "V8 saves 16.67" 1e-6
expect_bill 'fid("vol-0aaa0000000000005")' '{}' "V5 gp3: no finding"
# billed: V1 0.333333 + V2 6.666667 + V3 (1.15 + 12) + V4 (4.166667 +
# 108.333333) + V5 0.866667 + V6 0.9 + V7 (0.083333 + 24e6 x 5e-8 = 1.2) +
# V8 1334 x 0.1 x 23.5/720 = 4.354028 + V9 (0.166667 + 0.133333)
# = 140.354028 (CUR: list = public on-demand cost = the same)
expect_bill 'tot("currency", "USD")["billed"]' 140.354028 "CUR billed in all: 140.354028" 1e-6
expect_bill 'tot("currency", "USD")["list"]' 140.354028 "CUR list in all" 1e-6
expect_bill 'tot("currency", "USD")["savings_period"]' 113.913001 "CUR saving over the period: 113.913001" 1e-6
expect_bill 'tot("currency", "USD")["savings_monthly"]' 3762.39 "CUR saving a month" 1e-6
expect_bill 'tot("account", "444455556666")["volumes"]' 9 "totals by account: 9 volumes"
# us-west-2: V2 alone: billed 6.666667, saves 20 a month
expect_bill 'tot("region", "us-west-2")["billed"]' 6.666667 "totals by region: us-west-2 billed" 1e-6
expect_bill 'tot("region", "us-west-2")["savings_monthly"]' 20 "totals by region: us-west-2 saves" 1e-6
# us-east-1: V1, V4, V5, V7, V8, V9; findings V1, V4, V8
expect_bill 'tot("region", "us-east-1")["findings"]' 3 "totals by region: 3 findings in us-east-1"
expect_bill 'tot("region", "us-east-1")["savings_monthly"]' 3052.39 "us-east-1: 2 + 3033.72 + 16.67" 1e-6
# 331 data rows: 324 volume rows, a snapshot (ARN), an instance and a
# credit, four bad rows (lines 329-332: a unit "Hrs", a negative quantity,
# no resource id, an hour 25)
expect_bill 'd["billing"]["rows"]' 331 "CUR: 331 rows"
expect_bill 'd["billing"]["volume_rows"]' 324 "CUR: 324 volume rows"
expect_bill 'd["billing"]["snapshot_rows"]' 1 "CUR: a snapshot row skipped"
expect_bill 'd["billing"]["bad_rows"]' 4 "CUR: 4 bad rows"
expect_bill 'd["billing_files"][0]["bad"]["unit"]' 1 "CUR: bad unit counted"
expect_bill 'd["billing_files"][0]["format"]' cur "CUR: format cur"
expect_bill 'd["billing"]["period_hours"]' 24 "CUR: a 24 h period"
expect_err_has "warning: '$CUR': 4 bad row(s) skipped (no resource id 1, unit 1, negative quantity 1, date 1)" \
	"bad rows counted by kind"
expect_err_has "warning: '$CUR': line 329: unknown unit \"Hrs\" on an EBS storage row; skipped" \
	"bad unit named with file and line"
expect_err_has "warning: '$CUR': line 330: negative quantity -0.5000000000; skipped" \
	"negative quantity named with file and line"
expect_err_has "warning: '$CUR': line 331: EBS storage row without a resource id; skipped" \
	"row without id named"
expect_err_has "warning: '$CUR': line 332: usage period" "bad date named"

# --by-tag team: data V1 + V3, web V2, untagged the rest
run --format json scan "$CUR" --by-tag team
expect_bill 'tot("tag", "data")["volumes"]' 2 "by tag: team=data has 2 volumes"
expect_bill 'tot("tag", "data")["savings_period"]' 11.566667 "by tag: data saves 0.066667 + 11.5" 1e-6
expect_bill 'tot("tag", "(untagged)")["volumes"]' 6 "by tag: 6 untagged"
expect_bill 'fid("vol-0aaa0000000000002")["tag"]' web "finding carries its tag value"

# --region eu-west-1: V3 alone, the 8 others outside
run --format json --region eu-west-1 scan "$CUR"
expect_bill 'd["summary"]["other_regions"]' 8 "--region: 8 billed volumes outside"
expect_bill 'len(d["findings"])' 1 "--region: one finding"
expect_bill 'd["billing_totals"][0]["volumes"]' 1 "--region: totals count V3 only"

# --min-savings 10 drops V1 (2.00); --exclude-tag Name=db-1 keeps it listed, excluded
run --format json scan "$CUR" --min-savings 10
expect_bill 'fid("vol-0aaa0000000000001")' '{}' "--min-savings drops V1"
expect_bill 'd["billing"]["below_min_savings"]' 1 "--min-savings: counted"
run --format json scan "$CUR" --exclude-tag Name=db-1
expect_bill 'fid("vol-0aaa0000000000001")["category"]' excluded "--exclude-tag: V1 excluded"
expect_bill 'fid("vol-0aaa0000000000001")["command"]' null "--exclude-tag: no command"

# ---------------------------------------------------------------- CUR 2.0
# Daily rows of February 2025 (672 h: a day is 24/672 of a month).
#  W1 gp2 1000 GiB ap-northeast-1: 120 -> gp3 96 + 125 x 0.048 = 102 (250
#     MiB/s above 170 GiB): 18; 1000 x 3 = 3,000 IOPS: sized for IOPS.
#     Net unblended cost 90 % of list: billed 108, list 120; saving at the
#     billed ratio 18 x 0.9 = 16.2
#  W2 gp2 50 GiB ap-northeast-2 from 15 February (336 h): 5.70 -> 4.56:
#     1.14 a month, 0.57 over the period (partial)
#  W3 io2 200 GiB 32,000 + 8,000 IOPS ap-southeast-1: 27.6 + 2304 + 403.2
#     = 2734.8, W4 gp3 100 GiB eu-west-1 at the free baseline: 8.8 (none)
#  China (cur2-cn, CNY): gp3 100 GiB cn-northwest-1: 100 x 0.5312 = 53.12
#  CNY billed and priced in CNY, never added to USD
run --format json scan "$CUR2" "$CN"
expect_rc 0 "CUR 2.0 (gzip) and the China file scan"
expect_bill 'd["summary"]["volumes_scanned"]' 5 "CUR 2.0: 5 volumes priced (one in CNY)"
expect_bill 'fid("vol-0bbb0000000000001")["category"]' gp2_sized_for_iops "W1 sized for IOPS"
expect_bill 'fid("vol-0bbb0000000000001")["billing"]["billed"]' 108 "W1 billed 108 (net)" 1e-6
expect_bill 'fid("vol-0bbb0000000000001")["billing"]["list"]' 120 "W1 list 120" 1e-6
expect_bill 'fid("vol-0bbb0000000000001")["billing"]["billed_to_list"]' 0.9 "W1 billed 90 % of list" 1e-9
expect_bill 'fid("vol-0bbb0000000000001")["billing"]["savings_period_billed"]' 16.2 "W1 saves 16.20 as billed" 1e-6
expect_bill 'fid("vol-0bbb0000000000001")["account"]' 444455556666 "W1 usage account"
expect_bill 'fid("vol-0bbb0000000000001")["billing"]["payer_account"]' 111122223333 "W1 payer account"
expect_bill 'fid("vol-0bbb0000000000002")["savings"]["monthly_usd"]' 1.14 "W2 saves 1.14 a month" 1e-6
expect_bill 'fid("vol-0bbb0000000000002")["billing"]["savings_period"]' 0.57 "W2 half the month: 0.57" 1e-6
expect_bill 'fid("vol-0bbb0000000000002")["billing"]["partial"]' True "W2 partial"
expect_bill 'tot("currency", "USD")["billed"]' 2854.45 "USD billed 108 + 2.85 + 2734.8 + 8.8" 1e-6
expect_bill 'tot("currency", "USD")["savings_period"]' 18.57 "USD saves 18 + 0.57" 1e-6
expect_bill 'tot("currency", "USD")["savings_period_billed"]' 16.77 "USD saves 16.2 + 0.57 as billed" 1e-6
expect_bill 'tot("currency", "CNY", "CNY")["billed"]' 53.12 "CNY billed apart: 53.12" 1e-6
expect_bill 'tot("region", "cn-northwest-1", "CNY")["volumes"]' 1 "China region totalled in CNY"
expect_bill 'len([x for x in d["billing_totals"] if x["by"] == "currency"])' 2 "two currencies, never added"

# the same rows from standard input (plain CSV through a pipe)
cat "$CUR" | "$EBSIZE" --db "$DB" --format json scan - >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "a legacy CUR on stdin scans"
expect_bill 'd["summary"]["monthly_savings_usd"]' 3762.39 "stdin: the same savings" 1e-6
"$EBSIZE" --db "$DB" scan - <"$CUR2" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 1 "gzip on stdin is refused"
expect_err "error: '-': gzip data from standard input or a pipe: give the billing export's file name (plain CSV can come from a pipe)" \
	"gzip on stdin: says to give the file"

# ---------------------------------------------------------------- FOCUS 1.0 (real)
# 50 rows of September 2024 (720 h), one hour each; period 2024-09-01
# 00:00 to 09-30 21:00 = 717 h, so every volume is partial.  7 snapshot
# rows (ARN ids) are skipped; 42 volumes: 11 have only gp3 IOPS or
# throughput rows at the free baseline (no storage row: size unknown);
# 31 are priced: 14 gp2 (all -> gp3 at 3,000 IOPS, 125 MiB/s), the rest
# gp3 and Magnetic.  gp2 savings a month, size x (gp2 - gp3):
#   us-east-1  16 GiB (0.0222222 GB-Mo x 720) 0.32, 20 GiB 0.40
#   us-west-2  3 x 8 GiB x 0.02 = 0.48;  us-east-2 10 GiB 0.20
#   ap-northeast-1  8 x 0.024 + 2 x 1 x 0.024 = 0.24
#   eu-central-1    8 x 0.0238 = 0.1904
#   ap-south-1      8 x 0.0228 + 3 x 1 x 0.0228 = 0.2508
# = 2.0812 a month; over the period each is one hour of 720: 2.0812/720.
run --format json scan "$FOCUS"
expect_rc 0 "FOCUS sample scans"
expect_bill 'd["billing_files"][0]["format"]' focus "FOCUS: told by its header"
expect_bill 'd["billing"]["volumes"]' 42 "FOCUS: 42 volumes"
expect_bill 'd["billing"]["snapshot_rows"]' 7 "FOCUS: 7 snapshot rows skipped"
expect_bill 'd["billing"]["no_size"]' 11 "FOCUS: 11 without storage rows"
expect_bill 'd["summary"]["skipped"]' 11 "FOCUS: they are skipped"
expect_bill 'd["summary"]["volumes_scanned"]' 31 "FOCUS: 31 priced"
expect_bill 'd["summary"]["findings"]' 14 "FOCUS: 14 gp2 findings"
expect_bill 'd["summary"]["monthly_savings_usd"]' 2.0812 "FOCUS: 2.0812 a month" 1e-6
expect_bill 'd["billing"]["period_hours"]' 717 "FOCUS: a 717 h period"
expect_bill 'd["billing"]["partial"]' 42 "FOCUS: every volume billed one hour: partial"
expect_bill 'fid("vom-0780516a4lll4aa06")["current"]["size_gib"]' 16 "FOCUS gp2 16 GiB"
expect_bill 'fid("vom-0780516a4lll4aa06")["current"]["monthly_usd"]' 1.6 "FOCUS gp2 16 GiB: 1.60" 1e-9
expect_bill 'fid("vom-0780516a4lll4aa06")["proposed"]["monthly_usd"]' 1.28 "FOCUS gp3 16 GiB: 1.28" 1e-9
expect_bill 'fid("vom-0780516a4lll4aa06")["billing"]["savings_period"]' 0.000444 "FOCUS: 0.32/720" 1e-9
expect_bill 'fid("vom-0780516a4lll4aa06")["billing"]["billed"]' 0.002222 "FOCUS: BilledCost 0.0022222222" 1e-9
expect_bill 'fid("vom-0780516a4lll4aa06")["account"]' 90054491575 "FOCUS: SubAccountId as text"
# anonymized ids (vom-...) are not volume ids: no command to paste
expect_bill 'fid("vom-0780516a4lll4aa06")["command"]' null "FOCUS: no command for an anonymized id"
expect_bill 'fid("vom-0fl292albl96ll73e")["savings"]["monthly_usd"]' 0.2 "FOCUS us-east-2 10 GiB: 0.20" 1e-9
expect_bill 'fid("vom-04a3559a9bff1f212")["proposed"]["monthly_usd"]' 0.7296 "FOCUS ap-south-1 8 GiB gp3: 8 x 0.0912" 1e-9
expect_bill 'fid("vom-0l6a7202ebl27e846")' '{}' "FOCUS gp3 143 GiB: no finding"
expect_bill 'tot("currency", "USD")["savings_monthly"]' 2.0812 "FOCUS totals: 2.0812 a month" 1e-6
expect_bill 'tot("currency", "USD")["savings_period"]' 0.002891 "FOCUS totals: 2.0812/720 over the period" 2e-6
expect_bill 'tot("region", "ap-south-1")["savings_monthly"]' 0.2508 "FOCUS ap-south-1: 0.2508" 1e-6
# SubAccountId 18938484842 on the volume rows of lines 2, 3, 9, 20, 22, 23,
# 30, 31, 37, 38, 39, 42, 43, 44, 46, 48 (line 10 is a snapshot): 16
expect_bill 'tot("account", "18938484842")["volumes"]' 16 "FOCUS: account 18938484842 has 16 volumes"
# billed: the sum of BilledCost over the 43 volume rows (not the snapshots)
want=$(/usr/bin/python3 -c '
import csv, sys
print(round(sum(float(r["BilledCost"]) for r in csv.DictReader(open(sys.argv[1]))
                if not r["ResourceId"].startswith("arn:")), 6))' "$FOCUS")
expect_bill 'tot("currency", "USD")["billed"]' "$want" "FOCUS billed = sum of BilledCost of volume rows ($want)" 2e-6
expect_err_has "11 billed volume(s) have IOPS or throughput rows but no storage rows, so no size, such as 'vom-00b996f399eeb1489'" \
	"FOCUS: one warning for the volumes without size"

# ---------------------------------------------------------------- several files
run --format json scan "$CUR" "$CUR2" "$FOCUS"
expect_rc 0 "three formats at once"
expect_bill 'd["billing"]["files"]' 3 "three files read"
expect_bill 'd["billing"]["volumes"]' 55 "9 + 4 + 42 volumes"
expect_bill 'd["summary"]["findings"]' 21 "5 + 2 + 14 findings"

# ---------------------------------------------------------------- with describe-volumes
# GENERATED describe-volumes of the legacy CUR's volumes but V4 (deleted
# since, or never described): V4 is reported not_in_inventory, the others
# keep the inventory's finding with their billed cost as current.
/usr/bin/python3 - "$T/dv.json" <<'EOF'
import json, sys
vols = []
def v(i, t, size, az, iops=None, tp=None, tags=None):
    d = {"AvailabilityZone": az, "Attachments": [], "Encrypted": False,
         "Size": size, "State": "in-use", "VolumeId": "vol-0aaa000000000000%d" % i,
         "VolumeType": t}
    if iops: d["Iops"] = iops
    if tp: d["Throughput"] = tp
    if tags: d["Tags"] = tags
    vols.append(d)
v(1, "gp2", 100, "us-east-1a", 300, tags=[{"Key": "Name", "Value": "db-1"}])
v(2, "gp2", 2000, "us-west-2b", 6000)
v(3, "io1", 500, "eu-west-1a", 10000)
v(5, "gp3", 200, "us-east-1a", 4000, 250)
v(6, "st1", 500, "eu-central-1a")
v(7, "standard", 50, "us-east-1a")
v(8, "gp2", 1334, "us-east-1a", 4002)
v(9, "gp3", 100, "us-east-1a", 3000, 125)
json.dump({"Generated": "generated test data (t4100), not AWS output", "Volumes": vols},
          open(sys.argv[1], "w"), indent=1)
EOF
run --format json scan "$CUR" "$T/dv.json"
expect_rc 0 "billing + describe-volumes"
# V4: billed until the end of 2024-09-01, absent: its cost, no saving
expect_bill 'fid("vol-0aaa0000000000004")["category"]' not_in_inventory "V4 billed, not described"
expect_bill 'fid("vol-0aaa0000000000004")["savings"]["monthly_usd"]' 0 "not_in_inventory saves nothing"
expect_bill 'fid("vol-0aaa0000000000004")["command"]' null "not_in_inventory: no command"
expect_bill '"billed until 2024-09-02" in fid("vol-0aaa0000000000004")["reason"]' True "not_in_inventory reason names the last day billed"
expect_bill 'fid("vol-0aaa0000000000004")["billing"]["in_inventory"]' False "V4 in_inventory false"
# V1 from describe-volumes: gp2 -> gp3 as ever (saves 2.00), current =
# billed 0.333333 over 24/720 of a month = 10.00
expect_bill 'fid("vol-0aaa0000000000001")["billing"]["finding_from"]' inventory "V1: the inventory's finding"
expect_bill 'fid("vol-0aaa0000000000001")["current"]["monthly_usd"]' 10 "V1 current = billed per month" 1e-6
expect_bill 'fid("vol-0aaa0000000000001")["savings"]["monthly_usd"]' 2 "V1 saving unchanged" 1e-6
# V8 billed 4.354028 over 24 h (its first hour half): 4.354028 x 30 =
# 130.620833 a month as billed (list price 133.40)
expect_bill 'fid("vol-0aaa0000000000008")["current"]["monthly_usd"]' 130.620833 "V8 current as billed: 4.354028 x 30" 1e-6
expect_bill 'fid("vol-0aaa0000000000008")["savings"]["monthly_usd"]' 16.67 "V8 saving at the prices in force" 1e-6
expect_bill '"current cost as billed" in fid("vol-0aaa0000000000008")["reason"]' True "reason says the current cost is billed"
expect_bill 'd["billing"]["in_inventory"]' 8 "8 billed volumes described"
expect_bill 'd["billing"]["not_in_inventory"]' 1 "1 billed volume not described"
expect_bill 'd["summary"]["volumes_scanned"]' 9 "8 described + V4"
# the totals follow the billed current costs: gp2_to_gp3 is V1 10 + V2
# 6.666667 x 30 = 200 + V8 130.620833 (list: 10 + 200 + 133.40 = 343.40)
expect_bill '[t["current_monthly_usd"] for t in d["totals_by_category"] if t["category"] == "gp2_to_gp3"][0]' 340.620833 "gp2_to_gp3 total current as billed: 10 + 200 + 130.620833" 1e-6
expect_bill '[t["current_monthly_usd"] for t in d["totals_by_category"] if t["category"] == "not_in_inventory"][0]' 3375 "not_in_inventory total: V4 at 3,375" 1e-6

# ---------------------------------------------------------------- with used space
# V2 (gp2 2000 GiB) known from the bill alone, 100 GiB used: the scan
# rules, as for a described volume: a new gp3 of 100 x 1.2 = 120 GiB at
# 6,000 IOPS (floor: 6000/500 = 12 GiB) and 250 MiB/s: 120 x 0.08 + 3000 x
# 0.005 + 125 x 0.04 = 29.60; current as billed 200: saves 200 - 29.60
printf 'volume_id,used_gib\nvol-0aaa0000000000002,100\n' >"$T/usage.csv"
run --format json scan "$CUR" --usage "$T/usage.csv"
expect_bill 'fid("vol-0aaa0000000000002")["billing"]["finding_from"]' metrics "V2 with used space: the scan rules"
expect_bill 'fid("vol-0aaa0000000000002")["proposed"]["size_gib"]' 120 "V2 right-sized to 120 GiB"
expect_bill 'fid("vol-0aaa0000000000002")["savings"]["monthly_usd"]' 170.4 "V2 saves 170.40" 1e-6
expect_bill 'fid("vol-0aaa0000000000002")["command"]' null "no zone in a bill: no create-volume command"

# ---------------------------------------------------------------- output formats
run scan "$CUR"
expect_rc 0 "table format"
expect_out_has "Billing totals (over the period)" "table: billing totals"
expect_out_has "Account" "table: findings gain the account"
expect_out_has "444455556666" "table: the account shown"
run --format md scan "$CUR"
expect_out_has "| Account |" "md: findings gain the account"
run --format csv scan "$CUR"
head -1 "$T/out" | grep -q ',account,billing.payer_account,billing.finding_from,billing.file,billing.hours,billing.months,billing.partial,billing.in_inventory,billing.billed,billing.list,billing.billed_to_list,billing.billed_monthly,billing.savings_period,billing.savings_period_billed' &&
	ok "csv: findings gain the billing columns" || fail "csv: findings gain the billing columns"
run --format csv --table billing_totals scan "$CUR"
head -1 "$T/out" | grep -q '^by,value,currency,volumes,findings,unpriced,billed,list,savings_monthly,savings_period,savings_period_billed' &&
	ok "csv --table billing_totals" || fail "csv --table billing_totals"
run -o "$T/b.xlsx" --format xlsx scan "$CUR"
expect_rc 0 "xlsx workbook"
/usr/bin/python3 -c '
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
names = " ".join(wb.sheetnames)
sys.exit(0 if "billing_totals" in names and "billing_files" in names else 1)' "$T/b.xlsx" &&
	ok "xlsx: billing sheets" || fail "xlsx: billing sheets" "$(/usr/bin/python3 -c 'import openpyxl,sys; print(openpyxl.load_workbook(sys.argv[1]).sheetnames)' "$T/b.xlsx")"
# without billing files the findings keep their columns
run --format csv scan "$FIXTURES/describe-volumes-awscli-example-2019.json"
head -1 "$T/out" | grep -q 'billing' && fail "no billing columns without a bill" || ok "no billing columns without a bill"

# ---------------------------------------------------------------- bad exports
sqlite3 "$DB" .dump >"$T/before.sql"
# an export without the resource id column: says how to get them
printf '%s\n' 'line_item_usage_type,line_item_usage_amount,pricing_unit,line_item_usage_start_date,line_item_usage_end_date,line_item_unblended_cost,line_item_currency_code,line_item_product_code,line_item_line_item_type' \
	'EBS:VolumeUsage.gp2,0.1,GB-Mo,2025-02-01T00:00:00Z,2025-02-01T01:00:00Z,0.01,USD,AmazonEC2,Usage' >"$T/noid.csv"
run scan "$T/noid.csv"
expect_rc 1 "an export without resource ids has no volumes"
expect_err_has "warning: '$T/noid.csv': the export has no resource id column: its 1 EBS volume row(s) cannot be told apart per volume" \
	"no resource ids: said"
expect_err_has 'hint: create the CUR 2.0 export with "Include resource IDs"' "no resource ids: how to enable them"
expect_err_has "error: no volumes in the inputs" "no resource ids: then no volumes"
# with another export, the rest is scanned
run --format json scan "$T/noid.csv" "$CUR"
expect_rc 0 "an export without ids next to a good one"
expect_bill 'd["billing"]["volumes"]' 9 "the good export's volumes"
# a quote left open: the file and line named, nothing written
printf '%s\n' 'line_item_usage_type,line_item_resource_id,line_item_usage_amount,pricing_unit,line_item_usage_start_date,line_item_usage_end_date,line_item_unblended_cost,line_item_currency_code,line_item_product_code,line_item_line_item_type,product_region_code' \
	'EBS:VolumeUsage.gp2,"vol-1,1,GB-Mo' >"$T/quote.csv"
run scan "$CUR" "$T/quote.csv"
expect_rc 1 "an unterminated quote fails"
expect_err_has "error: cannot read '$T/quote.csv': line 2: quote not closed" "unterminated quote: file and line"
expect_out_empty "unterminated quote: no report"
# a truncated gzip
head -c 900 "$CUR2" >"$T/cut.csv.gz"
run scan "$T/cut.csv.gz"
expect_rc 1 "a truncated gzip fails"
expect_err "error: cannot read '$T/cut.csv.gz': unexpected end of file" "truncated gzip: named"
# a required column missing
printf 'line_item_usage_type,line_item_resource_id\nEBS:VolumeUsage.gp2,vol-1\n' >"$T/cols.csv"
run scan "$T/cols.csv"
expect_rc 1 "a required column missing fails"
expect_err_has "'$T/cols.csv': line 1: cur2 export without a \"" "missing column named"
check_unchanged "bad exports"
# a currency mix in one file: the CNY row counted at its line
run --format json scan "$B/cur2-currency-mix-generated.csv"
expect_rc 0 "a file mixing currencies scans"
expect_bill 'd["billing_files"][0]["bad"]["currency"]' 1 "currency mix: one row counted"
expect_err_has "line 3: currency \"CNY\" in a file billed in USD; skipped" "currency mix: named with its line"

# ---------------------------------------------------------------- unpriced
# GENERATED CUR 2.0 rows: gp2 in ap-east-2 (no prices in the embedded
# snapshot: `ebsize pricing regions`), io2 in eu-west-3 (prices, but none
# for io2: the 2022 extract predates it there), and a file billed in EUR
# for us-east-1 (prices in USD): counted, warned about, never priced
H='line_item_usage_type,line_item_resource_id,line_item_usage_amount,pricing_unit,line_item_usage_start_date,line_item_usage_end_date,line_item_unblended_cost,line_item_currency_code,line_item_product_code,line_item_line_item_type,product_region_code'
printf '%s\n' "$H" \
	'APE2-EBS:VolumeUsage.gp2,vol-0ddd0000000000001,0.1388888889,GB-Mo,2025-02-01T00:00:00Z,2025-02-01T01:00:00Z,0.0139,USD,AmazonEC2,Usage,ap-east-2' \
	'EUW3-EBS:VolumeUsage.io2,vol-0ddd0000000000002,0.1388888889,GB-Mo,2025-02-01T00:00:00Z,2025-02-01T01:00:00Z,0.0139,USD,AmazonEC2,Usage,eu-west-3' \
	>"$T/unpriced.csv"
printf '%s\n' "$H" \
	'EBS:VolumeUsage.gp2,vol-0ddd0000000000003,0.1388888889,GB-Mo,2025-02-01T00:00:00Z,2025-02-01T01:00:00Z,0.0139,EUR,AmazonEC2,Usage,us-east-1' \
	>"$T/eur.csv"
run --format json scan "$T/unpriced.csv" "$T/eur.csv"
expect_rc 1 "nothing priced: the report, then exit 1"
expect_bill 'd["summary"]["skipped_no_price"]' 2 "two volumes without prices"
expect_bill 'd["summary"]["skipped_no_price_regions"]' "ap-east-2, eu-west-3" "their regions in the summary"
expect_bill 'd["billing"]["other_currency"]' 1 "one billed in another currency"
expect_bill 'tot("currency", "EUR", "EUR")["unpriced"]' 1 "EUR totalled apart, unpriced"
expect_bill 'tot("currency", "USD")["billed"]' 0.0278 "unpriced volumes' billed cost in the totals" 1e-9
expect_err_has "warning: no prices for region 'ap-east-2': its volumes are skipped (counted in the summary)" \
	"no prices: the region warned about"
expect_err_has "hint: get them with 'ebsize pricing fetch --region ap-east-2'" "no prices: how to get them"
expect_err_has "warning: no io2 prices for region 'eu-west-3'" "no io2 prices: the type named"
expect_err_has "warning: '$T/eur.csv': line 2: volume 'vol-0ddd0000000000003' is billed in EUR, the prices of region 'us-east-1' are in USD: not compared; skipped" \
	"another currency: named, not compared"
