#!/bin/sh
# t2300-instances-import: `ebsize instances import` over the real
# describe-instance-types samples in tests/fixtures (instance-selector
# captures; values in formats.md 4), with refusals leaving the database
# byte for byte as it was.
. "$(dirname "$0")/../lib/test-lib.sh"
GROUP=$FIXTURES/describe-instance-types-2xlarge-group-instance-selector.json
C4=$FIXTURES/describe-instance-types-c4.2xlarge-instance-selector.json
T3=$FIXTURES/describe-instance-types-t3.micro-no-ebsoptimizedinfo-instance-selector.json

run instances -h
expect_rc 0 "instances -h exits 0"
expect_out_has "ebsize instances import FILE" "instances -h shows import"
usage_error "import without a file" "import needs a FILE" instances import
usage_error "import with two files" "unexpected argument 'b'" instances import a b
usage_error "unknown subcommand" "unknown subcommand 'frob' (use show or import)" instances frob

# group capture: g2.2xlarge has no EbsOptimizedInfo; 6 types have it;
# all 6 are in the embedded data (sql/seed/sources/instance-ebs-limits.csv
# lists every one of them), so all are updated
run --format json instances import "$GROUP"
expect_rc 0 "import the 2xlarge group capture"
expect_json imported 6 "group: 6 types with limits"
expect_json skipped 1 "group: g2.2xlarge skipped"
expect_json inserted 0 "group: no new types"
expect_json updated 6 "group: the 6 embedded types updated"
expect_json notes.0 "1 instance type without EbsOptimizedInfo skipped (first: g2.2xlarge)" "group: skipped type named"
run --format json instances show c5a.2xlarge
expect_json instances.0.baseline_mbps 800 "c5a.2xlarge baseline 800 Mbps"
expect_json instances.0.max_mbytes_per_s 396.25 "c5a.2xlarge max 396.25 MB/s"
expect_json instances.0.max_iops 13300 "c5a.2xlarge max 13,300 IOPS"
expect_json instances.0.burst True "c5a.2xlarge bursts (800 < 3170)"
expect_json instances.0.source "import:describe-instance-types-2xlarge-group-instance-selector.json" "source names the file"
run --format json instances show c4.2xlarge
expect_json instances.0.burst False "c4.2xlarge does not burst (1000 = 1000)"
expect_json instances.0.baseline_iops 8000 "c4.2xlarge 8,000 IOPS"
run --format json instances show inf1.2xlarge
expect_json instances.0.baseline_mbytes_per_s 148.75 "inf1.2xlarge baseline 148.75 MB/s"

# the c4 capture alone (Go SDK dump with nulls)
run --format json instances import "$C4"
expect_rc 0 "import the c4.2xlarge capture"
expect_json updated 1 "c4: updated"

# refusals
sqlite3 "$DB" .dump >"$T/before.sql"
run instances import "$T3"
expect_rc 1 "a file with no limits at all is refused"
expect_err "error: instance limits from '$T3' not stored: no instance types with EBS-optimized limits in the input" \
	"no limits: clear message"
check_unchanged "no limits"

run instances import "$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json"
expect_rc 1 "a price file is refused"
expect_err "error: cannot parse '$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json': no \"InstanceTypes\" array" \
	"price file: clear message"
check_unchanged "price file"

# generated: c4.2xlarge with a baseline above its maximum, after a good entry
/usr/bin/python3 - "$GROUP" "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["InstanceTypes"][-1]["EbsInfo"]["EbsOptimizedInfo"]["BaselineIops"] = 99999
json.dump(d, open(sys.argv[2], "w"))
PY
run instances import "$T/bad.json"
expect_rc 1 "a baseline above its maximum is refused"
expect_err "error: instance limits from '$T/bad.json' not stored: instance type 'inf1.2xlarge': a baseline is above its maximum" \
	"baseline > max: clear message"
check_unchanged "baseline above maximum"

printf '{"InstanceTypes": [{"InstanceType": "x1.large", "EbsInfo": {"EbsOptimizedInfo": {"BaselineIops": "a"}}}]}' >"$T/str.json"  # generated
run instances import "$T/str.json"
expect_rc 1 "a string where a number belongs is refused"
expect_err "error: cannot parse '$T/str.json': 'x1.large': expected a non-negative number for \"BaselineBandwidthInMbps\"" \
	"string value: clear message"
check_unchanged "string value"

# found in review: a huge number was cast to an integer (undefined)
/usr/bin/python3 - "$GROUP" "$T/huge.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))  # generated from the real capture
d["InstanceTypes"][-1]["EbsInfo"]["EbsOptimizedInfo"]["BaselineIops"] = 1e300
json.dump(d, open(sys.argv[2], "w"))
PY
run instances import "$T/huge.json"
expect_rc 1 "an IOPS value of 1e300 is refused"
expect_err "error: cannot parse '$T/huge.json': 'inf1.2xlarge': \"BaselineIops\" is 1e+300, above the sanity cap of 1000000000" \
	"huge IOPS: names the file and the instance type"
check_unchanged "huge IOPS"

# what an import does not say is kept: the captures carry no
# MaximumEbsAttachments or NvmeSupport, the embedded data does (c4.2xlarge:
# 40 attachments, NVMe unsupported, in the DescribeInstanceTypes dump of
# sql/seed/sources/raw/); EbsOptimizedSupport "supported" is read (c3.2xlarge)
run --format json instances import "$C4"
run --format json instances show c4.2xlarge
expect_json instances.0.max_ebs_attachments 40 "c4.2xlarge keeps its 40 attachments after an import"
expect_json instances.0.nvme unsupported "c4.2xlarge keeps NVMe unsupported"
expect_json instances.0.source import:describe-instance-types-c4.2xlarge-instance-selector.json "c4.2xlarge: the import's limits"
run --format json instances import "$GROUP"
run --format json instances show c3.2xlarge
expect_json instances.0.ebs_optimized supported "c3.2xlarge: EbsOptimizedSupport supported, read from the capture"
