#!/bin/sh
# t2200-pricing-history-diff: `ebsize pricing history` and `pricing diff`
# over snapshots made by importing the real fixtures (and one GENERATED
# change: the aps1 example with its price raised).
. "$(dirname "$0")/../lib/test-lib.sh"
USW2=$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json
APS1=$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json

run pricing history -h
expect_rc 0 "history -h exits 0"
run pricing diff -h
expect_rc 0 "diff -h exits 0"
usage_error "history: extra argument" "unexpected argument 'x'" pricing history x
usage_error "diff: three ids" "unexpected argument '3'" pricing diff 1 2 3
usage_error "diff: not an id" "a snapshot id must be a whole number from 1 to 2147483647, not 'x'" pricing diff x

run --format json pricing history
expect_rc 0 "history on a fresh database"
expect_json snapshots.0.source embedded "fresh: only the embedded snapshot"
# the 26 regions pricing/sources/SOURCES.md lists as priced; 347 prices
# (every non-empty value of the table but the per-GiBps duplicate)
expect_json snapshots.0.regions 26 "embedded: 26 priced regions"
expect_json snapshots.0.prices 347 "embedded: 347 prices"
expect_json snapshots.0.in_force_regions 26 "embedded: in force for all 26"

run pricing diff
expect_rc 1 "diff needs two snapshots"
expect_err "error: fewer than two price snapshots to compare" "diff with one snapshot: message"

run pricing import "$USW2"
sed 's/0\.1380000000/0.2070000000/' "$APS1" >"$T/aps1-raised.json"  # generated: x1.5
run pricing import "$T/aps1-raised.json"

run --format json pricing history
expect_json snapshots.0.id 3 "history: newest first"
expect_json snapshots.0.as_of 2018-08-08 "history: as_of of the aps1 import (its publicationDate 2018-08-08T00:57:01Z)"
expect_json snapshots.0.source "import:aps1-raised.json" "history: source names the file"
expect_json snapshots.2.in_force_regions 24 "history: embedded still in force for the 24 others"
expect_json snapshots.1.in_force True "history: usw2 import in force"
run --format json pricing history --region us-west-2
expect_json snapshots.0.id 2 "history --region: only snapshots holding it"
expect_json snapshots.1.id 1 "history --region: embedded holds it too"
expect_json snapshots.1.in_force False "history --region: embedded no longer in force there"

# default: the two newest (2 -> 3); they share no region: nothing to compare
run --format json pricing diff
expect_json from 2 "diff default: from the second newest"
expect_json to 3 "diff default: to the newest"
expect_json notes.0 "no price differs between snapshots 2 and 3 over the regions both hold" "diff over no common region"

# 1 -> 3: io1 storage in ap-southeast-1 0.138 -> 0.207 (+50 %)
run --format json pricing diff 1 3
expect_rc 0 "diff 1 3"
expect_json changes.0.region ap-southeast-1 "diff: the region"
expect_json changes.0.volume_type io1 "diff: the type"
expect_json changes.0.old_price 0.138 "diff: old price"
expect_json changes.0.new_price 0.207 "diff: new price"
expect_json changes.0.change_pct 50 "diff: +50 %" 1e-9
expect_json changes.0.status changed "diff: status changed"
[ "$(json_get changes <"$T/out")" = "$(json_get changes.0 <"$T/out" | sed 's/^/[/;s/$/]/')" ] &&
	ok "diff: exactly one change" || fail "diff: exactly one change"

# one id: against the newest
run --format json pricing diff 1
expect_json to 3 "diff A: against the newest"
run pricing diff 9
expect_rc 1 "diff with an unknown snapshot exits 1"
expect_err "error: no price snapshot 9
hint: 'ebsize pricing history' lists the snapshots" "unknown snapshot: message"
run pricing diff 1 3
expect_out_has "ap-southeast-1  io1   storage" "diff table lists the change"
