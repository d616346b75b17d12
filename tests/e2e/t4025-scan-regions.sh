#!/bin/sh
# t4025-scan-regions: a scan over a priced USD region, a CNY region and
# regions without prices (issue 9): each priced volume in its region's
# currency, totals per currency (never USD + CNY), the unpriced volumes
# counted and named in the summary with one warning per region, and exit 1
# only when no volume could be priced.
#
# The inventory is GENERATED here (describe-volumes shape of
# tests/fixtures/describe-volumes-awscli-example-2019.json; made-up ids).
# Prices typed by hand from pricing/sources/ebs-prices-all-regions.csv:
# us-east-2 gp2 0.10, gp3 0.08 (3,000 IOPS and 125 MiB/s included);
# cn-north-1 gp2 0.746 CNY, gp3 0.5968 CNY; sa-east-1 has no io2 price;
# ap-south-2 has none at all.
. "$(dirname "$0")/../lib/test-lib.sh"

vol() {  # ID SIZE TYPE AZ STATE [IOPS]
	printf '{"VolumeId": "%s", "Size": %s, "VolumeType": "%s", "AvailabilityZone": "%s", "State": "%s"%s}' \
		"$1" "$2" "$3" "$4" "$5" "${6:+, \"Iops\": $6}"
}
{
	printf '{"Volumes": [\n'
	vol vol-0000000000000e201 100 gp2 us-east-2a in-use 300; printf ',\n'
	vol vol-0000000000000e202 50 gp2 us-east-2b available 150; printf ',\n'
	vol vol-0000000000000c201 100 gp2 cn-north-1a in-use 300; printf ',\n'
	vol vol-0000000000000a201 100 gp2 ap-south-2a in-use 300; printf ',\n'
	vol vol-0000000000000a202 200 gp3 ap-south-2b in-use 3000; printf ',\n'
	vol vol-0000000000000f201 100 io2 sa-east-1a in-use 1000; printf '\n'
	printf ']}\n'
} >"$T/inv.json"

expect_finding() {  # VOL KEY WANT DESC [TOL]
	got=$(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["volume_id"] == sys.argv[2]]
v = f[0] if f else {}
for k in sys.argv[3].split("."):
    v = v.get(k, "(none)") if isinstance(v, dict) else "(none)"
print("null" if v is None else v)' "$T/out" "$1" "$2" 2>&1)
	expect_value "$got" "$3" "$4" "${5:-0}" "$1 $2"
}

run --format json scan "$T/inv.json"
expect_rc 0 "a scan with some priced volumes exits 0"
expect_json summary.volumes_scanned 3 "3 volumes priced and analysed"
expect_json summary.skipped_no_price 3 "3 skipped for want of prices"
expect_json summary.skipped_no_price_regions "ap-south-2, sa-east-1" "the regions without prices named"
expect_json summary.skipped 0 "no other skips"
# USD only: 2.00 (gp2 -> gp3, 100 x (0.10 - 0.08)) + 5.00 (unattached 50 x 0.10)
expect_json summary.monthly_savings_usd 7 "summary savings: USD only, 2.00 + 5.00" 1e-9
expect_json summary.annual_savings_usd 84 "summary savings a year: 12 x 7.00" 1e-9

# each finding in its region's currency
expect_finding vol-0000000000000e201 currency USD "us-east-2: USD"
expect_finding vol-0000000000000e201 savings.monthly_usd 2 "us-east-2 gp2 100 -> gp3: 10.00 - 8.00" 1e-9
expect_finding vol-0000000000000e202 category unattached "us-east-2 available volume: unattached"
expect_finding vol-0000000000000e202 savings.monthly_usd 5 "unattached 50 x 0.10" 1e-9
expect_finding vol-0000000000000c201 currency CNY "cn-north-1: CNY"
expect_finding vol-0000000000000c201 current.monthly_usd 74.6 "cn-north-1 gp2 100 x 0.746 = CNY 74.60" 1e-9
expect_finding vol-0000000000000c201 proposed.monthly_usd 59.68 "cn-north-1 gp3 100 x 0.5968 = CNY 59.68" 1e-9
expect_finding vol-0000000000000c201 savings.monthly_usd 14.92 "cn-north-1 saves CNY 14.92" 1e-9
expect_finding vol-0000000000000a201 volume_id "(none)" "ap-south-2: no finding (no price)"
expect_finding vol-0000000000000f201 volume_id "(none)" "sa-east-1 io2: no finding (no io2 price)"

