#!/bin/sh
# t6030-report-scan: `ebsize report --scan` and `scan --svg-dir`.  The
# charts carry the scan's own totals (checked against its JSON and by hand),
# one set per currency; tags and names such as <script>alert(1)</script>
# arrive as text in headless Chromium, the SVG files and the data tables;
# usage errors; a progress line on a terminal.
. "$(dirname "$0")/../lib/test-lib.sh"

BROWSE="/usr/bin/python3 $ROOT/tests/lib/browser-check.py"
CHECK="/usr/bin/python3 $ROOT/tests/lib/report-check.py"
EVIL1='<script>alert(1)</script>'
EVIL2='"><svg onload=alert(1)>'

jget() { json_get "$2" <"$1" 2>/dev/null; }

# GENERATED test inventory (not AWS output); us-east-1 prices (T6):
#   A gp2 100 GiB  Name EVIL1, team EVIL2: 10.00 -> 8.00, saves 2.00
#   B gp2 1,000 GiB Name EVIL2, team EVIL1: 100.00 -> 85.00, saves 15.00
#   C gp2 50 GiB available, team web: 5.00, saves 5.00
#   D st1 500 GiB: 22.50, no finding
#   E eu-west-1 gp2 100 GiB, team web: 11.00 -> 8.80, saves 2.20
#   K cn-north-1 gp2 100 GiB: CNY 74.60 -> 59.68, saves 14.92
/usr/bin/python3 - "$T/inv.json" "$EVIL1" "$EVIL2" <<'EOF'
import json, sys
path, e1, e2 = sys.argv[1:]
vols, n = [], 0
def vol(vtype, size, az, state="in-use", tags=()):
    global n
    n += 1
    vid = "vol-0e6a%013x" % n
    vols.append({"VolumeId": vid, "VolumeType": vtype, "Size": size, "AvailabilityZone": az,
                 "State": state, "Tags": [{"Key": k, "Value": v} for k, v in tags],
                 "Attachments": [] if state == "available" else [{"InstanceId": "i-0e6a%013x" % n}]})
vol("gp2", 100, "us-east-1a", tags=[("Name", e1), ("team", e2)])
vol("gp2", 1000, "us-east-1b", tags=[("Name", e2), ("team", e1)])
vol("gp2", 50, "us-east-1a", "available", tags=[("team", "web")])
vol("st1", 500, "us-east-1a")
vol("gp2", 100, "eu-west-1a", tags=[("team", "web")])
vol("gp2", 100, "cn-north-1a")
json.dump({"Generated": "generated test data (t6030)", "Volumes": vols}, open(path, "w"))
EOF

# ---------------------------------------------------------------- usage
usage_error "--metrics needs --scan" "--metrics goes with --scan" report -o "$T/u" --metrics x.json
usage_error "--by-tag needs --scan" "--by-tag goes with --scan" report -o "$T/u" --compare --by-tag team
usage_error "--top needs --scan" "--top goes with --scan" report -o "$T/u" --top 3
usage_error "--top range" "--top must be a whole number from 1 to 100, not '0'" \
	report -o "$T/u" --scan "$T/inv.json" --top 0
usage_error "a bad --exclude-tag" "--exclude-tag needs KEY or KEY=VALUE, not '=x'" \
	report -o "$T/u" --scan "$T/inv.json" --exclude-tag =x
run report -o "$T/u" --scan "$T/nosuch.json"
expect_rc 1 "a missing inventory is a runtime error"
[ ! -e "$T/u" ] && ok "nothing written on any error" || fail "nothing written on any error"

# ---------------------------------------------------------------- the report
run report -o "$T/r" --scan "$T/inv.json" --by-tag team --top 5
expect_rc 0 "report --scan"
expect_err "wrote '$T/r/index.html' with 8 charts" "4 USD charts and 4 CNY charts, nothing else said"
ls "$T/r" >"$T/files"
want="index.html
scan-categories-cny.svg
scan-categories.svg
scan-regions-cny.svg
scan-regions.svg
scan-tags-cny.svg
scan-tags.svg
scan-top-cny.svg
scan-top.svg"
[ "$(cat "$T/files")" = "$want" ] && ok "only the scan section when --scan alone" ||
	fail "files" "$(cat "$T/files")"
