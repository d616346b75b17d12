#!/bin/sh
# t0300-cost: `ebsize cost` output in every format, every usage error and
# every illegal configuration with its rule and nearest legal configuration.
# Expected money is worked out by hand from ebs-facts.md T6.
. "$(dirname "$0")/../lib/test-lib.sh"

# --- the JSON contract, gp3 with extra IOPS and throughput, Seoul
run --region ap-northeast-2 --format json cost --type gp3 --size 100 --iops 6000 --throughput 250
expect_rc 0 "gp3 with extra IOPS and throughput"
expect_json region ap-northeast-2 "json region"
expect_json type gp3 "json type"
expect_json size_gib 100 "json size_gib"
expect_json iops 6000 "json iops"
expect_json throughput_mibps 250 "json throughput_mibps"
expect_json count 1 "json count"
expect_json monthly_usd.storage 9.12 "storage 100 x 0.0912" 1e-9
expect_json monthly_usd.iops 17.1 "iops 3000 x 0.0057" 1e-9
expect_json monthly_usd.throughput 5.7 "throughput 125 x 0.0456" 1e-9
expect_json monthly_usd.io 0 "no I/O charge"
expect_json monthly_usd.total 31.92 "total 9.12 + 17.10 + 5.70" 1e-9
expect_json performance.baseline_iops 6000 "baseline = provisioned"
expect_json performance.burst_seconds None "gp3 does not burst"
expect_json performance.max_throughput_mibps 250 "max MiB/s = provisioned"
expect_json prices.source embedded "prices from the embedded snapshot"
expect_json prices.as_of 2022-02-10 "as-of date of the snapshot"
json_get "" <"$T/out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
want = {"region","currency","type","size_gib","iops","throughput_mibps","count","monthly_usd","performance","prices"}
sys.exit(0 if want <= set(d) and {"storage","iops","throughput","io","total"} <= set(d["monthly_usd"])
         and {"baseline_iops","burst_iops","burst_seconds","max_throughput_mibps"} <= set(d["performance"])
         and {"snapshot","as_of","source"} <= set(d["prices"]) else 1)' &&
	ok "json has every documented key" || fail "json has every documented key"

# --- gp2 100 GiB: the article's numbers (seed-benchmarks.md A)
run --region ap-northeast-2 --format json cost --type gp2 --size 100
expect_json monthly_usd.total 11.4 "gp2 100 GiB Seoul = \$11.40 (article)" 1e-9
expect_json performance.baseline_iops 300 "gp2 100 GiB baseline 300"
expect_json performance.burst_iops 3000 "gp2 100 GiB burst 3000"
expect_json performance.burst_seconds 2000 "gp2 100 GiB bursts 2000 s from a full bucket (T2)"
expect_json performance.max_throughput_mibps 128 "gp2 100 GiB max 128 MiB/s"
expect_json iops None "gp2 has no provisioned IOPS"

# --- count multiplies everything
run --region us-east-1 --format json cost --type io2 --size 100 --iops 64000 --count 3
expect_json monthly_usd.total 10645.5 "3 x io2 64k IOPS: 3 x (12.5 + 2080 + 1456)" 1e-6
expect_json performance.baseline_iops 192000 "3 volumes: 3 x 64000 IOPS"

# --- standard with I/O
run --region eu-west-1 --format json cost --type standard --size 100 --io-per-month 2000000
expect_json monthly_usd.io 0.11 "2 M I/O x \$0.055 per million" 1e-9
expect_json monthly_usd.total 5.61 "100 x 0.055 + 0.11" 1e-9

# --- table, csv, md
run --region ap-northeast-2 cost --type gp3 --size 100 --iops 6000
expect_rc 0 "table output"
expect_out_has "  Total:        \$26.22" "table shows the total rounded to cents"
expect_out_has "1 x gp3 100 GiB in ap-northeast-2" "table title"
# csv is one table: a result without a list is one row, keys as JSON paths
run --region ap-northeast-2 --format csv cost --type gp3 --size 100 --iops 6000
expect_out_has "region,currency,type,size_gib,iops,throughput_mibps,count,monthly_usd.storage,monthly_usd.iops,monthly_usd.throughput,monthly_usd.io,monthly_usd.total,performance.baseline_iops," \
	"csv: one header with every field"
# one rule for machine numbers: 100 x 0.0912 (9.120000000000001 in binary) is 9.12
expect_out_has "ap-northeast-2,USD,gp3,100,6000,125,1,9.12,17.1,0,0,26.22,6000," \
	"csv: one row, the storage cost 100 x 0.0912 = 9.12"
