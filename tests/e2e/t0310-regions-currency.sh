#!/bin/sh
# t0310-regions-currency: every region out of the box (issue 9).  `cost`
# answers in each of the 26 regions the sourced data prices, in that
# region's currency (CNY in China); the 12 regions no source prices, and
# io2 where the 2022 extract predates it, are refused with the region,
# what is missing and both ways to get it; `pricing regions` shows the
# coverage; compare and cheapest say their currency.
#
# Expected values are typed by hand from pricing/sources/ebs-prices-all-
# regions.csv (gp2_storage column, per GB-month), not read from ebsize.
. "$(dirname "$0")/../lib/test-lib.sh"
PRICES_CSV="$ROOT/pricing/sources/ebs-prices-all-regions.csv"

# region, gp2 price per GB-month (the table), 100 GiB a month as shown
cat >"$T/gp2.txt" <<'EOF'
us-east-1 0.1 $10.00
us-east-2 0.1 $10.00
us-west-1 0.12 $12.00
us-west-2 0.1 $10.00
af-south-1 0.1309 $13.09
ap-east-1 0.132 $13.20
ap-south-1 0.114 $11.40
ap-northeast-1 0.12 $12.00
ap-northeast-2 0.114 $11.40
ap-northeast-3 0.12 $12.00
ap-southeast-1 0.12 $12.00
ap-southeast-2 0.12 $12.00
ap-southeast-3 0.12 $12.00
ca-central-1 0.11 $11.00
eu-central-1 0.119 $11.90
eu-west-1 0.11 $11.00
eu-west-2 0.116 $11.60
eu-west-3 0.116 $11.60
eu-south-1 0.1155 $11.55
eu-north-1 0.1045 $10.45
me-south-1 0.121 $12.10
sa-east-1 0.19 $19.00
us-gov-west-1 0.12 $12.00
us-gov-east-1 0.12 $12.00
cn-north-1 0.746 CNY 74.60
cn-northwest-1 0.664 CNY 66.40
EOF
# the hand table is the table's gp2 column, all 26 priced regions of it
/usr/bin/python3 - "$PRICES_CSV" "$T/gp2.txt" <<'PY' && ok "hand table = every priced gp2 price of the sourced table (26)" || fail "hand table = every priced gp2 price of the sourced table (26)"
import csv, sys
src = {r["region"]: r["value"] for r in csv.DictReader(open(sys.argv[1]))
       if r["field"] == "gp2_storage" and r["value"]}
mine = {l.split()[0]: l.split()[1] for l in open(sys.argv[2]) if l.strip()}
assert len(mine) == 26 and mine == src, (mine, src)
PY

while read -r region price want; do
	run --region "$region" cost --type gp2 --size 100
	expect_rc 0 "cost in $region"
	expect_out_has "Total:        $want" "$region: gp2 100 GiB = $want (100 x $price)"
done <"$T/gp2.txt"

# JSON and CSV carry the currency
run --region cn-north-1 --format json cost --type gp2 --size 100
expect_json currency CNY "cn-north-1: json currency CNY"
expect_json monthly_usd.total 74.6 "cn-north-1: total 74.6 (CNY)" 1e-9
run --region cn-north-1 cost --type gp2 --size 100
expect_out_has "Monthly cost (CNY)" "cn-north-1: the heading names CNY"
run --region eu-west-2 --format json cost --type gp2 --size 100
expect_json currency USD "eu-west-2: json currency USD"
run --region cn-north-1 --format csv cost --type gp2 --size 100
head -n 1 "$T/out" | grep -q '^region,currency,' && ok "csv: a currency column" || fail "csv: a currency column"
grep -q '^cn-north-1,CNY,' "$T/out" && ok "csv: CNY in it" || fail "csv: CNY in it"
run --region cn-north-1 --format md cost --type gp2 --size 100
expect_out_has "| Total | CNY 74.60 |" "md: CNY 74.60"

# gp3 with extra IOPS and throughput in CNY: 100 x 0.5968 + 1,000 x 0.0373
# + 75 x 0.2984 = 59.68 + 37.30 + 22.38 = 119.36
run --region cn-north-1 --format json cost --type gp3 --size 100 --iops 4000 --throughput 200
expect_json monthly_usd.storage 59.68 "cn-north-1 gp3 storage 100 x 0.5968" 1e-9
expect_json monthly_usd.iops 37.3 "cn-north-1 gp3 IOPS 1,000 x 0.0373" 1e-9
expect_json monthly_usd.throughput 22.38 "cn-north-1 gp3 MiB/s 75 x 0.2984" 1e-9
expect_json monthly_usd.total 119.36 "cn-north-1 gp3 total CNY 119.36" 1e-9
# io2 in a region the 2022 extract has it: ap-south-1, 100 x 0.131 +
# 1,000 x 0.068 = 13.10 + 68.00 = 81.10
run --region ap-south-1 --format json cost --type io2 --size 100 --iops 1000
expect_json monthly_usd.total 81.1 "ap-south-1 io2 100 GiB 1,000 IOPS = 81.10" 1e-9

