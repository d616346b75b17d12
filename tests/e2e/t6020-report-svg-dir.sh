#!/bin/sh
# t6020-report-svg-dir: `--svg-dir DIR` of compare, cheapest and burst
# writes well-formed SVG charts and `--format md` links them with
# ![title](DIR/NAME.svg) lines; the charts carry the numbers the tables
# show; an unwritable DIR is a runtime error.
. "$(dirname "$0")/../lib/test-lib.sh"

CHECK="/usr/bin/python3 $ROOT/tests/lib/report-check.py"
S="$T/charts"

run --format md --region ap-northeast-2 compare --sizes 100,1000 --svg-dir "$S"
expect_rc 0 "compare --svg-dir"
expect_out_has "![Monthly cost per gp2 size (ap-northeast-2)]($S/compare-cost.svg)" \
	"the Markdown links the chart"
expect_out_has "| 100 | gp2 | 100 |" "the table is still there"
# seed-benchmarks.md A (Seoul): gp2 100 GiB 11.40, 1,000 GiB 114.00;
# gp3 100 GiB 9.12; gp3 for gp2 1,000 GiB: 91.20 + 125 x 0.0456 = 96.90
grep -q 'data-series="gp2" data-values="100,11.4 1000,114"' "$S/compare-cost.svg" &&
	grep -q 'data-series="gp3" data-values="100,9.12 1000,96.9"' "$S/compare-cost.svg" &&
	ok "the chart's points are the table's costs" || fail "compare chart values"

run --format md cheapest --iops 20000 --size 500 --top 3 --svg-dir "$S"
expect_rc 0 "cheapest --svg-dir"
expect_out_has "![The cheapest volume sets]($S/cheapest-cost.svg)" "the Markdown links the chart"
[ "$($CHECK elements "$S/cheapest-cost.svg" | grep -cx 'rect')" -ge 4 ] &&
	ok "three bars (and the background)" || fail "cheapest bars"

run --format md burst --size 100 --load 3000 --duration 2700 --svg-dir "$S/a (b)"
expect_rc 0 "burst --svg-dir"
expect_out_has "![gp2 100 GiB: delivered against demand (modelled)]($S/a%20%28b%29/burst.svg)" \
	"the path is encoded for Markdown"
expect_out_has "![gp2 100 GiB: credits left (modelled)]($S/a%20%28b%29/burst-credits.svg)" \
	"both charts linked"
grep -q 'data-values="0,3000 2000,3000 2000,300 2700,300"' "$S/a (b)/burst.svg" &&
	ok "delivered: 3,000 IOPS until 2,000 s, then 300 (T2)" || fail "burst chart values"

run burst --size 100 --load 3000 --duration 10 --timeline --svg-dir "$S/tl"
expect_rc 0 "--timeline with --svg-dir"
expect_out_has "10,3000,3000,5373000,99.5" "the timeline still streams"
[ -s "$S/tl/burst.svg" ] && ok "and the charts are written" || fail "timeline charts"

$CHECK svgs "$S" >"$T/s1"
$CHECK svgs "$S/a (b)" >"$T/s2"
[ "$(cat "$T/s1" "$T/s2" | grep -c ' ok$')" = 4 ] && ! grep -q ' bad' "$T/s1" "$T/s2" &&
	ok "every chart well-formed with a title" || fail "svgs" "$(cat "$T/s1" "$T/s2" | grep -v texts)"

run --format json compare --sizes 100 --svg-dir "$S/j"
expect_rc 0 "--svg-dir with JSON"
expect_out_has '"rows"' "JSON unchanged"
grep -q 'compare-cost' "$T/out" && fail "JSON does not mention the chart" || ok "JSON does not mention the chart"
[ -s "$S/j/compare-cost.svg" ] && ok "the chart is written anyway" || fail "chart with JSON"

printf x >"$T/file"
run --format md compare --svg-dir "$T/file"
expect_rc 1 "an unwritable --svg-dir"
expect_err "error: cannot write into '$T/file': it is not a directory" "says why"
expect_out_empty "and prints no half result"

echo "# $n tests"
