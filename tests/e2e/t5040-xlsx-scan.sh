#!/bin/sh
# t5040-xlsx-scan: the scan workbook, read back by LibreOffice with every
# formula recalculated on load (xlsx-lib.sh):
#   - sheets Summary (summary, totals by currency, category, region and
#     tag, the prices used; a chart of savings by category), Findings,
#     Unchanged, Prices;
#   - every recalculated cost, saving and total equals ebsize's JSON to the
#     cent and the hand-worked figures below (the fleet's cost counts the
#     volumes without a finding);
#   - openpyxl edits prices and a proposed size as an analyst would; after
#     recalculation every dependent cost and Summary total follows exactly;
#   - hostile Name and tag values stay text, and the by-tag totals match
#     them exactly (no SUMIFS wildcards or operators, case kept).
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/../lib/xlsx-lib.sh"

B="$T/books"
mkdir -p "$B"

# GENERATED test inventory (not AWS output).  Prices: ebs-facts.md T6
# (us-east-1, eu-west-1) and the embedded snapshot (cn-north-1, CNY):
#  A gp2 100 GiB        10.00 -> gp3 8.00 (3,000 IOPS, 125 MiB/s): saves 2.00
#  B gp2 1,000 GiB     100.00 -> gp3 80 + 125 x 0.04 = 85.00: saves 15.00
#  C gp2 50 GiB, available: 5.00, saves 5.00 (delete)
#  D st1 500 GiB        500 x 0.045 = 22.50, no finding
#  E io1 500 GiB 10,000 IOPS: 62.50 + 650 = 712.50, no finding (io2 is no
#    cheaper in us-east-1, no metrics)
#  F gp3 200 GiB 6,000 IOPS 500 MiB/s: 16 + 15 + 15 = 46.00, no finding
#  G io2 1,000 GiB 70,000 IOPS: 125 + 32,000 x 0.065 + 32,000 x 0.0455
#    + 6,000 x 0.03185 = 125 + 2,080 + 1,456 + 191.10 = 3,852.10, no finding
#  H gp2 200 GiB, excluded (keep=true): 20.00, saves 0
#  I gp2 200 GiB at 2,000 IOPS (metrics): burst risk; gp3 200 GiB 3,000
#    IOPS 250 MiB/s = 16 + 5 = 21.00: saves 0, extra cost 1.00
#  J eu-west-1 gp2 100 GiB 11.00 -> gp3 8.80: saves 2.20
#  K cn-north-1 gp2 100 GiB CNY 74.60 -> gp3 59.68: saves CNY 14.92
# USD fleet: 10 + 100 + 5 + 22.5 + 712.5 + 46 + 3,852.1 + 20 + 20 + 11
#   = 4,799.10 now; saves 2 + 15 + 5 + 0 + 0 + 2.2 = 24.20; extra 1.00;
#   after the proposals 4,799.10 - 24.20 + 1.00 = 4,775.90
/usr/bin/python3 - "$T/inv.json" "$T/metrics.json" <<'EOF'
import json, sys
vols, n = [], 0
def vol(vtype, size, az, state="in-use", iops=None, tput=None, tags=()):
    global n
    n += 1
    vid = "vol-0e5a%013x" % n
    v = {"VolumeId": vid, "VolumeType": vtype, "Size": size, "AvailabilityZone": az,
         "State": state, "Tags": [{"Key": k, "Value": x} for k, x in tags],
         "Attachments": [] if state == "available" else
             [{"InstanceId": "i-0e5a%013x" % n, "State": "attached", "VolumeId": vid}]}
    if iops is not None:
        v["Iops"] = iops
    if tput is not None:
        v["Throughput"] = tput
    vols.append(v)
    return vid
vol("gp2", 100, "us-east-1a", iops=300, tags=[("Name", '=HYPERLINK("http://x","y")'),
                                             ("team", "<script>alert(1)</script>")])
