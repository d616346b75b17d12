#!/bin/sh
# t0600-compare-burst: `compare` reproduces the article's Seoul cost table
# (seed-benchmarks.md A); `burst` reproduces T2 and the article's idle
# credits.
. "$(dirname "$0")/../lib/test-lib.sh"

run --region ap-northeast-2 --format json compare
expect_rc 0 "compare with defaults in Seoul"
# rows: per size gp2 then gp3; 100 GiB is the second size
expect_json rows.2.type gp2 "100 GiB gp2 row"
expect_json rows.2.monthly_usd 11.4 "gp2 100 GiB \$11.40 (article)" 1e-9
expect_json rows.2.sustained_iops 300 "300 sustained IOPS (article)"
expect_json rows.2.burst_iops 3000 "3,000 burst (article)"
expect_json rows.2.cliff_seconds 2000 "burst <= 33 min: 2,000 s (article)"
expect_json rows.2.max_throughput_mibps 128 "128 MiB/s (article)"
expect_json rows.3.type gp3 "100 GiB gp3 row"
expect_json rows.3.monthly_usd 9.12 "gp3 100 GiB \$9.12 (article)" 1e-9
expect_json rows.3.iops 3000 "3,000 IOPS"
expect_json rows.3.throughput_mibps 125 "125 MiB/s"
expect_json rows.3.savings_usd 2.28 "saves \$2.28" 1e-9
expect_json rows.3.savings_pct 20 "saves 20 %" 1e-9
# the downgrade trap: gp2 2,000 GiB has 6,000 baseline IOPS and 250 MiB/s
expect_json rows.13.iops 6000 "gp3 for gp2 2,000 GiB keeps 6,000 IOPS"
expect_json rows.13.throughput_mibps 250 "... and 250 MiB/s"
expect_json rows.13.monthly_usd 205.2 "2000 x 0.0912 + 3000 x 0.0057 + 125 x 0.0456" 1e-9

run --region ap-northeast-2 --format json compare --sizes 100 --iops 6000 --types gp3
expect_json rows.1.monthly_usd 26.22 "gp3 100 GiB + 6,000 IOPS \$26.22 (article)" 1e-9
run --region ap-northeast-2 --format json compare --sizes 1000
expect_json rows.0.monthly_usd 114 "gp2 1,000 GiB sized for IOPS \$114.00 (article)" 1e-9
run --format json compare --sizes 500 --types io1,st1
expect_json rows.1.type io1 "io1 row with --types"
expect_json rows.1.iops 3000 "io1 given 3,000 IOPS"
expect_json rows.2.type st1 "st1 row"
usage_error "bad sizes" "--sizes must be up to 64 sizes of 1 to 65536 GiB (such as 500,1TiB), not '100,abc'" compare --sizes 100,abc

# burst: T2 for 100 GiB, and the article's idle credits
run --format json burst --size 100 --load 3000
expect_rc 0 "burst 100 GiB at 3,000 IOPS"
expect_json time_to_empty_s 2000 "bucket empty after 2,000 s (T2)"
expect_json refill_seconds 18000 "refill 18,000 s (T2)"
for sz in 1:1862 334:2703 500:3600 750:7200 900:18000; do
	run --format json burst --size "${sz%%:*}" --load 3000
	expect_json time_to_empty_s "${sz#*:}" "gp2 ${sz%%:*} GiB empties after ~${sz#*:} s (T2)" 1
done
run --format json burst --size 100 --load 3000 --idle 120 --duration 120
expect_json average_delivered 601 "120 s idle then 120 s at qd32: ~601 IOPS (article; model 600)" 6.01
run --format json burst --size 100 --load 3000 --idle 60 --duration 60
expect_json average_delivered 603 "60 s idle then 60 s: ~603 IOPS (article; model 600)" 6.03
run --format json burst --size 100 --load 3000 --credits 50%
expect_json time_to_empty_s 1000 "half a bucket lasts 1,000 s"
run --format json burst --size 1024 --type st1 --load 250 --duration 10000
expect_json baseline 40 "st1 1 TiB baseline 40 MiB/s (T5)"
expect_json time_to_empty_s 4994 "st1 1 TiB: 1 TiB of credit at 210 MiB/s net lasts 4,993 s" 1

cat >"$T/profile" <<'P'
# batch peak each hour (test profile, generated)
3000 600
idle 3000
repeat 24
P
run --format json burst --size 100 --profile "$T/profile"
expect_rc 0 "burst --profile"
expect_json steady_state.period_s 3600 "profile period 3,600 s"
expect_json steady_state.credits_at_period_start 900000 "steady: 0.9 M credits at the start of each hour" 1
run burst --size 100 --load 3000 --duration 5 --timeline
expect_rc 0 "--timeline"
expect_out_has "t_s,demand,delivered,credits,credits_pct" "timeline CSV header"
expect_out_has "5,3000,3000,5386500,99.75" "5 s at 3,000: 5.4 M - 5 x 2,700 credits"

printf '3000\n' >"$T/bad"
run burst --size 100 --profile "$T/bad"
expect_rc 1 "a bad profile exits 1"
expect_err "error: cannot parse profile '$T/bad': line 1: expected 'RATE SECONDS', 'idle SECONDS' or 'repeat N'" \
	"a bad profile names the file and line"
run burst --size 100 --profile "$T/missing"
expect_rc 1 "a missing profile exits 1"
expect_err "error: cannot open '$T/missing': No such file or directory" "a missing profile is named"
usage_error "burst without size" "missing --size GIB" burst --load 100
usage_error "burst without load" "give either --load RATE or --profile FILE" burst --size 100
usage_error "burst gp3" "--type must be gp2, st1 or sc1 (the types with a credit bucket), not 'gp3'" burst --size 100 --type gp3 --load 1
usage_error "burst small st1" "st1 volumes are 125 to 16384 GiB under the rules in force today; 100 GiB is out of range" burst --size 100 --type st1 --load 1
usage_error "burst both idle and credits" "give --idle or --credits, not both" burst --size 100 --load 1 --idle 5 --credits 5%
usage_error "burst bad credits" "--credits must be a percentage (0% to 100%) or a count up to 5400000, not '120%'" burst --size 100 --load 1 --credits 120%

# demand above the ceiling is a shortfall too: gp2 2,000 GiB gives 6,000
run --format json burst --size 2000 --load 10000 --duration 100
expect_json average_delivered 6000 "gp2 2,000 GiB delivers its 6,000 baseline"
expect_json shortfall_seconds 100 "every second falls short of 10,000"
run burst --size 100 --load 3000 --duration 2 --timeline --format json
expect_out_has '{"timeline":[{"t_s":1,"demand":3000,"delivered":3000,"credits":5397300,"credits_pct":99.95},' "timeline as JSON"
# a profile that drains 100 credits a month settles only after years: the
# search is bounded and says so (generated profile)
printf 'idle 1\n100 2678399\n' >"$T/slow"
for i in 1 2 3 4 5 6 7 8 9 10; do printf '100 2678400\n' >>"$T/slow"; done
run --format json burst --size 1 --profile "$T/slow" --credits 0
expect_rc 0 "a slowly settling profile finishes"
expect_json steady_state.periods_to_settle None "... without claiming to have settled"
grep -q 'had not settled after 50000000 simulated seconds' "$T/out" && ok "... and says so" || fail "... and says so"
