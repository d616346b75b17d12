#!/bin/sh
# t0720-machine-output: issue 10 items 8 and 9 -- the CSV and JSON of every
# command that prints data are exact and typed: no number with more than 6
# decimals (binary noise such as 0.6000000000000001 included) and no "-"
# placeholder where JSON means null.  The checker is
# tests/lib/machine_numbers.py; inputs are chosen where float noise shows
# (eu-west-1 and ap-northeast-2 prices, odd sizes and counts).
. "$(dirname "$0")/../lib/test-lib.sh"

CHECK="$ROOT/tests/lib/machine_numbers.py"
F="$FIXTURES/scan"

# sweep DESC ARGS...: both machine formats of `ebsize ARGS`, each checked
sweep() {
	desc=$1
	shift
	for fmt in json csv; do
		run --format "$fmt" "$@"
		if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
			fail "$desc ($fmt): exit $rc"
			continue
		fi
		if /usr/bin/python3 "$CHECK" "$fmt" "$T/out" "$desc" >"$T/why"; then
			ok "$desc ($fmt): exact, typed"
		else
			fail "$desc ($fmt): exact, typed" "$(head -n 5 "$T/why" | tr "\n" ";")"
		fi
	done
}

for r in us-east-1 eu-west-1 ap-northeast-2 eu-central-1; do
	sweep "cost gp3 $r" --region $r cost --type gp3 --size 333 --iops 3333 --throughput 333 --count 3
	sweep "cost io2 tiers $r" --region $r cost --type io2 --size 777 --iops 70001 --count 7
	sweep "cost st1 $r" --region $r cost --type st1 --size 1667
	sweep "cost standard $r" --region $r cost --type standard --size 333 --io-per-month 123456789
	sweep "compare every type $r" --region $r compare --types gp2,gp3,io1,io2,st1,sc1,standard \
		--sizes 1,7,33,167,333,999,1667,5001 --iops 2222
	sweep "compare --throughput $r" --region $r compare --sizes 1,333 --throughput 133
	sweep "cheapest $r" --region $r cheapest --iops 7777 --throughput 333 --size 777 --io-size 48
	sweep "cheapest --peak $r" --region $r cheapest --iops 333 --size 33 --peak 2222:333/7777
done
sweep "cheapest --instance bursting" cheapest --iops 20000 --throughput 500 --instance m6i.2xlarge
sweep "cheapest nothing meets (nearest)" cheapest --iops 300000 --max-stripe 1
sweep "burst gp2" burst --size 333 --load 2222
sweep "burst st1" burst --type st1 --size 777 --load 111
printf '2222 333\nidle 777\nrepeat 7\n' >"$T/profile"
sweep "burst profile" burst --size 333 --profile "$T/profile"
sweep "burst --timeline" burst --size 333 --load 2222 --duration 77 --timeline
sweep "pricing show" pricing show --all-regions
sweep "instances show" instances show
sweep "db check" db check
sweep "bench list" bench list
sweep "bench show" bench show 1
sweep "bench compare" bench compare 1 2
sweep "scan" scan "$F/inv-us.json" "$F/inv-eu.json" "$F/pv.json" "$F/sc.json" \
	--metrics "$F/metrics.json" --usage "$F/generated-usage.csv" --by-tag team --headroom 17
sed 's/0\.1380000000/0.2070000000/' "$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json" \
	>"$T/aps1-raised.json"   # generated: x1.5
run pricing import "$T/aps1-raised.json"
sweep "pricing history" pricing history
sweep "pricing diff" pricing diff

# the checker itself catches what it is for
printf '{"a":0.6000000000000001,"b":"-"}\n' >"$T/noise.json"
if /usr/bin/python3 "$CHECK" json "$T/noise.json" x >"$T/why"; then
	fail "checker rejects float noise and placeholders"
else
	grep -q "0.6000000000000001 has 16 decimals" "$T/why" && grep -q 'placeholder' "$T/why" &&
		ok "checker rejects float noise and placeholders" ||
		fail "checker rejects float noise and placeholders" "$(cat "$T/why")"
fi
