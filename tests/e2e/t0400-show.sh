#!/bin/sh
# t0400-show: `pricing show` and `instances show` read the embedded data;
# values checked against ebs-facts.md T6 and T11.
. "$(dirname "$0")/../lib/test-lib.sh"

run --region ap-northeast-2 --format json pricing show --type gp3
expect_rc 0 "pricing show --type gp3"
expect_json prices.0.dimension iops "gp3 rows sorted by dimension (iops first)"
expect_json prices.0.price_per_unit 0.0057 "Seoul gp3 IOPS \$0.0057 (T6)"
expect_json prices.0.begin_range 3000 "gp3 IOPS billed above 3,000"
expect_json prices.1.price_per_unit 0.0912 "Seoul gp3 storage \$0.0912 (T6)"
expect_json prices.2.price_per_unit 0.0456 "Seoul gp3 MiB/s \$0.0456 = 46.6944 / 1024 (T6)" 1e-12
expect_json prices.2.unit MiBps-month "throughput stored per MiB/s-month"
expect_json prices.2.usagetype APN2-EBS:VolumeP-Throughput.gp3 "usage type carries the APN2 prefix (T9)"

run --format json pricing show --type io2
expect_json prices.0.end_range 32000 "io2 tier 1 ends at 32,000"
expect_json prices.1.price_per_unit 0.0455 "us-east-1 io2 tier 2 \$0.0455"
expect_json prices.2.end_range None "io2 tier 3 is unbounded"
expect_json prices.2.usagetype EBS:VolumeP-IOPS.io2.tier3 "us-east-1 usage types have no prefix"

run --format csv pricing show --all-regions
expect_rc 0 "pricing show --all-regions"
# every non-empty price of pricing/sources/ebs-prices-all-regions.csv but
# the per-GiBps field (the Price List unit of gp3 throughput): 347
want=$(/usr/bin/python3 -c 'import csv,sys; print(1 + sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["value"] and r["field"] != "gp3_throughput_above_125_gibps"))' \
	"$ROOT/pricing/sources/ebs-prices-all-regions.csv")
[ "$(grep -c '^[a-z]' "$T/out")" = "$want" ] && [ "$want" = 348 ] && ok "csv: header + 347 prices" ||
	fail "csv: header + 347 prices" "want $want"

run pricing show --region us-west-2 --type standard
expect_out_has "per-1M-IO" "standard I/O price shown per million requests"

usage_error "pricing without subcommand" "missing subcommand (show, fetch, import, history, diff or regions)" pricing
usage_error "pricing show unknown type" "unknown volume type 'gp9'" pricing show --type gp9
# ap-south-2: no price in any source (pricing/sources/SOURCES.md)
run pricing show --region ap-south-2
expect_rc 1 "pricing show for a region without prices exits 1"
expect_err "error: no prices for region 'ap-south-2'
hint: get them with 'ebsize pricing fetch --region ap-south-2', or with 'aws pricing get-products --region us-east-1 --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=ap-south-2 Type=TERM_MATCH,Field=volumeApiName,Value=gp3 | ebsize pricing import -' (one volume type per call)
hint: 'ebsize pricing regions' shows which regions have prices" "the region is named, with both ways to get prices"
run pricing show --region sa-east-1 --type io2
expect_rc 1 "pricing show io2 in sa-east-1 (no io2 in its 2022 extract) exits 1"
expect_err_has "Value=io2 | ebsize pricing import -'" "the io2 hint names the io2 query"

run --format json instances show m5.xlarge
expect_rc 0 "instances show m5.xlarge"
expect_json instances.0.baseline_mbps 1150 "m5.xlarge baseline 1,150 Mbps (T11)"
expect_json instances.0.baseline_mbytes_per_s 143.75 "m5.xlarge baseline 143.75 MB/s (T11)"
# JSON numbers are written to a millionth (issue 10 item 8)
expect_json instances.0.baseline_mibps 137.0906829833984 "143.75 MB/s = 137.09 MiB/s" 5e-7
expect_json instances.0.max_iops 18750 "m5.xlarge max 18,750 IOPS (T11)"
expect_json instances.0.burst True "m5.xlarge bursts"

run --format json instances show --family m5
expect_rc 0 "instances show --family m5"
expect_json instances.0.instance_type m5.large "smallest m5 first"
want=$(grep -c '^m5\.' "$ROOT/sql/seed/sources/instance-ebs-limits.csv")
[ "$(json_get instances <"$T/out" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = "$want" ] &&
	ok "every m5 size of the sourced table ($want)" || fail "every m5 size of the sourced table ($want)"

run instances show m9z.huge
expect_rc 1 "unknown instance exits 1"
expect_err "error: unknown instance type 'm9z.huge'
hint: 'ebsize instances show' lists every known type" "unknown instance named"
usage_error "instances both name and family" "give a TYPE or --family, not both" instances show m5.large --family m5
usage_error "instances unknown subcommand" "unknown subcommand 'list' (use show or import)" instances list