vol("gp2", 1000, "us-east-1a", iops=3000, tags=[("Name", "+cmd"), ("team", '=HYPERLINK("http://x","y")')])
vol("gp2", 50, "us-east-1b", "available", iops=150, tags=[("Name", "-1+1"), ("team", "Prod")])
vol("st1", 500, "us-east-1b", tags=[("Name", "st1")])
vol("io1", 500, "us-east-1a", iops=10000)
vol("gp3", 200, "us-east-1a", iops=6000, tput=500)
vol("io2", 1000, "us-east-1b", iops=70000)
vol("gp2", 200, "us-east-1a", iops=600, tags=[("Name", "@SUM(1)"), ("team", "prod"), ("keep", "true")])
i = vol("gp2", 200, "us-east-1a", iops=600, tags=[("Name", "\tTAB")])
vol("gp2", 100, "eu-west-1a", iops=300, tags=[("Name", "\rCR"), ("team", "a*")])
vol("gp2", 100, "cn-north-1a", iops=300, tags=[("Name", "a_x0041_b"), ("team", "<5")])
json.dump({"Generated": "generated test data (t5040)", "Volumes": vols}, open(sys.argv[1], "w"))
# 600,000 read ops in 300 s = 2,000 IOPS on a 600 IOPS baseline
json.dump({"MetricDataResults": [{"Id": "rops_300_vol_" + i[4:], "StatusCode": "Complete",
                                  "Timestamps": ["2026-11-01T10:00:00Z"], "Values": [600000]}]},
          open(sys.argv[2], "w"))
EOF

ARGS="scan $T/inv.json --metrics $T/metrics.json --exclude-tag keep=true --by-tag team"
# shellcheck disable=SC2086
run --format xlsx -o "$B/fleet.xlsx" $ARGS
expect_rc 0 "scan --format xlsx -o fleet.xlsx"
expect_out_empty "nothing on stdout"
# shellcheck disable=SC2086
run --format json $ARGS
expect_rc 0 "the same scan as JSON"
cp "$T/out" "$B/fleet.json"
expect_json summary.current_monthly_usd 4799.1 "JSON: the USD fleet costs 4,799.10 (hand)" 1e-6
expect_json summary.monthly_savings_usd 24.2 "JSON: saves 24.20 (hand)" 1e-6
expect_json summary.extra_cost_monthly_usd 1 "JSON: the burst-risk fix adds 1.00 (hand)" 1e-6
expect_json summary.proposed_monthly_usd 4775.9 "JSON: 4,775.90 after the proposals (hand)" 1e-6
expect_json summary.savings_pct 0.5 "JSON: 24.20 / 4,799.10 = 0.50 %" 1e-9

# the analyst's edits: us-east-1 gp2 0.10 -> 0.12, gp3 0.08 -> 0.07, io2
# tier 2 (IOPS 32,001-64,000) 0.0455 -> 0.05, cn-north-1 gp3 0.5968 -> 0.5,
# and B's proposed size 1,000 -> 500 GiB
py_checks "$B" <<'EOF'
import sys, openpyxl
from sheets import check
B = sys.argv[1]
wb = openpyxl.load_workbook(B + "/fleet.xlsx")

def table(ws, header_row=1):
    head = [c.value for c in ws[header_row]]
    return {k: i for i, k in enumerate(head) if k}

ws = wb["Prices"]
col = table(ws)
edits = {("us-east-1", "gp2", "storage", 0): 0.12, ("us-east-1", "gp3", "storage", 0): 0.07,
         ("us-east-1", "io2", "iops", 32000): 0.05, ("cn-north-1", "gp3", "storage", 0): 0.5}
hits = 0
for row in ws.iter_rows(min_row=2):
    k = (row[col["region"]].value, row[col["volume_type"]].value, row[col["dimension"]].value,
         row[col["begin_range"]].value)
    if k in edits:
        row[col["price_per_unit"]].value = edits[k]
        hits += 1
check(hits == 4, "Prices: the four prices found once each", "%d hits" % hits)
ws = wb["Findings"]
col = table(ws)
hits = 0
for row in ws.iter_rows(min_row=2):
    if row[col["volume_id"]].value == "vol-0e5a0000000000002":
        row[col["proposed.size_gib"]].value = 500
        hits += 1
check(hits == 1, "Findings: B's proposed size found")
wb.save(B + "/edited.xlsx")
EOF