run --format json scan "$T/inv.json" --by-tag team
cp "$T/out" "$T/scan.json"
# the charts' numbers are the scan's: current and proposed by category
# (USD: gp2_to_gp3 A + B + E = 10 + 100 + 11 = 121.00 -> 8 + 85 + 8.80 =
# 101.80; unattached 5.00 -> 0; the st1 has none)
grep -q 'data-series="current" data-values="121 5"' "$T/r/scan-categories.svg" &&
	grep -q 'data-series="proposed" data-values="101.8 0"' "$T/r/scan-categories.svg" &&
	ok "by category: 121.00 -> 101.80 and 5.00 -> 0 (hand)" ||
	fail "category values" "$(grep data-values "$T/r/scan-categories.svg")"
grep -q 'data-series="current" data-values="74.6"' "$T/r/scan-categories-cny.svg" &&
	grep -q 'data-series="proposed" data-values="59.68"' "$T/r/scan-categories-cny.svg" &&
	grep -q 'CNY per month' "$T/r/scan-categories-cny.svg" && ! grep -q '>\$' "$T/r/scan-categories-cny.svg" &&
	ok "CNY apart: 74.60 -> 59.68, no dollar ticks" || fail "CNY chart"
/usr/bin/python3 - "$T/scan.json" "$T/r/scan-regions.svg" <<'EOF' && ok "by region: the JSON's totals_by_region" || fail "by region: the JSON's totals_by_region"
import json, re, sys
js = [t for t in json.load(open(sys.argv[1]))["totals_by_region"] if t["currency"] == "USD"]
svg = open(sys.argv[2]).read()
cur = re.search(r'data-series="current" data-values="([^"]*)"', svg).group(1).split()
prop = re.search(r'data-series="proposed" data-values="([^"]*)"', svg).group(1).split()
want_cur = [t["current_monthly_usd"] for t in js]
want_prop = [t["proposed_monthly_usd"] for t in js]
assert [float(x) for x in cur] == want_cur, (cur, want_cur)
assert [float(x) for x in prop] == want_prop, (prop, want_prop)
EOF
$CHECK table "$T/r/index.html" scan-top >"$T/top"
sed -n 2p "$T/top" | grep -q "^vol-0e6a0000000000002	$EVIL2	us-east-1	gp2_to_gp3	" &&
	ok "top volumes: B first (saves 15.00), its name as text in the table" || fail "top table" "$(cat "$T/top")"
# B 15.00, C 5.00, E 2.20, A 2.00 (the st1 saves nothing; K is CNY)
[ "$(cut -f1 "$T/top" | tail -n +2 | tr '\n' ' ')" = "vol-0e6a0000000000002 vol-0e6a0000000000003 vol-0e6a0000000000005 vol-0e6a0000000000001 " ] &&
	ok "top: the 4 USD volumes that save, most first" || fail "top rows" "$(cat "$T/top")"
# USD fleet: 10 + 100 + 5 + 22.50 + 11 = 148.50; saves 2 + 15 + 5 + 2.20 =
# 24.20 (290.40 a year, 16.3 %); 124.30 after
grep -q "USD: 5 volumes, 4 with a finding; \$148.50 a month now, \$124.30 after the proposals: saves \$24.20 a month (\$290.40 a year, 16.3 %)." "$T/r/index.html" &&
	ok "the section says what the fleet costs: 148.50 -> 124.30 (hand)" || fail "section text"

$BROWSE "$T/r/index.html" "$T/shot.png" "$EVIL1" "$EVIL2" >"$T/b.json" 2>"$T/b.err"
[ -s "$T/b.json" ] && ok "Chromium rendered the page" || fail "Chromium rendered the page" "$(tail -5 "$T/b.err")"
expect_value "$(jget "$T/b.json" texts)" "[true, true]" "both hostile values arrive as text in the page"
expect_value "$(jget "$T/b.json" scripts)" 0 "no script element"
expect_value "$(jget "$T/b.json" handlers)" 0 "no on* attribute"
expect_value "$(jget "$T/b.json" console)" "[]" "no console errors"
expect_value "$(jget "$T/b.json" requests)" "[\"file://$T/r/index.html\"]" "nothing fetched"
expect_value "$(jget "$T/b.json" svgs)" 8 "8 charts in the page"
colours=$(jget "$T/b.json" colours)
[ "${colours:-0}" -gt 100 ] && ok "the screenshot is not blank ($colours colours)" || fail "blank" "$colours"
$CHECK svgs "$T/r" >"$T/svgs"
[ "$(grep -c ' ok$' "$T/svgs")" = 8 ] && ! grep -q ' bad' "$T/svgs" &&
	ok "every SVG well-formed with a <title> and a <desc>" || fail "svgs" "$(grep -v '^texts:' "$T/svgs")"