[ "$(wc -l <"$T/out")" = 2 ] && ok "csv: two lines" || fail "csv: two lines"
run --region ap-northeast-2 --format csv --table monthly_usd cost --type gp3 --size 100 --iops 6000
expect_out_has "storage,iops,throughput,io,total" "csv --table monthly_usd: that record's header"
expect_out_has "9.12,17.1,0,0,26.22" "csv --table monthly_usd: its row"
run --region ap-northeast-2 --format md cost --type gp3 --size 100 --iops 6000
expect_out_has "| Total | \$26.22 |" "markdown row"

# --- every usage error
usage_error "missing --type" "missing --type (gp2, gp3, io1, io2, st1, sc1 or standard)" cost --size 10
usage_error "missing --size" "missing --size GIB" cost --type gp3
usage_error "unknown type" "unknown volume type 'gp4' (use gp2, gp3, io1, io2, st1, sc1 or standard)" cost --type gp4 --size 10
usage_error "size with an unknown unit" "--size must be a whole number from 1 to 10000000 GiB (such as 500, 500GiB or 1TiB), not '10GB'" cost --type gp3 --size 10GB
usage_error "size zero" "--size must be a whole number from 1 to 10000000 GiB (such as 500, 500GiB or 1TiB), not '0'" cost --type gp3 --size 0
usage_error "negative size" "--size must be a whole number from 1 to 10000000 GiB (such as 500, 500GiB or 1TiB), not '-5'" cost --type gp3 --size -5
usage_error "fractional iops" "--iops must be a whole number from 1 to 100000000 (such as 16000 or 16k), not '3000.5'" cost --type gp3 --size 10 --iops 3000.5
usage_error "bad throughput" "--throughput must be a whole number from 1 to 1000000 MiB/s (such as 500 or 500MiB/s), not 'fast'" cost --type gp3 --size 10 --throughput fast
usage_error "bad count" "--count must be a whole number from 1 to 1000, not '0'" cost --type gp3 --size 10 --count 0
usage_error "bad io-per-month" "--io-per-month must be a number from 0 to 1e+18, not 'lots'" cost --type standard --size 10 --io-per-month lots
usage_error "io1 without iops" "--iops is required for io1 volumes" cost --type io1 --size 100
usage_error "io2 without iops" "--iops is required for io2 volumes" cost --type io2 --size 100
usage_error "io-per-month on gp3" "--io-per-month applies to standard volumes only" cost --type gp3 --size 10 --io-per-month 5
usage_error "unknown option" "unknown option '--colour'" cost --type gp3 --size 10 --colour
usage_error "option without value" "option '--size' needs a value" cost --type gp3 --size
usage_error "stray argument" "unexpected argument 'extra'" cost --type gp3 --size 10 extra

# --- every illegal configuration: rule, nearest legal configuration, exit 1
illegal() {
	desc=$1 rule=$2 near=$3
	shift 3
	run "$@"
	want=$(printf 'error: illegal configuration: %s\nhint: nearest legal configuration: ebsize cost %s' "$rule" "$near")
	if [ "$rc" = 1 ] && [ "$(cat "$T/err")" = "$want" ] && [ ! -s "$T/out" ]; then
		ok "$desc"
	else
		fail "$desc" "expected exit 1 and: $want"
	fi
}
illegal "gp3 10 GiB at 6,000 IOPS" \
	"gp3 allows at most 500 IOPS per GiB: 6000 IOPS need at least 12 GiB" \
	"--type gp3 --size 12 --iops 6000 --throughput 125" cost --type gp3 --size 10 --iops 6000
illegal "gp3 throughput above 0.25 MiB/s per IOPS" \
	"gp3 allows at most 0.25 MiB/s per provisioned IOPS: 1000 MiB/s need at least 4000 IOPS" \
	"--type gp3 --size 100 --iops 4000 --throughput 1000" cost --type gp3 --size 100 --throughput 1000
illegal "gp3 IOPS below 3,000" "gp3 IOPS must be 3000 to 80000; 2000 is out of range" \
	"--type gp3 --size 100 --iops 3000 --throughput 125" cost --type gp3 --size 100 --iops 2000
illegal "gp3 IOPS above 80,000" "gp3 IOPS must be 3000 to 80000; 90000 is out of range" \
	"--type gp3 --size 200 --iops 80000 --throughput 125" cost --type gp3 --size 200 --iops 90000
illegal "gp3 throughput above 2,000" "gp3 throughput must be 125 to 2000 MiB/s; 2500 is out of range" \
	"--type gp3 --size 100 --iops 8000 --throughput 2000" cost --type gp3 --size 100 --iops 8000 --throughput 2500