# ---------------------------------------------------------------- refusals
# the 12 regions no source prices (pricing/sources/SOURCES.md)
for region in ap-east-2 ap-south-2 ap-southeast-4 ap-southeast-5 ap-southeast-6 \
	ap-southeast-7 ca-west-1 eu-central-2 eu-south-2 il-central-1 me-central-1 mx-central-1; do
	run --region "$region" cost --type gp2 --size 100
	want="error: no prices for region '$region': neither the built-in price data nor any fetch or import holds it
hint: get them with 'ebsize pricing fetch --region $region', or with 'aws pricing get-products --region us-east-1 --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=$region Type=TERM_MATCH,Field=volumeApiName,Value=gp2 | ebsize pricing import -'
hint: 'ebsize pricing regions' shows which regions have prices"
	if [ "$rc" = 1 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ]; then
		ok "$region: refused, named, both ways to get prices"
	else
		fail "$region: refused, named, both ways to get prices" "stderr should be: $want"
	fi
done

# io2 in the 10 regions whose 2022 extract predates it
for region in af-south-1 ap-northeast-3 eu-west-3 eu-south-1 sa-east-1 us-gov-west-1 \
	us-gov-east-1 ap-southeast-3 cn-north-1 cn-northwest-1; do
	run --region "$region" cost --type io2 --size 100 --iops 1000
	want="error: no io2 prices for region '$region' in the prices in force (snapshot 1, embedded, as of 2022-02-10)
hint: get them with 'ebsize pricing fetch --region $region', or with 'aws pricing get-products --region us-east-1 --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=$region Type=TERM_MATCH,Field=volumeApiName,Value=io2 | ebsize pricing import -'"
	if [ "$rc" = 1 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ]; then
		ok "$region: io2 refused, named, both ways"
	else
		fail "$region: io2 refused, named, both ways" "stderr should be: $want"
	fi
done
# ... while io1 there is priced: sa-east-1 100 x 0.238 + 1,000 x 0.091 = 114.80
run --region sa-east-1 --format json cost --type io1 --size 100 --iops 1000
expect_json monthly_usd.total 114.8 "sa-east-1 io1 = 23.80 + 91.00" 1e-9

# compare asks for io2 explicitly in sa-east-1: refused; gp2/gp3 answer
run --region sa-east-1 compare --sizes 100 --types io2
expect_rc 1 "compare --types io2 in sa-east-1 exits 1"
expect_err_has "error: no io2 prices for region 'sa-east-1'" "compare names the missing io2"
# cn-north-1: gp3 like gp2 at 100 GiB is 3,000 IOPS/125 MiB/s: 100 x 0.5968 = 59.68;
# saves 74.60 - 59.68 = 14.92
run --region cn-north-1 --format json compare --sizes 100
expect_rc 0 "compare in cn-north-1"
expect_json rows.0.currency CNY "compare rows carry CNY"
expect_json rows.0.monthly_usd 74.6 "compare: gp2 CNY 74.60" 1e-9
expect_json rows.1.savings_usd 14.92 "compare: gp3 saves CNY 14.92" 1e-9
run --region cn-north-1 compare --sizes 100
expect_out_has "CNY 14.92" "compare table shows CNY amounts"
expect_out_has "prices: cn-north-1 in CNY" "compare note names the currency"

# cheapest: io2 left out (noted) where unpriced; CNY in China
run --region sa-east-1 --format json cheapest --iops 5000 --size 100
expect_rc 0 "cheapest in sa-east-1"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(o["type"] == "io2" for o in d["options"]))' "$T/out" &&
	ok "cheapest in sa-east-1 offers no io2" || fail "cheapest in sa-east-1 offers no io2"
grep -q "io2 not considered: no io2 prices for region 'sa-east-1'" "$T/out" &&
	ok "cheapest notes why io2 is missing" || fail "cheapest notes why io2 is missing"