grep '^texts:' "$T/svgs" | grep -qF "$EVIL1" && grep '^texts:' "$T/svgs" | grep -qF "$EVIL2" &&
	ok "the hostile values as text in the SVG files" || fail "SVG texts"
for f in scan-top scan-tags; do
	$CHECK elements "$T/r/$f.svg" >"$T/el"
	grep -qx 'script' "$T/el" || grep -q '^@on' "$T/el" && fail "$f.svg: no script, no on*" ||
		ok "$f.svg: no script element, no on* attribute"
done

# the same with a generated label and the global --region
run --region eu-west-1 report -o "$T/g" --scan "$T/inv.json" --generated
expect_rc 0 "report --scan --generated --region eu-west-1"
grep -q 'Current against proposed monthly cost by region (generated inventory)' "$T/g/scan-regions.svg" &&
	grep -q 'generated test data, not a real account' "$T/g/scan-regions.svg" &&
	ok "generated: said in the title and the description" || fail "generated label"
grep -q 'data-series="current" data-values="11"' "$T/g/scan-regions.svg" &&
	[ ! -e "$T/g/scan-regions-cny.svg" ] && ok "--region eu-west-1: only its volume (11.00)" ||
	fail "--region" "$(ls "$T/g")"

# progress on a terminal (script(1) gives a pty): 20,000 generated volumes
/usr/bin/python3 - "$T/big.json" <<'EOF'
import json, sys
json.dump({"Generated": "generated test data (t6030)", "Volumes": [
    {"VolumeId": "vol-0e6b%013x" % i, "VolumeType": "gp2", "Size": 100,
     "AvailabilityZone": "us-east-1a", "State": "in-use", "Attachments": [{"InstanceId": "i-1"}]}
    for i in range(20000)]}, open(sys.argv[1], "w"))
EOF
script -qec "'$EBSIZE' --db '$DB' report -o '$T/big' --scan '$T/big.json'" /dev/null >"$T/tty" 2>&1
tr '\r' '\n' <"$T/tty" | grep -q "report: scanning '$T/big.json': 16384 volumes, [0-9]* %" &&
	ok "a progress line on a terminal: volumes read, share of the file" ||
	fail "progress line" "$(tr '\r' '\n' <"$T/tty" | tail -5)"
run report -o "$T/big2" --scan "$T/big.json"
expect_err "wrote '$T/big2/index.html' with 3 charts" "no progress line without a terminal"

# ---------------------------------------------------------------- --svg-dir
S="$T/charts"
run --format md scan "$T/inv.json" --svg-dir "$S"
expect_rc 0 "scan --format md --svg-dir"
expect_out_has "![Current against proposed monthly cost by category]($S/scan-categories.svg)" \
	"the Markdown links the category chart"
expect_out_has "![Top 4 volumes by monthly savings]($S/scan-top.svg)" "and the top chart"
expect_out_has "![Current against proposed monthly cost by category, CNY]($S/scan-categories-cny.svg)" \
	"and the CNY charts"
expect_out_has "| Findings | 5 |" "the Markdown summary is still there"
[ "$(ls "$S" | wc -l)" = 6 ] && ok "6 charts: categories, regions, top for USD and CNY" || fail "svg-dir files" "$(ls "$S")"
grep -q 'data-series="current" data-values="121 5"' "$S/scan-categories.svg" &&
	ok "the same numbers as the report" || fail "svg-dir values"
run --format md scan "$T/inv.json" --svg-dir "$S/l" --limit 1
grep -q "vol-0e6a0000000000002" "$S/l/scan-top.svg" && ! grep -q "vol-0e6a0000000000001" "$S/l/scan-top.svg" &&
	ok "--limit 1: the top chart draws the one finding shown" || fail "--limit top"
printf x >"$T/file"
run --format md scan "$T/inv.json" --svg-dir "$T/file"
expect_rc 1 "an unwritable --svg-dir"
expect_err_has "error: cannot write into '$T/file': it is not a directory" "says why"
expect_out_empty "and prints no half result"
usage_error "--svg-dir with --metric-queries" "--svg-dir goes with a scan, not --metric-queries" \
	scan --metric-queries "$T/inv.json" --svg-dir "$S"

echo "# $n tests"
