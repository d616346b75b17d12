#!/bin/sh
# t0410-instances-all: every instance type of the sourced data out of the
# box (issue 9): `instances show` knows the 1,376 EBS-optimized types and
# the 19 that are not EBS-optimizable; spot checks against the table;
# `cheapest --instance` honours MaximumEbsAttachments and leaves a type
# without an EBS limit unchecked, saying why; the families listed without
# --instance include the current generation.
#
# Expected values typed by hand from sql/seed/sources/instance-ebs-limits.csv
# (the six EBS numbers, NVMe) and the dump beside it (MaximumEbsAttachments).
. "$(dirname "$0")/../lib/test-lib.sh"
LIMITS_CSV="$ROOT/sql/seed/sources/instance-ebs-limits.csv"
DUMP="$ROOT/sql/seed/sources/raw/describe-instance-types-dump-2026-08-02.json"

# all of them
run --format json instances show
expect_rc 0 "instances show (all)"
want=$(/usr/bin/python3 -c '
import csv, json, sys
rows = {r["instance_type"] for r in csv.DictReader(open(sys.argv[1]))}
dump = json.load(open(sys.argv[2]))
uns = {t for t, v in dump.items() if v["EbsInfo"]["EbsOptimizedSupport"] == "unsupported"}
print(len(rows), len(uns), len(rows | uns))' "$LIMITS_CSV" "$DUMP")
[ "$want" = "1376 19 1395" ] && ok "sourced data: 1,376 + 19 = 1,395 types" || fail "sourced data: 1,376 + 19 = 1,395 types" "got $want"
/usr/bin/python3 - "$T/out" "$LIMITS_CSV" "$DUMP" <<'PY' && ok "instances show lists every type of the data, each with the table's numbers" || fail "instances show lists every type of the data, each with the table's numbers"
import csv, json, sys
got = {x["instance_type"]: x for x in json.load(open(sys.argv[1]))["instances"]}
rows = list(csv.DictReader(open(sys.argv[2])))
dump = json.load(open(sys.argv[3]))
assert len(got) == 1395, len(got)
keys = [("baseline_mbps", "baseline_mbps"), ("max_mbps", "max_mbps"),
        ("baseline_mbs", "baseline_mbytes_per_s"), ("max_mbs", "max_mbytes_per_s"),
        ("baseline_iops", "baseline_iops"), ("max_iops", "max_iops")]
for r in rows:
    g = got[r["instance_type"]]
    for a, b in keys:
        assert abs(float(r[a]) - g[b]) < 1e-9, (r["instance_type"], a, r[a], g[b])
    assert g["ebs_optimized"] == r["ebs_optimized_default"], r["instance_type"]
    assert (g["nvme"] or "") == r["nvme_support"], r["instance_type"]
    d = dump.get(r["instance_type"])
    want = d["EbsInfo"]["MaximumEbsAttachments"] if d else None
    assert g["max_ebs_attachments"] == want, (r["instance_type"], g["max_ebs_attachments"], want)
for t, v in dump.items():
    if v["EbsInfo"]["EbsOptimizedSupport"] == "unsupported":
        assert got[t]["ebs_optimized"] == "unsupported" and got[t]["max_iops"] is None, t
PY

# spot checks, typed from the table
run --format json instances show r7iz.large
expect_rc 0 "r7iz.large is known"
expect_json instances.0.baseline_mbps 792 "r7iz.large baseline 792 Mbps"
expect_json instances.0.max_mbps 10000 "r7iz.large max 10,000 Mbps"
expect_json instances.0.baseline_mbytes_per_s 99 "r7iz.large baseline 99 MB/s"
expect_json instances.0.max_mbytes_per_s 1250 "r7iz.large max 1,250 MB/s"
expect_json instances.0.baseline_iops 3600 "r7iz.large baseline 3,600 IOPS"
expect_json instances.0.max_iops 40000 "r7iz.large max 40,000 IOPS"
expect_json instances.0.max_ebs_attachments 32 "r7iz.large: 32 attachments (dump)"
expect_json instances.0.nvme required "r7iz.large: NVMe required"
expect_json instances.0.as_of 2026-08-02 "r7iz.large: the dump's date"
run --format json instances show i4i.xlarge
expect_json instances.0.baseline_mbps 1250 "i4i.xlarge baseline 1,250 Mbps"
expect_json instances.0.baseline_mbytes_per_s 156.25 "i4i.xlarge baseline 156.25 MB/s"
expect_json instances.0.baseline_iops 5000 "i4i.xlarge baseline 5,000 IOPS"
expect_json instances.0.max_iops 40000 "i4i.xlarge max 40,000 IOPS"
expect_json instances.0.max_ebs_attachments 26 "i4i.xlarge: 26 attachments"
# m6in.large: the 2026 values, 25 % above the 2023 document's
# (1,250/20,000 Mbps, 156.25/2,500 MB/s, 5,468/87,500 IOPS)
run --format json instances show m6in.large
expect_json instances.0.baseline_mbps 1562 "m6in.large baseline 1,562 Mbps (2026)"
expect_json instances.0.max_mbps 25000 "m6in.large max 25,000 Mbps (2026)"
expect_json instances.0.baseline_mbytes_per_s 195.3125 "m6in.large baseline 195.3125 MB/s (2026)"
expect_json instances.0.max_mbytes_per_s 3125 "m6in.large max 3,125 MB/s (2026)"
expect_json instances.0.baseline_iops 6250 "m6in.large baseline 6,250 IOPS (2026)"
expect_json instances.0.max_iops 100000 "m6in.large max 100,000 IOPS (2026)"
grep -q '(2023: 1250/20000/156.25/2500/5468/87500); newer kept' "$T/out" &&
	ok "m6in.large: the source keeps the 2023 values" || fail "m6in.large: the source keeps the 2023 values"
run --format json instances show x2idn.16xlarge
expect_rc 0 "x2idn.16xlarge is known"
run --format json instances show --family c7gn
expect_rc 0 "the c7gn family is known"
[ "$(json_get instances <"$T/out" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = \
	"$(grep -c '^c7gn\.' "$LIMITS_CSV")" ] && ok "every c7gn size of the table" || fail "every c7gn size of the table"

# not EBS-optimizable: recognised, no limits, says why
run --format json instances show t2.micro
expect_rc 0 "t2.micro is known"
expect_json instances.0.ebs_optimized unsupported "t2.micro: EbsOptimizedSupport unsupported"
expect_json instances.0.max_iops None "t2.micro: no EBS limit (null, not 0)"
expect_json instances.0.baseline_mbps None "t2.micro: no bandwidth limit"
expect_json instances.0.max_ebs_attachments 40 "t2.micro: 40 attachments (dump)"
expect_json notes.0 "t2.micro is not EBS-optimizable (EbsOptimizedSupport unsupported): it attaches EBS volumes, but AWS publishes no EBS limit for it and its EBS traffic shares the instance's network bandwidth" \
	"t2.micro: the note says why"
run instances show m1.small
expect_rc 0 "m1.small is known"
expect_out_has "unsupported" "m1.small: shown as not EBS-optimizable"

run --format json cheapest --iops 3000 --size 100 --instance t2.micro
expect_rc 0 "cheapest --instance t2.micro answers"
expect_json request.instance_fit unchecked "t2.micro: the fit is not checked"
expect_json options.0.instance_fit unchecked "t2.micro: options unchecked"
grep -q "t2.micro is not EBS-optimizable (EbsOptimizedSupport unsupported): AWS publishes no EBS limit for it and its EBS traffic shares the instance's network bandwidth, so whether it carries the need is not checked" "$T/out" &&
	ok "cheapest: the note says why the fit is unchecked" || fail "cheapest: the note says why the fit is unchecked"

# MaximumEbsAttachments: d3.8xlarge attaches 3 (dump), so at most 2 data
# volumes.  9,000 IOPS and 100 GiB on gp3 (us-east-1: 0.08/GiB, 0.005 per
# IOPS above 3,000 per volume): without an instance 4 x 25 GiB at 3,000
# included IOPS each = 100 x 0.08 = 8.00; on d3.8xlarge 2 x 50 GiB with
# 4,500 IOPS = 2 x (50 x 0.08 + 1,500 x 0.005) = 23.00
run --format json cheapest --iops 9000 --size 100 --types gp3
expect_json options.0.count 4 "no instance: 4 volumes"
expect_json options.0.monthly_usd.total 8 "no instance: 8.00" 1e-9
run --format json cheapest --iops 9000 --size 100 --types gp3 --instance d3.8xlarge
expect_rc 0 "cheapest on d3.8xlarge"
expect_json options.0.count 2 "d3.8xlarge: 2 volumes at most"
expect_json options.0.monthly_usd.total 23 "d3.8xlarge: 23.00" 1e-9
/usr/bin/python3 -c 'import json,sys; sys.exit(any(o["count"] > 2 for o in json.load(open(sys.argv[1]))["options"]))' "$T/out" &&
	ok "d3.8xlarge: no option wider than 2" || fail "d3.8xlarge: no option wider than 2"
grep -q "d3.8xlarge attaches at most 3 EBS volumes (MaximumEbsAttachments, its root volume included): sets of more than 2 volumes are not offered" "$T/out" &&
	ok "the attachment cap is noted" || fail "the attachment cap is noted"
# m5.large attaches 27: a --max-stripe of 40 is capped at 26
run --format json cheapest --iops 3000 --size 100 --instance m5.large --max-stripe 40
grep -q "m5.large attaches at most 27 EBS volumes" "$T/out" && ok "m5.large: --max-stripe 40 capped, noted" ||
	fail "m5.large: --max-stripe 40 capped, noted"
run --format json cheapest --iops 3000 --size 100 --instance m5.large
grep -q "attaches at most" "$T/out" && fail "the default stripe of 8 fits m5.large: no note" ||
	ok "the default stripe of 8 fits m5.large: no note"

# families without --instance: the current generation is there
run --format json cheapest --iops 20000 --size 500
/usr/bin/python3 - "$T/out" <<'PY' && ok "families include m7i c7i r7i m8g c8g r8g" || fail "families include m7i c7i r7i m8g c8g r8g"
import json, sys
fams = {x["family"]: x for x in json.load(open(sys.argv[1]))["instances"]}
for f in ("m7i", "c7i", "r7i", "m8g", "c8g", "r8g"):
    assert f in fams and fams[f]["variant_of"] is None, f
PY
# 20,000 IOPS at 16 KiB = 312.5 MiB/s = 327.68 MB/s sustained: m8g.4xlarge
# (20,000 IOPS, 625 MB/s baseline) is the first m8g; m8gn.2xlarge (20,000,
# 625 MB/s) is smaller, so the network variant is listed
run --format json cheapest --iops 20000 --size 500
/usr/bin/python3 - "$T/out" <<'PY' && ok "m8gn listed as a better-fitting variant of m8g" || fail "m8gn listed as a better-fitting variant of m8g"
import json, sys
fams = {x["family"]: x for x in json.load(open(sys.argv[1]))["instances"]}
assert fams["m8g"]["sustained"] == "m8g.4xlarge", fams["m8g"]
assert fams["m8gn"]["variant_of"] == "m8g" and fams["m8gn"]["sustained"] == "m8gn.2xlarge", fams.get("m8gn")
assert "m8gd" not in fams       # same EBS limits as m8g: not better, not listed
PY
