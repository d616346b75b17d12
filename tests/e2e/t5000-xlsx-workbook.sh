#!/bin/sh
# t5000-xlsx-workbook: --format xlsx for every command, read back by a
# real spreadsheet application.  All workbooks go through ONE headless
# LibreOffice run that recalculates every formula on load, and:
#   - each live cost (cost, compare) recomputes to ebsize's JSON figure to
#     the cent, and to the hand-worked figure below;
#   - recalculation really happens: a formula altered in the file (cached
#     value left right) comes back with the altered result;
#   - hostile text (=HYPERLINK, +cmd, -1+1, @SUM, leading tab or CR) stays
#     text; numbers are numbers, with formats by column style; header
#     frozen, autofilter on, charts where promised, an About sheet.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/../lib/xlsx-lib.sh"

B="$T/books"
mkdir -p "$B"

# book NAME ARGS...: the workbook $B/NAME.xlsx and the JSON $B/NAME.json
book() {
	name=$1
	shift
	run --format xlsx -o "$B/$name.xlsx" "$@"
	expect_rc 0 "$name: workbook written"
	run --format json "$@"
	cp "$T/out" "$B/$name.json"
}

# Hand-worked costs (ebs-facts.md T6, us-east-1):
#   gp3 100 GiB, 6000 IOPS, 500 MiB/s: 100 x 0.08 + (6000 - 3000) x 0.005
#     + (500 - 125) x 0.04 = 8 + 15 + 15 = 38
#   2 x io2 1000 GiB, 70000 IOPS: 2 x (1000 x 0.125) = 250 storage;
#     2 x (32000 x 0.065 + 32000 x 0.0455 + 6000 x 0.03185) = 7454.2 IOPS
#   standard 100 GiB, 2,000,000 I/O: 100 x 0.05 + 2 x 0.05 = 5.1
book cost-gp3 cost --type gp3 --size 100 --iops 6000 --throughput 500
book cost-io2 cost --type io2 --size 1000 --iops 70000 --count 2
book cost-std cost --type standard --size 100 --io-per-month 2000000
book compare compare --types gp2,gp3,io1,io2,st1,sc1,standard --sizes 50,100,500,1000,2000,16384
book burst burst --size 100 --load 3000
book cheapest cheapest --iops 10000 --throughput 500 --size 1000
book prices pricing show
book history pricing history
book instances instances show m5.large
book dbcheck db check
book dbpath db path
book benchlist bench list

# GENERATED test inventory: gp2 volumes whose Name tags look like formulas
/usr/bin/python3 - "$T/hostile.json" <<'EOF'
import json, sys
names = ['=HYPERLINK("http://x","y")', "+cmd", "-1+1", "@SUM(1)",
         "\tTAB", "\rCR", "a_x0041_b"]
vols = []
for i, n in enumerate(names):
    vid = "vol-0e5e%013x" % i
    vols.append({"VolumeId": vid, "VolumeType": "gp2", "Size": 100,
                 "AvailabilityZone": "us-east-1a", "State": "in-use",
                 "Attachments": [{"InstanceId": "i-0e5e0000000000001",
                                  "State": "attached", "VolumeId": vid}],
                 "Tags": [{"Key": "Name", "Value": n}]})
json.dump({"Generated": "generated test data (t5000)", "Volumes": vols},
          open(sys.argv[1], "w"))
EOF
book scan scan "$T/hostile.json"

# recalculation guard: cost-gp3 with its storage formula doubled in the
# file while the cached value (8) stays; recalculated it must read 16
/usr/bin/python3 - "$B/cost-gp3.xlsx" "$B/altered.xlsx" <<'EOF'
import re, sys, zipfile
src, dst = sys.argv[1:]
with zipfile.ZipFile(src) as zi, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zo:
    for item in zi.infolist():
        data = zi.read(item.filename)
        if item.filename == "xl/worksheets/sheet2.xml":       # monthly_usd
            data, n = re.subn(rb'(<c r="B2"[^>]*><f>)(.*?)(</f>)',
                              rb'\g<1>2*(\g<2>)\g<3>', data)
            assert n == 1, "storage formula not found"
        zo.writestr(item, data)
EOF

