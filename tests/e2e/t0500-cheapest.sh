#!/bin/sh
# t0500-cheapest: `ebsize cheapest` end to end; money by hand from T6
# (us-east-1 unless stated), instance limits from T11.
. "$(dirname "$0")/../lib/test-lib.sh"

run --format json cheapest --iops 20000 --throughput 500 --size 200
expect_rc 0 "20k IOPS, 500 MiB/s, 200 GiB"
expect_json options.0.type gp3 "cheapest is gp3"
expect_json options.0.count 8 "... striped over 8 volumes"
expect_json options.0.size_gib 25 "... of 25 GiB"
expect_json options.0.iops 3000 "... each at the included 3,000 IOPS"
expect_json options.0.monthly_usd.total 16 "8 x 25 x 0.08 = \$16.00" 1e-9
expect_json options.0.sustained True "sustained"
expect_json options.1.count 1 "second: one gp3"
expect_json options.1.monthly_usd.total 116 "16 + 17,000 x 0.005 + 375 x 0.04 = \$116" 1e-9
expect_json request.iops 20000 "request echoed"
expect_json options.0.evidence.0.label published-A-gp3-100 "evidence: the published gp3 3,000/125 run"
expect_json options.0.evidence.0.iops 3001 "evidence: 3,001 IOPS measured"
expect_json options.0.evidence.0.p99_ms 12.9 "evidence: p99 12.9 ms"
grep -q '"a stripe of 8 x gp3 beats one gp3 volume by $100.00 a month (86 %)"' "$T/out" &&
	ok "a note says how much the stripe saves" || fail "a note says how much the stripe saves"
grep -q 'st1 ruled out: 16 KiB I/O is small random I/O' "$T/out" &&
	ok "st1 ruled out for small I/O, said" || fail "st1 ruled out for small I/O, said"
expect_json instances.0.family m5 "families listed without --instance"
expect_json instances.0.sustained m5.8xlarge "m5.8xlarge is the smallest m5 with 20,000 baseline IOPS (T11: 4xlarge has 18,750)"

# --instance: within the m6i.2xlarge maximum but above its baseline (12,000 IOPS)
run --format json cheapest --iops 20000 --throughput 500 --size 200 --instance m6i.2xlarge
expect_rc 0 "on m6i.2xlarge"
expect_json options.0.instance_fit instance-burst "above baseline: instance burst only"
expect_json request.instance_fit instance-burst "the request says so too"

# above m5.large's maximum (18,750 IOPS, T11): nothing, nearest feasible, exit 1
run --format json cheapest --iops 20000 --instance m5.large
expect_rc 1 "20k IOPS on m5.large is infeasible"
expect_err "error: no volume set meets the need on m5.large" "infeasible error message"
expect_json nearest.0.baseline_iops 21000 "nearest: the 18,750 IOPS m5.large carries, on 7 gp3 at 3,000"
grep -q 'm5.large carries at most 18750 IOPS' "$T/out" && ok "the note names the instance limit" ||
	fail "the note names the instance limit"

# 300,000 IOPS on a single volume: io2 tops out at 256,000 (T4)
run --format json cheapest --iops 300000 --io-size 4 --max-stripe 1
expect_rc 1 "300,000 IOPS with --max-stripe 1 is infeasible"
expect_json nearest.0.type io2 "nearest feasible: io2"
expect_json nearest.0.count 2 "... a stripe of two"
grep -q 'one io2 volume carries at most 256000 IOPS' "$T/out" && ok "the io2 limit is explained" ||
	fail "the io2 limit is explained"

# burst-only gp2 and --peak
run --format json cheapest --iops 3000 --size 100 --types gp2
expect_json options.0.size_gib 1000 "gp2 sustaining 3,000 IOPS: 1,000 GiB"
expect_json options.1.sustained False "gp2 100 GiB is burst-only"
expect_json options.1.burst_seconds 2000 "... for 2,000 s (T2)"
run --format json cheapest --iops 200 --io-size 4 --peak 3000:600/3600 --types gp2 --max-stripe 1
expect_json options.0.size_gib 223 "--peak 3000:600/3600: gp2 223 GiB covers the peak and refills in the hour"

# st1 for a large sequential need
run --format json cheapest --throughput 500 --io-size 1024 --size 12800 --types st1,sc1,gp3,gp2
expect_json options.0.type st1 "500 MiB/s sequential on 12.5 TiB: st1"
expect_json options.0.monthly_usd.total 576 "12,800 x 0.045" 1e-9