lo_convert "$T/csv" "$B/fleet.xlsx" "$B/edited.xlsx"
[ -s "$T/csv/fleet-Findings.csv" ] && [ -s "$T/csv/edited-Summary.csv" ] &&
	ok "LibreOffice converted both workbooks" || fail "LibreOffice converted both workbooks" "$(cat "$T/lo.log")"

py_checks "$T/csv" "$B" <<'EOF'
import sys, sheets
from sheets import check, cents, close, num, json_file
sheets.use(sys.argv[1])
js = json_file(sys.argv[2] + "/fleet.json")
ids = {c: "vol-0e5a%013x" % (i + 1) for i, c in enumerate("ABCDEFGHIJK")}

# -- Findings: every recalculated figure equals JSON, to the cent
rows = {r["volume_id"]: r for r in sheets.rows("fleet", "Findings")}
check(sorted(rows) == sorted(f["volume_id"] for f in js["findings"]) and len(rows) == 7,
      "Findings: the 7 findings of JSON (A B C H I J K)", repr(sorted(rows)))
keys = ("current.monthly_usd", "proposed.monthly_usd", "savings.monthly_usd",
        "savings.annual_usd", "extra_cost.monthly_usd")
bad = []
for f in js["findings"]:
    r = rows[f["volume_id"]]
    for k in keys:
        a, b = k.split(".")
        if abs(num(r[k]) - f[a][b]) >= 0.005:
            bad.append((f["volume_id"], k, r[k], f[a][b]))
check(not bad, "Findings: every recalculated cost, saving and extra cost equals JSON", repr(bad))
hand = {"A": (10, 8, 2, 0), "B": (100, 85, 15, 0), "C": (5, 0, 5, 0), "H": (20, 0, 0, 0),
        "I": (20, 21, 0, 1), "J": (11, 8.8, 2.2, 0), "K": (74.6, 59.68, 14.92, 0)}
for c, (cur, prop, save, extra) in hand.items():
    r = rows[ids[c]]
    cents(r["current.monthly_usd"], cur, "%s: costs %s now (hand)" % (c, cur))
    cents(r["proposed.monthly_usd"], prop, "%s: %s proposed (hand)" % (c, prop))
    cents(r["savings.monthly_usd"], save, "%s: saves %s (hand)" % (c, save))
    cents(r["extra_cost.monthly_usd"], extra, "%s: extra cost %s (hand)" % (c, extra))

# -- Unchanged: the volumes without a finding, priced live
un = {(r["type"], r["size_gib"]): r for r in sheets.rows("fleet", "Unchanged")}
for k, v in {("st1", "500"): 22.5, ("io1", "500"): 712.5, ("gp3", "200"): 46,
             ("io2", "1000"): 3852.1}.items():
    cents(un[k]["monthly_usd"], v, "Unchanged: %s %s GiB costs %s (hand)" % (k[0], k[1], v))
check(len(un) == 4, "Unchanged: 4 configurations (D E F G)")

# -- Summary: the record, the totals
page = sheets.blocks("fleet", "Summary")
summ = {r["field"]: r["value"] for r in page[None]}
for k in ("current_monthly_usd", "proposed_monthly_usd", "monthly_savings_usd",
          "annual_savings_usd", "extra_cost_monthly_usd"):
    cents(summ[k], js["summary"][k], "Summary: %s equals JSON" % k)
close(summ["savings_pct"], js["summary"]["savings_pct"] / 100, "Summary: savings_pct equals JSON", 5e-5)
for k, v in (("current_monthly_usd", 4799.1), ("monthly_savings_usd", 24.2),
             ("proposed_monthly_usd", 4775.9), ("annual_savings_usd", 290.4)):
    cents(summ[k], v, "Summary: %s is %s (hand)" % (k, v))
for k in ("volumes_scanned", "findings", "excluded", "volumes_without_finding"):
    check(num(summ[k]) == js["summary"][k], "Summary: %s equals JSON (%s)" % (k, js["summary"][k]),
          repr(summ[k]))
check(js["summary"]["volumes_without_finding"] == 4 and js["summary"]["volumes_scanned"] == 11,
      "JSON: 11 scanned, 4 without a finding")

