#!/bin/sh
# t5030-csv-one-table: --format csv of every command is ONE table: one
# header, then rows with as many fields (Python's csv module, read as
# strictly as pandas would).  --table NAME picks each other table of the
# result, an unknown name is a usage error listing the names, and
# `ebsize help COMMAND` lists those names: the lists in the help are
# checked against what each command really produces.  JSON keeps every
# table.
. "$(dirname "$0")/../lib/test-lib.sh"

SCAN="$FIXTURES/scan"
FIO="$FIXTURES/fio"
run pricing import "$FIXTURES/pricing-offer-extract-usw2-gp3-iops-throughput.json"
expect_rc 0 "a second price snapshot, for pricing diff"
printf '3000 600\nidle 1200\nrepeat 3\n' >"$T/p.profile"    # generated test profile

# one_table DESC: the CSV in $T/out is one table (header + rows of its width)
one_table() {
	if /usr/bin/python3 - "$T/out" <<'EOF'; then ok "$1"; else fail "$1" "$(cat "$T/out.why" 2>/dev/null)"; fi
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    data = f.read()
rows = list(csv.reader(data.splitlines(True), strict=True))
head = rows[0] if rows else []
problems = []
if not head or any(not h for h in head):
    problems.append("no header or an empty column name: %r" % head)
if len(set(head)) != len(head):
    problems.append("duplicate column names: %r" % head)
for i, r in enumerate(rows[1:], 2):
    if len(r) != len(head):
        problems.append("line %d has %d fields, the header %d" % (i, len(r), len(head)))
if not data.endswith("\r\n"):
    problems.append("not CRLF-terminated")
if problems:
    open(sys.argv[1] + ".why", "w").write("; ".join(problems[:3]))
sys.exit(1 if problems else 0)
EOF
}

# table_names: the names the usage error lists for the last command
table_names() {
	sed -n "s/^error: unknown table 'nosuch' (use \(.*\))$/\1/p" "$T/err" |
		sed 's/ or /, /' | tr -d ' ' | tr ',' '\n'
}

# check CMD ARGS...: the default CSV and every --table are one table each,
# and every name is in the command's help ("pricing show" for subcommands)
# (a one-word LABEL is the command itself: "check cost --type gp3 ...")
check() {
	label=$1
	case $label in *" "*) shift ;; esac
	run --format csv "$@"
	expect_rc 0 "$label: csv exits 0"
	one_table "$label: csv is one table"
	run --format csv --table nosuch "$@"
	expect_rc 2 "$label: an unknown table is a usage error"
	names=$(table_names)
	[ -n "$names" ] && ok "$label: the error lists the tables" ||
		fail "$label: the error lists the tables"
	run help $label
	helpline=$(grep -E "^  $label +" "$T/out")
	for name in $names; do
		run --format csv --table "$name" "$@"
		if [ "$(sed -n 1p "$T/out")" = "" ]; then
			ok "$label --table $name: an empty table (no columns here)"
		else
			one_table "$label --table $name: one table"
		fi
		case " $(echo "$helpline" | tr ',' ' ') " in
		*" $name "*) ok "$label: help lists '$name'" ;;
		*) fail "$label: help lists '$name'" "help: $helpline" ;;
		esac
	done
}

check cost --type gp3 --size 100 --iops 6000
check cost --type standard --size 100 --io-per-month 1000
check compare --types gp2,gp3,io2 --sizes 100,1000
check cheapest --iops 10000 --throughput 500 --size 1000 --top 2
check burst --size 100 --profile "$T/p.profile"
check "instances show" instances show --family m5
check "pricing show" pricing show --all-regions
check "pricing history" pricing history
check "pricing diff" pricing diff
check "pricing import" pricing import "$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json"
check "instances import" instances import "$FIXTURES/describe-instance-types-c4.2xlarge-instance-selector.json"
check "bench import" bench import "$FIO/fio-3.1-randread-libaio-qd1.json" --label csv-test \
	--volume-type gp2 --size 8
check "db check" db check
check "db path" db path
check "bench list" bench list
check "bench show" bench show 1
check "bench compare" bench compare 1 2
check scan "$SCAN/inv-us.json" "$SCAN/inv-eu.json" --by-tag team

# the timeline stream is one table too
run --format csv burst --size 100 --load 3000 --timeline --duration 100
one_table "burst --timeline: csv is one table"
[ "$(wc -l <"$T/out")" = 101 ] && ok "burst --timeline: header + 100 seconds" ||
	fail "burst --timeline: header + 100 seconds"

# the main tables
run --format csv scan "$SCAN/inv-us.json"
grep -q '^volume_id,name,tag,' "$T/out" && ok "scan: findings by default" || fail "scan: findings by default"
run --format csv cheapest --iops 10000
grep -q '^rank,type,count,' "$T/out" && ok "cheapest: options by default" || fail "cheapest: options by default"
run --format csv compare
grep -q '^gp2_size_gib,type,' "$T/out" && ok "compare: rows by default" || fail "compare: rows by default"
run --format csv --table totals_by_region scan "$SCAN/inv-us.json"
expect_out_has "region,currency,volumes,current_monthly_usd,monthly_savings_usd,annual_savings_usd" "scan --table totals_by_region"
run --format csv --table summary scan "$SCAN/inv-us.json"
grep -q '^volumes_scanned,findings,' "$T/out" && ok "scan --table summary: the record as one row" ||
	fail "scan --table summary: the record as one row"
run --format csv --table nosuch scan "$SCAN/inv-us.json"
expect_err "error: unknown table 'nosuch' (use summary, cluster_findings, findings, totals_by_currency, totals_by_category, totals_by_region or notes)
hint: see 'ebsize scan -h'" "scan: the unknown-table message"

# help lists the tables
run help scan
expect_out_has "Tables (--format csv --table NAME; the first is the default):" "help scan: the tables heading"
expect_out_has "  scan               findings, summary, kubernetes, cluster_findings, cluster_commands, totals_by_currency, totals_by_category, totals_by_region, totals_by_tag, billing, billing_files, billing_totals, notes" \
	"help scan: the tables"
run pricing show -h
expect_out_has "  pricing show       prices" "pricing show -h: its table"
grep -q "^  pricing history " "$T/out" && fail "pricing show -h: only its own tables" ||
	ok "pricing show -h: only its own tables"
run cost -h
expect_out_has "  cost               (records), result, monthly_usd, performance, prices" "cost -h: the tables"

# JSON keeps the whole document
run --format json scan "$SCAN/inv-us.json"
for k in summary findings totals_by_category totals_by_region notes; do
	json_get "$k" <"$T/out" >/dev/null 2>&1 && ok "json keeps $k" || fail "json keeps $k"
done
