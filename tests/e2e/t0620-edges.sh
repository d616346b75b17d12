#!/bin/sh
# t0620-edges: regression tests for issue 10 ("right at the edges"), one
# block per item, each expectation worked by hand from ebs-facts.md (T2
# gp2, T3 gp3, T4 io2, T5 st1/sc1, T6 prices, T11 instances) in the
# comment above it.  Items 5 and 6 are also covered by t4020 (through the
# AWS CLI) and the unit tests; items 8 and 9 by the sweep in t0720; item 1
# by the property test in t0710.
. "$(dirname "$0")/../lib/test-lib.sh"

# ---------------------------------------------------------------- 1 gp3 below 6 GiB
# T3: any gp3 carries the included 3,000 IOPS (max IOPS for size =
# max(3,000, 500 x GiB)), so a 1 GiB gp2 gets a 1 GiB gp3:
# gp2 1 x 0.10 = 0.10, gp3 1 x 0.08 = 0.08: saves 0.02 = 20 %.
run --format json compare --sizes 1,2,5
expect_rc 0 "compare --sizes 1,2,5"
expect_json rows.1.size_gib 1 "gp3 for gp2 1 GiB is 1 GiB (not 6)"
expect_json rows.1.monthly_usd 0.08 "gp3 1 GiB costs 0.08"
expect_json rows.1.savings_pct 20 "saves 20 % (not -380 %)"
expect_json rows.3.size_gib 2 "gp3 for gp2 2 GiB is 2 GiB"
expect_json rows.5.size_gib 5 "gp3 for gp2 5 GiB is 5 GiB"
expect_json rows.5.savings_usd 0.1 "0.50 - 0.40 = 0.10"
# cheapest agreed already; the one rule keeps it: 3,000 IOPS need 1 GiB,
# 3,001 need ceil(3,001 / 500) = 7 GiB
run --format json cheapest --types gp3 --max-stripe 1 --iops 3000 --size 1 --io-size 1
expect_json options.0.size_gib 1 "cheapest: 3,000 IOPS on 1 GiB"
run --format json cheapest --types gp3 --max-stripe 1 --iops 3001 --size 1 --io-size 1
expect_json options.0.size_gib 7 "cheapest: 3,001 IOPS need 7 GiB"

# ---------------------------------------------------------------- 2 io2 0.256 MiB/s per IOPS
# 2,300 I/O of 1,024 KiB = 2,300 MiB/s; T4: io2 carries 0.256 MiB/s per IOPS:
# 2,300 / 0.256 = 8,984.375 -> 8,985 IOPS (not 2,300 x 4 = 9,200).
# ap-northeast-2 (T6): 901 x 0.1278 + 8,985 x 0.0666 = 115.1478 + 598.401 = 713.5488
run --region ap-northeast-2 --format json cheapest --iops 2300 --throughput 854 --size 901 \
	--io-size 1024 --types io2 --max-stripe 1
expect_json options.0.iops 8985 "io2 for 2,300 MiB/s: 8,985 IOPS"
expect_json options.0.monthly_usd.total 713.5488 "io2 costs 713.5488 (not 727.87)" 1e-6

