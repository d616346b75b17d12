#!/bin/sh
# t5010-xlsx-edit: the workbook is live.  openpyxl edits price_per_unit
# cells of the price list (and a size) the way an analyst would, LibreOffice
# recalculates (forced on load), and every dependent cost, saving and
# chart figure follows the new prices exactly, as worked out by hand below.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/../lib/xlsx-lib.sh"

B="$T/books"
mkdir -p "$B"
run --format xlsx -o "$B/gp3.xlsx" cost --type gp3 --size 100 --iops 6000 --throughput 500
expect_rc 0 "cost gp3 workbook"
run --format xlsx -o "$B/io2.xlsx" cost --type io2 --size 1000 --iops 70000 --count 2
expect_rc 0 "cost io2 workbook"
run --format xlsx -o "$B/cmp.xlsx" compare --sizes 100,1000
expect_rc 0 "compare workbook"

# edit prices (and one size) with openpyxl, as an analyst would in Excel
py_checks "$B" <<'EOF'
import sys, openpyxl
from sheets import check
B = sys.argv[1]

def set_price(wb, vtype, dim, begin, price):
    ws = wb["price_list"]
    head = [c.value for c in ws[1]]
    col = {k: i for i, k in enumerate(head)}
    hits = 0
    for row in ws.iter_rows(min_row=2):
        if (row[col["region"]].value, row[col["volume_type"]].value,
                row[col["dimension"]].value, row[col["begin_range"]].value) == \
                ("us-east-1", vtype, dim, begin):
            row[col["price_per_unit"]].value = price
            hits += 1
    check(hits == 1, "price_list has one %s %s price from %s" % (vtype, dim, begin))

def set_field(wb, sheet, field, value):
    for row in wb[sheet].iter_rows(min_row=2):
        if row[0].value == field:
            row[1].value = value
            return

wb = openpyxl.load_workbook(B + "/gp3.xlsx")
set_price(wb, "gp3", "storage", 0, 0.1)
set_price(wb, "gp3", "iops", 3000, 0.006)
set_field(wb, "result", "size_gib", 200)
wb.save(B + "/gp3-edited.xlsx")
wb = openpyxl.load_workbook(B + "/io2.xlsx")
set_price(wb, "io2", "iops", 32000, 0.05)
wb.save(B + "/io2-edited.xlsx")
wb = openpyxl.load_workbook(B + "/cmp.xlsx")
set_price(wb, "gp2", "storage", 0, 0.12)
wb.save(B + "/cmp-edited.xlsx")
EOF

lo_convert "$T/csv" "$B"/*-edited.xlsx
[ -s "$T/csv/gp3-edited-monthly_usd.csv" ] && ok "LibreOffice converted the edited workbooks" ||
	fail "LibreOffice converted the edited workbooks" "$(cat "$T/lo.log")"

py_checks "$T/csv" <<'EOF'
import sys, sheets
from sheets import cents, close, check
sheets.use(sys.argv[1])

# gp3 at 200 GiB (edited), 6000 IOPS, 500 MiB/s, new prices:
#   storage 200 x 0.10 = 20; IOPS (6000 - 3000) x 0.006 = 18;
#   throughput (500 - 125) x 0.04 = 15 (unchanged); total 53
m = sheets.record("gp3-edited", "monthly_usd")
for k, v in (("storage", 20), ("iops", 18), ("throughput", 15), ("io", 0), ("total", 53)):
    cents(m[k], v, "gp3: %s follows the edited price and size: %s" % (k, v))

# 2 x io2, 70000 IOPS, tier 2 edited to 0.05:
#   2 x (32000 x 0.065 + 32000 x 0.05 + 6000 x 0.03185) = 2 x 3871.1 = 7742.2
#   storage 2 x 1000 x 0.125 = 250; total 7992.2
m = sheets.record("io2-edited", "monthly_usd")
cents(m["iops"], 7742.2, "io2: the IOPS cost follows the edited tier-2 price: 7742.2")
cents(m["storage"], 250, "io2: storage unchanged: 250")
cents(m["total"], 7992.2, "io2: the total follows: 7992.2")

# compare, gp2 storage edited to 0.12:
#   gp2 100 GiB: 12; gp3 100 GiB (3000 IOPS, 125 MiB/s free): 8; saves 4 = 1/3
#   gp2 1000 GiB: 120; gp3 1000 GiB: 80 + (250 - 125) x 0.04 = 85; saves 35 = 35/120
want = {("100", "gp2"): (12, 0, 0), ("100", "gp3"): (8, 4, 4 / 12),
        ("1000", "gp2"): (120, 0, 0), ("1000", "gp3"): (85, 35, 35 / 120)}
for r in sheets.rows("cmp-edited", "rows"):
    cost, save, pct = want[(r["gp2_size_gib"], r["type"])]
    what = "compare %s %s GiB" % (r["type"], r["gp2_size_gib"])
    cents(r["monthly_usd"], cost, what + ": monthly cost %s" % cost)
    cents(r["savings_usd"], save, what + ": saving %s" % save)
    close(r["savings_pct"], pct, what + ": saving fraction %.4f" % pct, 1e-4)
piv = {r["gp2_size_gib"]: r for r in sheets.rows("cmp-edited", "cost_by_size")}
cents(piv["100"]["gp2"], 12, "compare: the chart's gp2 series follows (100 GiB: 12)")
cents(piv["1000"]["gp2"], 120, "compare: the chart's gp2 series follows (1000 GiB: 120)")
cents(piv["1000"]["gp3"], 85, "compare: the chart's gp3 series stays (1000 GiB: 85)")
EOF