illegal "gp3 throughput below 125" "gp3 throughput must be 125 to 2000 MiB/s; 100 is out of range" \
	"--type gp3 --size 100 --iops 3000 --throughput 125" cost --type gp3 --size 100 --throughput 100
illegal "gp3 above 64 TiB" "gp3 volumes are 1 to 65536 GiB; 70000 GiB is out of range" \
	"--type gp3 --size 65536 --iops 3000 --throughput 125" cost --type gp3 --size 70000
illegal "io1 above 50 IOPS per GiB" "io1 allows at most 50 IOPS per GiB: 6000 IOPS need at least 120 GiB" \
	"--type io1 --size 120 --iops 6000" cost --type io1 --size 100 --iops 6000
illegal "io1 above 64,000 IOPS" "io1 IOPS must be 100 to 64000; 70000 is out of range" \
	"--type io1 --size 2000 --iops 64000" cost --type io1 --size 2000 --iops 70000
illegal "io1 below 4 GiB" "io1 volumes are 4 to 16384 GiB; 2 GiB is out of range" \
	"--type io1 --size 4 --iops 100" cost --type io1 --size 2 --iops 100
illegal "io2 above 1,000 IOPS per GiB" "io2 allows at most 1000 IOPS per GiB: 20000 IOPS need at least 20 GiB" \
	"--type io2 --size 20 --iops 20000" cost --type io2 --size 10 --iops 20000
illegal "io2 IOPS below 100" "io2 IOPS must be 100 to 256000; 50 is out of range" \
	"--type io2 --size 10 --iops 100" cost --type io2 --size 10 --iops 50
illegal "st1 below 125 GiB" "st1 volumes are 125 to 16384 GiB; 100 GiB is out of range" \
	"--type st1 --size 125" cost --type st1 --size 100
illegal "sc1 below 125 GiB" "sc1 volumes are 125 to 16384 GiB; 124 GiB is out of range" \
	"--type sc1 --size 125" cost --type sc1 --size 124
illegal "gp2 above 16 TiB" "gp2 volumes are 1 to 16384 GiB; 20000 GiB is out of range" \
	"--type gp2 --size 16384" cost --type gp2 --size 20000
illegal "standard above 1 TiB" "standard volumes are 1 to 1024 GiB; 2000 GiB is out of range" \
	"--type standard --size 1024" cost --type standard --size 2000
illegal "IOPS on gp2" "IOPS cannot be provisioned on gp2: it delivers 3 IOPS per GiB (2000 GiB for 6000 IOPS)" \
	"--type gp2 --size 2000" cost --type gp2 --size 100 --iops 6000
illegal "IOPS on st1" "IOPS cannot be provisioned on st1" "--type st1 --size 500" cost --type st1 --size 500 --iops 500
illegal "throughput on io2" "throughput cannot be provisioned on io2 (only on gp3)" \
	"--type io2 --size 100 --iops 1000" cost --type io2 --size 100 --iops 1000 --throughput 500

# --- runtime error: no prices for a region
run --region eu-south-9 cost --type gp3 --size 100
expect_rc 1 "a region without prices exits 1"
expect_err "error: no prices for region 'eu-south-9': ebsize does not know region 'eu-south-9' (a typing error, or a region newer than its data)
hint: get them with 'ebsize pricing fetch --region eu-south-9', or with 'aws pricing get-products --region us-east-1 --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=eu-south-9 Type=TERM_MATCH,Field=volumeApiName,Value=gp3 | ebsize pricing import -'
hint: 'ebsize pricing regions' shows which regions have prices" "a region without prices is named, with both ways to get them"

# human units (issue 10): 1TiB = 1024 GiB, 16k IOPS, 1GiB/s = 1024 MiB/s;
# us-east-1 gp3 (T6): 1024 x 0.08 = 81.92; (16000 - 3000) x 0.005 = 65.00;
# (1024 - 125) x 0.04 = 35.96; total 182.88
run --format json cost --type gp3 --size 1TiB --iops 16k --throughput 1GiB/s
expect_rc 0 "units: 1TiB, 16k, 1GiB/s accepted"
expect_json size_gib 1024 "units: 1TiB is 1024 GiB"
expect_json iops 16000 "units: 16k IOPS"
expect_json throughput_mibps 1024 "units: 1GiB/s is 1024 MiB/s"
expect_json monthly_usd.total 182.88 "units: total 182.88" 0.005
run --format json cost --type gp3 --size 500GiB
expect_json size_gib 500 "units: 500GiB"
usage_error "a size in TiB that is not whole GiB" \
	"--size must be a whole number from 1 to 10000000 GiB (such as 500, 500GiB or 1TiB), not '0.0001TiB'" \
	cost --type gp3 --size 0.0001TiB