# ---------------------------------------------------------------- 3 never slower is true
# gp2 100 GiB sustains 300 IOPS x 256 KiB = 75 MiB/s (T2).  st1 sustains 40
# MiB/s per TiB: 75 / 40 = 1.875 TiB = 1,920 GiB; sc1 12 per TiB: 6.25 TiB
# = 6,400 GiB (T5).  Neither carries gp2's 3,000 IOPS (500 / 250 at most,
# T1): slower, no saving.
run --format json compare --sizes 100 --types gp2,gp3,st1,sc1
expect_json rows.2.type st1 "st1 row"
expect_json rows.2.size_gib 1920 "st1 sized to gp2's sustained 75 MiB/s"
expect_json rows.2.sustained_mibps 75 "st1 1,920 GiB sustains 75 MiB/s"
expect_json rows.2.slower True "st1 is slower"
expect_json rows.2.savings_usd None "a slower row shows no saving"
expect_json rows.2.vs_gp2 "slower: st1 cannot match 3000 IOPS (at most 500, 1 MiB each)" "st1 says why"
expect_json rows.3.size_gib 6400 "sc1 sized to 75 MiB/s"
expect_json rows.3.savings_pct None "sc1: no saving (not 85 %)"
# gp3 keeps the included 125 MiB/s, 3 below gp2's 128 (T2, T3; the
# decision in the README): said, and the saving 10.00 - 8.00 stays
expect_json rows.1.slower False "gp3 at 125 MiB/s is not marked slower"
expect_json rows.1.vs_gp2 "3 MiB/s below gp2's 128 MiB/s peak" "gp3 row says the 3 MiB/s"
expect_json rows.1.savings_usd 2 "gp3 saves 2.00"
# --throughput 128 prices the match: 8.00 + 3 x 0.04 = 8.12
run --format json compare --sizes 100 --throughput 128
expect_json rows.1.throughput_mibps 128 "--throughput 128"
expect_json rows.1.monthly_usd 8.12 "gp3 at 128 MiB/s costs 8.12"
expect_json rows.1.vs_gp2 "never slower" "gp3 at 128 MiB/s is never slower"
# a gp2 of 600 GiB reaches 250 MiB/s: gp3 at 200 is slower, no saving
run --format json compare --sizes 600 --throughput 200
expect_json rows.1.slower True "gp3 at 200 MiB/s against gp2 600 GiB is slower"
expect_json rows.1.vs_gp2 "slower: 200 of 250 MiB/s" "... and says by how much"
expect_json rows.1.savings_usd None "... with no saving"
usage_error "compare --throughput without gp3" "--throughput sets the gp3 rows: add gp3 to --types" \
	compare --types io1 --throughput 200
usage_error "compare --throughput below gp3's minimum" \
	"--throughput must be a whole number from 125 to 2000 MiB/s (such as 500 or 500MiB/s), not '100'" \
	compare --throughput 100
# the scan reason says the same (gp2 8 GiB, real aws-cli fixture)
run --format json scan "$FIXTURES/describe-volumes-awscli-example-2019.json"
expect_finding vol-049df61146c4d7901 reason \
	"gp3 at 3000 IOPS and 125 MiB/s never has fewer IOPS than gp2 of 8 GiB; its 125 MiB/s is 3 MiB/s below gp2's 128 MiB/s peak" \
	"scan: no 'nowhere slower' for gp2 of 170 GiB or less"

# ---------------------------------------------------------------- 4 the limit that binds
# 2,000 I/O of 1 MiB on 8 sc1: 250 I/O per second each is within sc1's 250
# (T1), but 250 MiB/s each is above what sc1 sustains, 12 MiB/s per TiB x
# 16 TiB = 192 MiB/s (T5): the throughput binds.
run --format json cheapest --iops 2000 --throughput 300 --size 2000 --io-size 1024
expect_json notes.1 "sc1 ruled out: even as a stripe of 8, one sc1 volume sustains at most 192 MiB/s (250 needed)" \
	"sc1 note names its throughput"

# ---------------------------------------------------------------- 10 durations in integers
# 500 GiB at 3,000 IOPS: 5,400,000 / (3,000 - 1,500) = 3,600 s; + 10 % = 3,960
run --format json burst --size 500 --load 3000
expect_json seconds 3960 "default duration 3,960 s (not 3,961)"
expect_json time_to_empty_s 3600 "empty after 3,600 s"

# ---------------------------------------------------------------- 9 types, not placeholders
run --format json cheapest --iops 3000 --types gp3,gp2 --max-stripe 1
expect_json request.types '["gp2", "gp3"]' "request.types is a JSON array"
expect_json options.0.burst_note None "burst_note is null when there is nothing to say"
# burst-only gp2 1 GiB: 5,400,000 / (3,000 - 100) = 1,862 s (T2 table)
expect_json options.2.burst_seconds 1862 "burst seconds are a number"
expect_json options.2.burst_note "burst-only: 31 min from a full bucket" "... and the note reads minutes"
run --format csv --table request cheapest --iops 3000 --types gp3,gp2 --max-stripe 1
expect_out_has '"gp2,gp3"' "CSV joins the list in one field"