def same(title, got, want, key):
    got = {(r[key], r["currency"]): r for r in got}
    check(sorted(got) == sorted((w[key], w["currency"]) for w in want),
          "%s: the rows of JSON" % title, repr(sorted(got)))
    bad = []
    for w in want:
        r = got.get((w[key], w["currency"]))
        for k, v in w.items():
            if r is None or k in (key, "currency"):
                continue
            g = num(r[k]) * (100 if k == "savings_pct" else 1)
            if abs(g - v) >= 0.005:
                bad.append((w[key], k, r[k], v))
    check(not bad, "%s: every recalculated figure equals JSON" % title, repr(bad))

same("totals by currency", page["Totals by currency"], js["totals_by_currency"], "currency")
same("totals by category", page["Totals by category"], js["totals_by_category"], "category")
same("totals by region", page["Totals by region"], js["totals_by_region"], "region")
same("totals by tag", page["Totals by tag"], js["totals_by_tag"], "tag_value")
cny = {r["currency"]: r for r in page["Totals by currency"]}["CNY"]
cents(cny["current_monthly_usd"], 74.6, "CNY: 74.60 now (hand)")
cents(cny["proposed_monthly_usd"], 59.68, "CNY: 59.68 after (hand)")
used = {r["region"]: r for r in page["Prices used"]}
check(sorted(used) == ["cn-north-1", "eu-west-1", "us-east-1"] and used["cn-north-1"]["currency"] == "CNY"
      and used["us-east-1"]["as_of"] == "2022-02-10",
      "Summary: the price snapshot and vintage of each region", repr(used))

# -- hostile text: Name and tag values arrive exactly, as text
names = ['=HYPERLINK("http://x","y")', "+cmd", "-1+1", "@SUM(1)", "\tTAB", "\rCR", "a_x0041_b"]
check(sorted(r["name"] for r in rows.values()) == sorted(names),
      "Findings: hostile names arrive as the same text", repr([r["name"] for r in rows.values()]))
tags = sorted(r["tag_value"] for r in page["Totals by tag"])
check(tags == sorted(["<script>alert(1)</script>", '=HYPERLINK("http://x","y")', "Prod", "prod",
                      "(untagged)", "a*", "<5"]), "Summary: tag values as text", repr(tags))

# -- the edited workbook: every dependent figure follows (worked by hand)
rows = {r["volume_id"]: r for r in sheets.rows("edited", "Findings")}
hand = {"A": (12, 7, 5, 0), "B": (120, 40, 80, 0), "C": (6, 0, 6, 0), "H": (24, 0, 0, 0),
        "I": (24, 19, 5, 0), "J": (11, 8.8, 2.2, 0), "K": (74.6, 50, 24.6, 0)}
for c, (cur, prop, save, extra) in hand.items():
    r = rows[ids[c]]
    what = "edited %s" % c
    cents(r["current.monthly_usd"], cur, "%s: costs %s now" % (what, cur))
    cents(r["proposed.monthly_usd"], prop, "%s: %s proposed" % (what, prop))
    cents(r["savings.monthly_usd"], save, "%s: saves %s" % (what, save))
    cents(r["savings.annual_usd"], 12 * save, "%s: saves %s a year" % (what, 12 * save))
    cents(r["extra_cost.monthly_usd"], extra, "%s: extra cost %s" % (what, extra))
un = {(r["type"], r["size_gib"]): r for r in sheets.rows("edited", "Unchanged")}
cents(un[("gp3", "200")]["monthly_usd"], 44, "edited: gp3 200 GiB 14 + 15 + 15 = 44")
cents(un[("io2", "1000")]["monthly_usd"], 3996.1,
      "edited: io2 125 + 2,080 + 32,000 x 0.05 + 191.10 = 3,996.10")
cents(un[("st1", "500")]["monthly_usd"], 22.5, "edited: st1 unchanged, 22.50")
page = sheets.blocks("edited", "Summary")
summ = {r["field"]: r["value"] for r in page[None]}
# 12 + 120 + 6 + 24 + 24 + 11 + 22.5 + 712.5 + 44 + 3,996.1 = 4,972.10;
# saves 5 + 80 + 6 + 0 + 5 + 2.2 = 98.20; no extra; 4,873.90 after
for k, v in (("current_monthly_usd", 4972.1), ("monthly_savings_usd", 98.2),
             ("annual_savings_usd", 1178.4), ("extra_cost_monthly_usd", 0),
             ("proposed_monthly_usd", 4873.9)):
    cents(summ[k], v, "edited Summary: %s follows: %s" % (k, v))