# --as-of: the 2024 gp3 limits (16,000 IOPS, T3 previous) force a stripe
run --format json cheapest --iops 60000 --io-size 4 --types gp3 --max-stripe 1 --as-of 2024-06-01
expect_rc 1 "60,000 IOPS on one gp3 as of 2024: infeasible (max 16,000)"
run --format json cheapest --iops 60000 --io-size 4 --types gp3 --max-stripe 1
expect_rc 0 "60,000 IOPS on one gp3 today (max 80,000)"
expect_json options.0.size_gib 120 "60,000 IOPS need 120 GiB at 500 IOPS/GiB"

# Seoul: the region changes the price
run --region ap-northeast-2 --format json cheapest --iops 3000 --size 100 --types gp3
expect_json options.0.monthly_usd.total 9.12 "Seoul gp3 100 GiB \$9.12 (article)" 1e-9

run cheapest --iops 20000 --throughput 500 --size 200
expect_rc 0 "table output"
expect_out_has "Options" "table has the options"
expect_out_has "Smallest instances that carry it" "table has the instances"

usage_error "nothing asked" "say what is needed: --iops, --throughput and/or --size" cheapest
usage_error "bad iops" "--iops must be a number from 1 to 1e+07 (such as 16000 or 16k), not 'many'" cheapest --iops many
usage_error "bad types" "unknown volume type 'gp9' in --types" cheapest --iops 100 --types gp3,gp9
usage_error "bad stripe" "--max-stripe must be a whole number from 1 to 64, not '0'" cheapest --iops 100 --max-stripe 0
usage_error "bad peak" "--peak must be IOPS:SECONDS[/PERIOD] with SECONDS >= 1 and shorter than PERIOD (default 86400, at most a year), not '3000'" cheapest --iops 100 --peak 3000
usage_error "peak below need" "--peak IOPS must be above --iops" cheapest --iops 5000 --peak 3000:60
usage_error "bad date" "--as-of must be a date YYYY-MM-DD, not '2024-13-01'" cheapest --iops 100 --as-of 2024-13-01
usage_error "bad io size" "--io-size must be a number from 0.5 to 16384 KiB (such as 16, 16KiB or 1MiB), not '0'" cheapest --iops 100 --io-size 0
run cheapest --iops 100 --instance z9.mega
expect_rc 1 "unknown instance exits 1"
expect_err "error: unknown instance type 'z9.mega'
hint: 'ebsize instances show' lists every known type" "unknown instance is named"

# with stripes allowed, seven 1 GiB gp2 (100 IOPS and a full 5.4 M bucket
# each) cover the same peak: (3000/7 - 100) x 600 <= (100 - 200/7) x 3000
run --format json cheapest --iops 200 --io-size 4 --peak 3000:600/3600 --types gp2
expect_json options.0.count 7 "the peak spread over 7 small gp2 buckets"
expect_json options.0.monthly_usd.total 0.7 "7 x 1 x 0.10" 1e-9
expect_json options.0.peak_covered True "marked as covered by credits"

# nearest for 300,000 IOPS on one volume also names the cheapest wide stripe:
# 64 x gp3 10 GiB at 4,688 IOPS: 64 x (0.8 + 1,688 x 0.005) = $591.36
run --format json cheapest --iops 300000 --max-stripe 1
expect_json nearest.1.count 64 "nearest: also the cheapest stripe up to 64"
expect_json nearest.1.monthly_usd.total 591.36 "64 x (10 x 0.08 + 1,688 x 0.005)" 1e-6
usage_error "peak longer than a day" "--peak must be IOPS:SECONDS[/PERIOD] with SECONDS >= 1 and shorter than PERIOD (default 86400, at most a year), not '3000:100000'" cheapest --iops 100 --peak 3000:100000
usage_error "no 30 February" "--as-of must be a date YYYY-MM-DD, not '2024-02-30'" cheapest --iops 100 --as-of 2024-02-30
run --format json cheapest --iops 100 --as-of 2024-02-29
expect_rc 0 "29 February 2024 is a date"
# CSV: placeholders stay plain, notes are kept
run --format csv cheapest --iops 100 --types io1
grep -q "'-" "$T/out" && fail "csv placeholders are not defused into '-" || ok "csv placeholders are not defused into '-"
run --format csv cheapest --iops 100 --top 1
expect_err_has "note: 3 more options; --top 4 shows all" "csv: the notes go to stderr"
run --format csv --table notes cheapest --iops 100 --top 1
expect_out_has "note" "csv --table notes: the notes as a table"
expect_out_has "3 more options; --top 4 shows all" "csv --table notes: the note"