# ---------------------------------------------------------------- 11 an instance that only bursts
# 20,000 IOPS and 500 MiB/s: m6i.2xlarge has a 12,000 IOPS baseline (T11),
# m6i.4xlarge 20,000 IOPS and 625 MB/s = 596.0 MiB/s
run --format json cheapest --iops 20000 --throughput 500 --size 200 --instance m6i.2xlarge --top 2
expect_json request.instance_fit instance-burst "m6i.2xlarge only bursts there"
expect_json request.instance_sustained_by m6i.4xlarge "m6i.4xlarge sustains it"
expect_json notes.1 "the smallest size of the same family that sustains it: m6i.4xlarge (baseline 20000 IOPS, 596.0 MiB/s)" \
	"note names the size that sustains it"
run cheapest --iops 20000 --throughput 500 --size 200 --instance m6i.2xlarge --top 2
expect_out_has "no: instance bursts" "table: not 'Sustained yes' on a bursting instance"
run --format json cheapest --iops 20000 --throughput 500 --size 200 --instance m6i.4xlarge --top 1
expect_json request.instance_sustained_by None "within the baseline: nothing to suggest"

# ---------------------------------------------------------------- 12 --as-of everywhere
# volume rules start 2020-12-01 (gp3 previous limits), prices 2022-02-10
run cost --type gp3 --size 100 --as-of 2019-01-01
expect_rc 1 "cost before the first rules"
expect_err "error: no gp3 volume rules in force as of 2019-01-01: the earliest are from 2020-12-01" \
	"cost says the earliest rules"
run cost --type gp3 --size 100 --as-of 2021-06-01
expect_err "error: no prices for region 'us-east-1' as of 2021-06-01: the earliest are as of 2022-02-10
hint: '--as-of 2022-02-10' or later uses the earliest prices ebsize holds" \
	"cost says the earliest prices"
# T3: 1,500 MiB/s is legal since the 2025 raise (max 2,000), not before (1,000)
run cost --type gp3 --size 100 --iops 6000 --throughput 1500 --as-of 2024-06-01
expect_rc 1 "gp3 1,500 MiB/s refused under the 2024 rules"
expect_err_has "gp3 throughput must be 125 to 1000 MiB/s" "... with the old maximum"
run --format json cost --type gp3 --size 100 --iops 6000 --throughput 1500 --as-of 2025-10-01
expect_json prices.rules_from 2025-09-01 "legal under the rules from 2025-09-01"
# 100 x 0.08 + 3,000 x 0.005 + 1,375 x 0.04 = 8 + 15 + 55 = 78
expect_json monthly_usd.total 78 "and costs 78.00"
run compare --as-of 2019-01-01
expect_err "error: no prices for region 'us-east-1' as of 2019-01-01: the earliest are as of 2022-02-10
hint: '--as-of 2022-02-10' or later uses the earliest prices ebsize holds" \
	"compare says the earliest prices"
run --format json compare --sizes 100 --throughput 1500 --as-of 2024-06-01
expect_rc 1 "compare --throughput 1500 under the 2024 rules"
run burst --size 100 --load 3000 --as-of 2019-01-01
expect_err "error: no gp2 volume rules in force as of 2019-01-01: the earliest are from 2020-12-01" \
	"burst says the earliest rules"
run --format json burst --size 100 --load 3000 --as-of 2024-06-01
expect_json time_to_empty_s 2000 "burst --as-of a date with rules runs"
run pricing show --as-of 2020-01-01
expect_err_has "error: no prices for region 'us-east-1' as of 2020-01-01: the earliest are as of 2022-02-10" \
	"pricing show says the earliest prices"
run --format json pricing show --type gp2 --as-of 2023-01-01
expect_json prices.0.as_of 2022-02-10 "pricing show --as-of: the snapshot in force then"

# ---------------------------------------------------------------- 13 durations people read
# gp2 1 GiB: 5,400,000 / 2,900 = 1,862 s = 31 min; gp2 900 GiB: 5,400,000 /
# 300 = 18,000 s = 5.0 h (T2)
run compare --sizes 1
expect_out_has "31 min" "compare shows the cliff in minutes"
run cost --type gp2 --size 900
expect_out_has "Burst from full bucket: 5.0 h" "cost shows hours"
run --format json cost --type gp2 --size 900
expect_json performance.burst_seconds 18000 "JSON keeps seconds"
run burst --size 500 --load 3000
expect_out_has "Bucket empty after:   60 min" "burst shows minutes"
# input: human units
run --format json cost --type gp3 --size 1TiB --iops 3k
expect_json size_gib 1024 "--size 1TiB"
expect_json iops 3000 "--iops 3k"