close(summ["savings_pct"], 98.2 / 4972.1, "edited Summary: savings_pct 98.20 / 4,972.10", 1e-9)
cur = {r["currency"]: r for r in page["Totals by currency"]}
cents(cur["USD"]["current_monthly_usd"], 4972.1, "edited: USD total 4,972.10")
cents(cur["CNY"]["current_monthly_usd"], 74.6, "edited: CNY total 74.60")
cents(cur["CNY"]["proposed_monthly_usd"], 50, "edited: CNY 50.00 after (gp3 at 0.5)")
cat = {r["category"]: r for r in page["Totals by category"]}
for k, (cur_, save, prop) in {"gp2_to_gp3": (143, 87.2, 55.8), "unattached": (6, 6, 0),
                              "excluded": (24, 0, 24), "gp2_burst_risk": (24, 5, 19)}.items():
    r = [x for x in page["Totals by category"] if x["category"] == k and x["currency"] == "USD"][0]
    cents(r["current_monthly_usd"], cur_, "edited %s: %s now" % (k, cur_))
    cents(r["monthly_savings_usd"], save, "edited %s: saves %s" % (k, save))
    cents(r["proposed_monthly_usd"], prop, "edited %s: %s after" % (k, prop))
reg = {(r["region"], r["currency"]): r for r in page["Totals by region"]}
cents(reg[("us-east-1", "USD")]["current_monthly_usd"], 186, "edited us-east-1: 186 now (A B C H I)")
cents(reg[("us-east-1", "USD")]["monthly_savings_usd"], 96, "edited us-east-1: saves 96")
tag = {(r["tag_value"], r["currency"]): r for r in page["Totals by tag"]}
for (k, ccy), (cur_, save) in {("<script>alert(1)</script>", "USD"): (12, 5),
                               ('=HYPERLINK("http://x","y")', "USD"): (120, 80),
                               ("Prod", "USD"): (6, 6), ("prod", "USD"): (24, 0),
                               ("(untagged)", "USD"): (24, 5), ("a*", "USD"): (11, 2.2),
                               ("<5", "CNY"): (74.6, 24.6)}.items():
    cents(tag[(k, ccy)]["current_monthly_usd"], cur_, "edited tag %r: %s now (exact match)" % (k, cur_))
    cents(tag[(k, ccy)]["monthly_savings_usd"], save, "edited tag %r: saves %s" % (k, save))
    check(tag[(k, ccy)]["volumes"] == "1", "edited tag %r: one volume" % k, tag[(k, ccy)]["volumes"])
EOF

# -- the file itself: sheets, formulas, text cells, the chart
py_checks "$B" <<'EOF'
import sys, zipfile, openpyxl
from sheets import check
B = sys.argv[1]
wb = openpyxl.load_workbook(B + "/fleet.xlsx")
check(wb.sheetnames[:2] == ["Summary", "cluster_findings"] and
      wb.sheetnames[2:] == ["Findings", "Unchanged", "Prices", "notes", "About"],
      "the sheets: Summary, Findings, Unchanged, Prices ...", repr(wb.sheetnames))
ws = wb["Findings"]
head = [c.value for c in ws[1]]
col = {k: i + 1 for i, k in enumerate(head)}
c = ws.cell(row=2, column=col["current.monthly_usd"])
check(c.data_type == "f" and c.value.startswith("=SUMPRODUCT((pr_region=") and "*pr_price*" in c.value
      and "pr_st*" in c.value, "Findings: the current cost is a formula over the price list", repr(c.value))
names = {n: wb.defined_names[n].attr_text for n in ("pr_st", "pr_io", "pr_tp", "pr_end", "pr_price")}
check(names["pr_st"] == "'Prices'!$C$2:$C$%d=\"storage\"" % (wb["Prices"].max_row)
      and names["pr_price"].startswith("'Prices'!$D$2:$D$"),
      "the price list's columns and dimension masks are defined names", repr(names))