# totals per currency, never added together
/usr/bin/python3 - "$T/out" <<'PY' && ok "totals_by_currency: USD 2 volumes 15.00/7.00/84.00, CNY 1 volume 74.60/14.92/179.04" || fail "totals_by_currency: USD 2 volumes 15.00/7.00/84.00, CNY 1 volume 74.60/14.92/179.04"
import json, sys
t = json.load(open(sys.argv[1]))["totals_by_currency"]
got = [(x["currency"], x["volumes"], round(x["current_monthly"], 6), round(x["monthly_savings"], 6),
        round(x["annual_savings"], 6)) for x in t]
assert got == [("USD", 2, 15.0, 7.0, 84.0), ("CNY", 1, 74.6, 14.92, 179.04)], got
PY
/usr/bin/python3 - "$T/out" <<'PY' && ok "totals by region and category carry one currency each" || fail "totals by region and category carry one currency each"
import json, sys
d = json.load(open(sys.argv[1]))
reg = {(x["region"], x["currency"]): x["monthly_savings_usd"] for x in d["totals_by_region"]}
assert reg == {("us-east-2", "USD"): 7.0, ("cn-north-1", "CNY"): 14.92}, reg
cat = {(x["category"], x["currency"]): x["volumes"] for x in d["totals_by_category"]}
assert cat == {("gp2_to_gp3", "USD"): 1, ("unattached", "USD"): 1, ("gp2_to_gp3", "CNY"): 1}, cat
PY
expect_json notes.0 "2 volume(s) in ap-south-2 skipped: no prices for that region (see ebsize pricing regions)" \
	"note: ap-south-2 volumes counted"
expect_json notes.1 "1 volume(s) in sa-east-1 skipped: no io2 prices for that region (see ebsize pricing regions)" \
	"note: sa-east-1 io2 counted, what is missing said"

# one warning per region, with the ways to get prices
[ "$(grep -c '^warning: ' "$T/err")" = 2 ] && ok "one warning per region without prices (2)" ||
	fail "one warning per region without prices (2)"
expect_err "warning: no prices for region 'ap-south-2': its volumes are skipped (counted in the summary)
hint: get them with 'ebsize pricing fetch --region ap-south-2', or with 'aws pricing get-products --region us-east-1 --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=ap-south-2 Type=TERM_MATCH,Field=volumeApiName,Value=gp3 | ebsize pricing import -' (one volume type per call)
warning: no io2 prices for region 'sa-east-1': its volumes of type io2 are skipped (counted in the summary)
hint: get them with 'ebsize pricing fetch --region sa-east-1', or with 'aws pricing get-products --region us-east-1 --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=sa-east-1 Type=TERM_MATCH,Field=volumeApiName,Value=io2 | ebsize pricing import -'" \
	"the warnings name region, what is missing and both ways"

# human table: amounts in their own currency, totals per currency
run scan "$T/inv.json"
expect_rc 0 "table scan exits 0"
expect_out_has "Skipped, no prices:      3" "table: skipped count"
expect_out_has "Regions without prices:  ap-south-2, sa-east-1" "table: regions named"
expect_out_has "CNY 74.60" "table: the CNY volume's cost in CNY"
expect_out_has "CNY 179.04" "table: the CNY total a year"
grep -q '^USD .* \$15\.00 ' "$T/out" && ok "table: the USD total row" || fail "table: the USD total row"

# csv: a currency column in the findings
run --format csv scan "$T/inv.json"
grep -q '^volume_id,.*,region,currency,' "$T/out" && ok "csv findings have a currency column" ||
	fail "csv findings have a currency column"
grep -q '^vol-0000000000000c201,.*,cn-north-1,CNY,' "$T/out" && ok "csv: the CNY finding says CNY" ||
	fail "csv: the CNY finding says CNY"

# --region on a region without prices: nothing priced, exit 1
run --format json --region ap-south-2 scan "$T/inv.json"
expect_rc 1 "every volume skipped for want of prices: exit 1"
expect_json summary.volumes_scanned 0 "nothing analysed"
expect_json summary.skipped_no_price 2 "both ap-south-2 volumes counted"
expect_json summary.other_regions 4 "the 4 others are in other regions"
grep -q "^error: no volume could be priced: all 2 skipped for want of prices" "$T/err" &&
	ok "the error says nothing could be priced" || fail "the error says nothing could be priced"