run --region sa-east-1 cheapest --iops 5000 --size 100 --types io2
expect_rc 1 "cheapest --types io2 in sa-east-1 exits 1"
expect_err_has "error: no io2 prices for region 'sa-east-1'" "cheapest --types io2: named"
run --region ap-south-2 cheapest --iops 5000
expect_rc 1 "cheapest in an unpriced region exits 1"
expect_err_has "error: no prices for region 'ap-south-2'" "cheapest: unpriced region named"
run --region cn-north-1 --format json cheapest --iops 9000 --size 100 --types gp3
expect_json request.currency CNY "cheapest: request.currency CNY"
# 4 x gp3 25 GiB (3,000 IOPS included each): 100 x 0.5968 = CNY 59.68
expect_json options.0.count 4 "cheapest in CNY: 4 x gp3 25 GiB"
expect_json options.0.monthly_usd.total 59.68 "cheapest in CNY: 100 x 0.5968" 1e-9
run --region cn-north-1 cheapest --iops 9000 --size 100 --types gp3
expect_out_has "CNY 59.68" "cheapest table shows CNY"
expect_out_has "a month (79 %)" "the stripe note is computed in CNY"
grep -q 'beats one gp3 volume by CNY ' "$T/out" && ok "the stripe note says CNY" || fail "the stripe note says CNY"

# ---------------------------------------------------------------- pricing regions
run --format json pricing regions
expect_rc 0 "pricing regions"
/usr/bin/python3 - "$T/out" <<'PY' && ok "pricing regions: 38 regions, 26 priced, 12 with nothing" || fail "pricing regions: 38 regions, 26 priced, 12 with nothing"
import json, sys
r = json.load(open(sys.argv[1]))["regions"]
assert len(r) == 38, len(r)
assert sum(1 for x in r if x["priced"]) == 26
assert sum(1 for x in r if x["missing"] == "everything") == 12
PY
region_field() {
	/usr/bin/python3 -c 'import json,sys; print({x["region"]: x for x in json.load(open(sys.argv[1]))["regions"]}[sys.argv[2]][sys.argv[3]])' "$T/out" "$1" "$2"
}
expect_value "$(region_field us-east-2 location)" "US East (Ohio)" "us-east-2 location (Price List extract)"
expect_value "$(region_field us-east-2 types)" "gp2 gp3 io1 io2 st1 sc1 standard snapshot" "us-east-2: every type and snapshot priced"
expect_value "$(region_field us-east-2 missing)" None "us-east-2: nothing missing"
expect_value "$(region_field us-east-2 prices)" 15 "us-east-2: 15 prices (16 fields less the GiBps one)"
expect_value "$(region_field us-east-2 vintage)" "2021-05-13..2022-02-10" "us-east-2: vintage from the calculator (snapshot) to the extract"
expect_value "$(region_field us-east-2 source)" embedded "us-east-2: embedded"
expect_value "$(region_field us-east-2 snapshot)" 1 "us-east-2: snapshot 1"
expect_value "$(region_field sa-east-1 missing)" io2 "sa-east-1: io2 missing"
expect_value "$(region_field cn-north-1 currency)" CNY "cn-north-1: CNY"
expect_value "$(region_field cn-north-1 missing)" "io2 snapshot" "cn-north-1: io2 and snapshot missing"
expect_value "$(region_field ap-south-2 priced)" False "ap-south-2: not priced"
expect_value "$(region_field ap-south-2 location)" None "ap-south-2: no location known"
expect_value "$(region_field ap-south-2 snapshot)" None "ap-south-2: no snapshot"
run pricing regions
expect_out_has "note: no prices for ap-east-2, ap-south-2, ap-southeast-4, ap-southeast-5, ap-southeast-6, ap-southeast-7, ca-west-1, eu-central-2, eu-south-2, il-central-1, me-central-1, mx-central-1: get them with 'ebsize pricing fetch --region R'" \
	"the table notes the 12 unpriced regions and the way to prices"
expect_out_has "no io2 prices for af-south-1, ap-northeast-3, ap-southeast-3, cn-north-1, cn-northwest-1, eu-south-1, eu-west-3, sa-east-1, us-gov-east-1, us-gov-west-1" \
	"the table notes the 10 regions without io2"
usage_error "pricing regions takes no argument" "unexpected argument 'x'" pricing regions x

# an import shows up there: us-west-2 from the offer extract
run pricing import "$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json"
run --format json pricing regions
expect_value "$(region_field us-west-2 snapshot)" 2 "us-west-2: the import's snapshot"
expect_value "$(region_field us-west-2 source)" "import:pricing-offer-extract-usw2-gp3-iops-throughput.json" "us-west-2: the import's source"
expect_value "$(region_field us-west-2 vintage)" "2021-05-13..2026-09-01" "us-west-2: carried rows keep their vintage"

# pricing show gives the snapshot-storage rows
run --region eu-west-2 --format json pricing show --type snapshot
expect_rc 0 "pricing show --type snapshot"
expect_json prices.0.price_per_unit 0.053 "eu-west-2 snapshot storage 0.053 (calculator 2021-05-13)"
expect_json prices.0.as_of 2021-05-13 "snapshot price keeps its own vintage"