c = ws.cell(row=2, column=col["savings.monthly_usd"])
check(c.data_type == "f", "Findings: the saving is a formula", repr(c.value))
cells = [ws.cell(row=r, column=col["name"]) for r in range(2, 9)]
check(all(x.data_type == "s" for x in cells), "Findings: every name is a text cell",
      repr([(x.value, x.data_type) for x in cells]))
ws = wb["Summary"]
f = {r[0].value: r[1] for r in ws.iter_rows(min_row=2, max_row=20) if r[0].value}
check(f["current_monthly_usd"].data_type == "f" and "Findings" in f["current_monthly_usd"].value
      and "Unchanged" in f["current_monthly_usd"].value,
      "Summary: the fleet's cost is a formula over Findings and Unchanged",
      repr(f["current_monthly_usd"].value))
check(ws.freeze_panes == "A2", "Summary: header frozen")
z = zipfile.ZipFile(B + "/fleet.xlsx")
charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
check(len(charts) == 1 and b"<c:barChart>" in z.read(charts[0]) and
      b"Savings by category" in z.read(charts[0]), "one native bar chart: savings by category")
EOF

# an empty fleet: nothing to find, still a workbook whose totals are 0
printf '{"Volumes": [{"VolumeId": "vol-0e5a00000000000ff", "VolumeType": "st1", "Size": 500, "AvailabilityZone": "us-east-1a", "State": "in-use", "Attachments": [{"InstanceId": "i-0e5a0000000000001"}]}]}' >"$T/st1.json"
run --format xlsx -o "$B/st1.xlsx" scan "$T/st1.json"
expect_rc 0 "a fleet without findings"
lo_convert "$T/csv2" "$B/st1.xlsx"
py_checks "$T/csv2" <<'EOF'
import sys, sheets
from sheets import cents, check, num
sheets.use(sys.argv[1])
summ = {r["field"]: r["value"] for r in sheets.blocks("st1", "Summary")[None]}
cents(summ["current_monthly_usd"], 22.5, "no findings: the fleet still costs 22.50 (st1 500 x 0.045)")
cents(summ["monthly_savings_usd"], 0, "no findings: saves 0")
check(num(summ["findings"]) == 0 and num(summ["volumes_scanned"]) == 1,
      "no findings: 0 findings, 1 volume scanned", repr(summ))
EOF

# a billing export with describe-volumes: the billed volumes absent from
# it are not_in_inventory, which proposes nothing and saves nothing -- in
# the workbook too (the proposed cells are blank; a saving formula over
# them alone would give the whole current cost).  GENERATED inventory:
# V1 of the generated legacy CUR only (gp2 100 GiB: 10.00 -> gp3 8.00).
printf '{"Generated": "generated test data (t5040)", "Volumes": [{"VolumeId": "vol-0aaa0000000000001", "VolumeType": "gp2", "Size": 100, "Iops": 300, "AvailabilityZone": "us-east-1a", "State": "in-use", "Attachments": [{"InstanceId": "i-0e5a0000000000001"}]}]}' >"$T/v1.json"
CUR="$ROOT/tests/fixtures/billing/cur-legacy-generated.csv"
run --format xlsx -o "$B/bill.xlsx" scan "$CUR" "$T/v1.json"
expect_rc 0 "billing export + describe-volumes as a workbook"
run --format json scan "$CUR" "$T/v1.json"
cp "$T/out" "$B/bill.json"
lo_convert "$T/csv3" "$B/bill.xlsx"
py_checks "$T/csv3" "$B" <<'EOF'
import sys, sheets
from sheets import cents, check, json_file, num
sheets.use(sys.argv[1])
js = json_file(sys.argv[2] + "/bill.json")
rows = {r["volume_id"]: r for r in sheets.rows("bill", "Findings")}
nii = [f["volume_id"] for f in js["findings"] if f["category"] == "not_in_inventory"]
check(len(nii) >= 1, "JSON: billed volumes absent from describe-volumes", repr(nii))
for v in nii:
    cents(rows[v]["savings.monthly_usd"], 0, "%s not_in_inventory: the workbook saves 0, as JSON" % v)
cents(rows["vol-0aaa0000000000001"]["savings.monthly_usd"], 2,
      "V1 described: gp2 10.00 -> gp3 8.00 saves 2.00 in the workbook")
EOF

echo "# $n tests"