lo_convert "$T/csv" "$B"/*.xlsx
[ -s "$T/csv/cost-gp3-monthly_usd.csv" ] && ok "LibreOffice converted the workbooks" ||
	fail "LibreOffice converted the workbooks" "$(cat "$T/lo.log")"

py_checks "$T/csv" "$B" <<'EOF'
import sys, sheets
from sheets import check, cents, num, json_file
sheets.use(sys.argv[1])
B = sys.argv[2]

# -- cost: every cost cell recomputed equals JSON and the hand figures
hand = {"cost-gp3": {"storage": 8, "iops": 15, "throughput": 15, "io": 0, "total": 38},
        "cost-io2": {"storage": 250, "iops": 7454.2, "throughput": 0, "io": 0, "total": 7704.2},
        "cost-std": {"storage": 5, "iops": 0, "throughput": 0, "io": 0.1, "total": 5.1}}
for b, want in hand.items():
    got = sheets.record(b, "monthly_usd")
    js = json_file("%s/%s.json" % (B, b))["monthly_usd"]
    for k, v in want.items():
        cents(got[k], js[k], "%s: recalculated %s equals the JSON figure" % (b, k))
        cents(got[k], v, "%s: recalculated %s equals the hand figure %s" % (b, k, v))

# -- the guard: LibreOffice recalculated instead of showing cached values
cents(sheets.record("altered", "monthly_usd")["storage"], 16,
      "recalculation is on: a doubled formula gives 16, not the cached 8")

# -- compare: monthly cost, saving and saving % of every row
rows = sheets.rows("compare", "rows")
js = json_file(B + "/compare.json")["rows"]
check(len(rows) == len(js) == 42, "compare: 6 sizes x 7 types rows", "%d/%d" % (len(rows), len(js)))
bad = []
for r, j in zip(rows, js):
    for k in ("monthly_usd", "savings_usd", "savings_pct"):
        if j[k] is None:            # a slower row: no saving, an empty cell
            if r[k] not in ("", None):
                bad.append((j["gp2_size_gib"], j["type"], k, r[k], None))
            continue
        want = j[k] / 100 if k == "savings_pct" else j[k]
        if abs(num(r[k]) - want) >= (0.00005 if k == "savings_pct" else 0.005):  # JSON % has 2 decimals
            bad.append((j["gp2_size_gib"], j["type"], k, r[k], j[k]))
check(not bad, "compare: every recalculated cost, saving and saving % equals JSON", repr(bad[:5]))
# 16384 GiB gp2: 16384 x 0.1 = 1638.40; gp3 at 16,000 IOPS, 250 MiB/s:
# 16384 x 0.08 + 13000 x 0.005 + 125 x 0.04 = 1310.72 + 65 + 5 = 1380.72
big = {r["type"]: r for r in rows if r["gp2_size_gib"] == "16384"}
cents(big["gp2"]["monthly_usd"], 1638.40, "compare: gp2 16384 GiB costs 1638.40 (hand)")
cents(big["gp3"]["monthly_usd"], 1380.72, "compare: its gp3 costs 1380.72 (hand)")
cents(big["gp3"]["savings_usd"], 257.68, "compare: saving 1638.40 - 1380.72 = 257.68 (hand)")
piv = sheets.rows("compare", "cost_by_size")
want = {(str(j["gp2_size_gib"]), j["type"]): j["monthly_usd"] for j in js}
bad = [(p["gp2_size_gib"], t, p[t]) for p in piv for t in p if t != "gp2_size_gib"
       and abs(num(p[t]) - want[(p["gp2_size_gib"], t)]) >= 0.005]
check(len(piv) == 6 and not bad, "compare: cost_by_size (SUMIFS over rows) equals the rows", repr(bad[:5]))

# -- hostile names stay text, exactly
names = ['=HYPERLINK("http://x","y")', "+cmd", "-1+1", "@SUM(1)", "\tTAB", "\rCR", "a_x0041_b"]
got = sorted(r["name"] for r in sheets.rows("scan", "Findings"))
check(got == sorted(names), "scan: hostile names arrive as the same text", repr(got))
js = json_file(B + "/scan.json")
summ = {r["field"]: r["value"] for r in sheets.blocks("scan", "Summary")[None]}
cents(summ["monthly_savings_usd"],
      js["summary"]["monthly_savings_usd"], "scan: summary savings equal JSON")

# -- other commands: figures as numbers equal to JSON
r = sheets.record("burst", "result")
j = json_file(B + "/burst.json")
check(all(num(r[k]) == j[k] for k in ("capacity", "time_to_empty_s", "refill_seconds")),
      "burst: the result sheet equals JSON", repr(r))
tl = sheets.rows("burst", "timeline")
check(tl[0]["t_s"] == "1" and tl[-1]["t_s"] == "3600" and len(tl) == 3600,
      "burst: the timeline sheet has every second of the 3600", "%d rows" % len(tl))
p = sheets.rows("prices", "prices")
j = json_file(B + "/prices.json")["prices"]
check([num(x["price_per_unit"]) for x in p] == [x["price_per_unit"] for x in j],
      "pricing show: every price equals JSON exactly")
o = sheets.rows("cheapest", "options")
j = json_file(B + "/cheapest.json")["options"]
check(len(o) == len(j) and all(abs(num(x["monthly_usd.total"]) - y["monthly_usd"]["total"]) < 0.005
                              for x, y in zip(o, j)), "cheapest: option totals equal JSON")
check(sheets.rows("instances", "instances")[0]["max_iops"] == "18750", "instances: a number")
check(sheets.record("dbpath", "result")["path"].endswith("ebsize.db"), "db path: a record sheet")
j = json_file(B + "/benchlist.json")["runs"]
check([r["label"] for r in sheets.rows("benchlist", "runs")] == [x["label"] for x in j],
      "bench list: the runs")

# -- About
for b in ("cost-gp3", "compare", "burst", "scan"):
    a = {r["field"]: r["value"] for r in sheets.rows(b, "About")}
    check(a.get("ebsize_version") == "0.1.0" and a.get("command", "").startswith("ebsize ")
          and len(a.get("generated_at", "")) == 20 and a["generated_at"].endswith("Z"),
          "%s: About says command, version and when" % b, repr(a))
a = {r["field"]: r["value"] for r in sheets.rows("cost-gp3", "About")}
check(a.get("price_snapshot") == "1" and a.get("prices_as_of") == "2022-02-10",
      "cost: About names the price snapshot and its vintage", repr(a))
EOF

# -- the files themselves: typed cells, formats, frozen header, charts
py_checks "$B" <<'EOF'
import sys, zipfile, openpyxl
from sheets import check
B = sys.argv[1]
wb = openpyxl.load_workbook(B + "/compare.xlsx")
check(wb.sheetnames == ["rows", "cost_by_size", "price_list", "notes", "About"],
      "compare: the sheets", repr(wb.sheetnames))
ws = wb["rows"]
head = [c.value for c in ws[1]]
col = {k: i + 1 for i, k in enumerate(head)}
c = ws.cell(row=2, column=col["monthly_usd"])
check(c.data_type == "f" and c.value.startswith("=(SUMIFS(pr_price,") and "SUMPRODUCT(" in c.value,
      "compare: monthly_usd is a formula over the price list", repr(c.value))
check(c.number_format == "$#,##0.00", "compare: money has a currency format", c.number_format)
c = ws.cell(row=2, column=col["size_gib"])
check(c.data_type == "n" and c.number_format == "#,##0", "compare: sizes are integers", c.number_format)
c = ws.cell(row=2, column=col["savings_pct"])
check(c.number_format == "0.0%", "compare: savings_pct has a percent format", c.number_format)
check(ws.freeze_panes == "A2", "compare: header row frozen", repr(ws.freeze_panes))
check(ws.auto_filter.ref == "A1:P43", "compare: autofilter over the table", repr(ws.auto_filter.ref))
check(ws.column_dimensions["B"].width >= 8, "compare: columns have widths")
check(all(ws.cell(row=r, column=col["type"]).data_type == "s" for r in range(2, 44)),
      "compare: types are text")
charts = lambda f: len([n for n in zipfile.ZipFile(f).namelist() if n.startswith("xl/charts/chart")])
check(charts(B + "/compare.xlsx") == 1, "compare: one native chart")
check(charts(B + "/burst.xlsx") == 2, "burst: two native charts (rate, credits)")
ws = openpyxl.load_workbook(B + "/scan.xlsx")["Findings"]
head = [c.value for c in ws[1]]
cells = [ws.cell(row=r, column=head.index("name") + 1) for r in range(2, 9)]
check(all(c.data_type == "s" for c in cells), "scan: every hostile name is a text cell",
      repr([(c.value, c.data_type) for c in cells]))
nums = [ws.cell(row=r, column=head.index("savings.monthly_usd") + 1) for r in range(2, 9)]
check(all(c.data_type == "f" and c.value.startswith("=IF(") for c in nums),
      "scan: savings are formulas (numbers), not text", repr([c.value for c in nums]))
EOF
