#!/bin/sh
# t4110-scan-billing-sql: `ebsize scan --emit-sql duckdb|athena` - the
# options and their usage errors, the prices embedded (every --region R,
# else every region with prices), and agreement: the emitted query run in
# real DuckDB (the npm package @duckdb/node-api, through
# tests/duckdb/run.mjs, `npm ci` there; `make deps` does it) over the same
# billing files as `ebsize scan FILE...` gives the same findings per
# volume (finding, types, sizes, IOPS, MiB/s, money to the cent) and the
# same totals per currency, read from `--format csv` (the findings), `--format csv
# --table billing_totals` and `--format json`.  The Athena variant runs in
# DuckDB after run.mjs's documented mapping (Athena's CUR column names,
# from_iso8601_timestamp as a macro); its structure is checked by the unit
# test (tests/unit/test_billing.c), not again here.
#
# Fixtures: the real FOCUS sample and the GENERATED legacy CUR / CUR 2.0
# files of tests/fixtures/billing (see its README).
. "$(dirname "$0")/../lib/test-lib.sh"

B="$FIXTURES/billing"
FOCUS="$B/focus-1.0-aws-ebs-rows-sample.csv"
CUR="$B/cur-legacy-generated.csv"
CUR2="$B/cur2-generated.csv.gz"
CN="$B/cur2-cn-generated.csv"

# ---------------------------------------------------------------- options
usage_error "--emit-sql with files" \
	"--emit-sql takes no input files: it prints SQL to run where the bill is" \
	scan --emit-sql duckdb "$CUR"
usage_error "--emit-sql: unknown dialect" "unknown SQL dialect 'sqlite' (use duckdb or athena)" \
	scan --emit-sql sqlite
usage_error "--schema: unknown schema" "unknown billing schema 'parquet' (use focus, cur2 or cur)" \
	scan --emit-sql duckdb --schema parquet
usage_error "--schema without --emit-sql" "--schema goes with --emit-sql" scan --schema cur "$CUR"
usage_error "--emit-sql: --table must be a table name" \
	"--table 'x; DROP TABLE y' is not a plain table name ([schema.]table: letters, digits, _, quotes)" \
	scan --emit-sql duckdb --table 'x; DROP TABLE y'
usage_error "--emit-sql: no --format" "--emit-sql prints SQL: --format does not apply" \
	scan --emit-sql duckdb --format json
# without --emit-sql, --table still names a CSV table
run --table findings scan "$CUR"
want=$(printf "error: --table picks the table of --format csv\nhint: see 'ebsize help'")
[ "$rc" = 2 ] && [ "$(cat "$T/err")" = "$want" ] && ok "--table without --emit-sql needs --format csv" ||
	fail "--table without --emit-sql needs --format csv"

run scan --emit-sql duckdb    # creates the database
sqlite3 "$DB" .dump >"$T/before.sql"
run scan --emit-sql duckdb --schema cur2 --table cur_db.cur
expect_rc 0 "--emit-sql duckdb"
expect_out_has "-- ebsize " "SQL: a commented header"
expect_out_has "FROM cur_db.cur" "SQL: reads --table"
expect_out_has '"line_item_usage_type"' "SQL: CUR 2.0 columns"
# every region with prices in force: 26 in the embedded snapshot
# (pricing/snapshot.csv), China in CNY
expect_out_has "-- Prices: 26 region(s) embedded below." "SQL: every priced region"
expect_out_has "('us-east-1', 'USD', 'gp2', 'storage', 0, NULL, 0.1)" "SQL: T6 us-east-1 gp2 0.10"
expect_out_has "('us-east-1', 'USD', 'io2', 'iops', 32000, 64000, 0.0455)" "SQL: T6 io2 tier 2"
expect_out_has "('cn-northwest-1', 'CNY', 'gp3', 'storage', 0, NULL, 0.5312)" "SQL: China in CNY"
check_unchanged "--emit-sql"
run --region eu-west-1 --region us-east-1 scan --emit-sql athena --schema cur
expect_rc 0 "--emit-sql athena, two regions"
expect_out_has "-- Prices: 2 region(s) embedded below." "SQL: the --region regions only"
expect_out_has "('eu-west-1', 'USD', 'gp2', 'storage', 0, NULL, 0.11)" "SQL: T6 eu-west-1 gp2 0.11"
expect_out_has '"line_item_usage_type"' "Athena: legacy CUR under Athena's column names"
grep -q "('ap-northeast-1', 'USD'" "$T/out" && fail "SQL: no other region" || ok "SQL: no other region"
run --region ap-east-2 scan --emit-sql duckdb
expect_rc 1 "--emit-sql for a region without prices"
expect_err_has "error: no prices for region 'ap-east-2'" "no prices: the region named"
expect_out_empty "no prices: no SQL"
run -o "$T/q.sql" scan --emit-sql duckdb --schema focus
expect_rc 0 "--emit-sql -o FILE"
grep -q "ChargePeriodStart" "$T/q.sql" && ok "-o: the SQL in the file" || fail "-o: the SQL in the file"

# ---------------------------------------------------------------- agreement
if ! command -v node >/dev/null 2>&1; then
	skip "DuckDB agreement" "node is not installed (make deps installs nodejs and npm)"
	exit 0
fi
if [ ! -f "$ROOT/tests/duckdb/node_modules/@duckdb/node-api/package.json" ]; then
	fail "DuckDB agreement: @duckdb/node-api installed" \
		"run 'make deps' (npm ci in tests/duckdb)"
	exit 0
fi

# compare.py DUCK.csv FINDINGS.csv TOTALS.csv SCAN.json: every volume of
# DuckDB's result against ebsize's (to the cent), then the totals per
# currency; prints the differences, exits 1 when there is one.
cat >"$T/compare.py" <<'EOF'
import csv, json, sys

duck = list(csv.DictReader(open(sys.argv[1])))
found = list(csv.DictReader(open(sys.argv[2])))
totals = list(csv.DictReader(open(sys.argv[3])))
doc = json.load(open(sys.argv[4]))
bad = []
CENT = 0.005

def num(s):
    return 0.0 if s in ("", None, "null") else float(s)

def same(what, a, b, tol=None):
    if tol is None:
        ok = str(a) == str(b)
    else:
        ok = abs(num(a) - num(b)) < tol
    if not ok:
        bad.append("%s: duckdb %r, ebsize %r" % (what, a, b))

# the volumes with a finding: ebsize lists them all (csv and json alike)
want = {r["volume_id"]: r for r in duck if r["status"] == "priced" and r["finding"]}
got = {r["volume_id"]: r for r in found}
gotj = {r["volume_id"]: r for r in doc["findings"]}
same("volumes with a finding", sorted(want), sorted(got))
same("json findings", sorted(want), sorted(gotj))
for vid, d in want.items():
    g, j = got.get(vid), gotj.get(vid)
    if not g or not j:
        continue
    pre = vid + " "
    same(pre + "finding", d["finding"], g["category"])
    same(pre + "region", d["region"], g["region"])
    same(pre + "currency", d["currency"], g["currency"])
    same(pre + "account", d["usage_account"], g["account"])
    same(pre + "payer", d["payer_account"], g["billing.payer_account"])
    same(pre + "type", d["volume_type"], g["current.type"])
    same(pre + "size", d["size_gib"], g["current.size_gib"])
    # ebsize leaves IOPS / MiB/s a type does not buy empty
    same(pre + "iops", num(d["iops"]) if d["volume_type"] in ("gp3", "io1", "io2") else 0,
         num(g["current.iops"]), 1e-9)
    same(pre + "prop type", d["prop_type"], g["proposed.type"])
    same(pre + "prop size", d["size_gib"], g["proposed.size_gib"])
    same(pre + "prop iops", d["prop_iops"], g["proposed.iops"], 1e-9)
    same(pre + "prop MiB/s", d["prop_throughput_mibps"], g["proposed.throughput_mibps"], 1e-9)
    same(pre + "partial", d["partial"], g["billing.partial"])
    same(pre + "hours", d["hours"], g["billing.hours"], 1e-6)
    for dk, gk in (("cur_per_month", "current.monthly_usd"),
                   ("prop_per_month", "proposed.monthly_usd"),
                   ("save_per_month", "savings.monthly_usd"),
                   ("save_period", "billing.savings_period"),
                   ("save_billed_period", "billing.savings_period_billed"),
                   ("billed_cost", "billing.billed"),
                   ("list_cost", "billing.list")):
        same(pre + dk, d[dk], g[gk], CENT)
    same(pre + "json saving", d["save_per_month"], j["savings"]["monthly_usd"], CENT)
    same(pre + "json period saving", d["save_period"], j["billing"]["savings_period"], CENT)
    same(pre + "json billed", d["billed_cost"], j["billing"]["billed"], CENT)
    same(pre + "json partial", d["partial"], str(j["billing"]["partial"]).lower())
# the volumes without one: counted, by status
b = doc["billing"]
count = lambda f: sum(1 for r in duck if f(r))
same("priced, nothing to propose", count(lambda r: r["status"] == "priced" and not r["finding"]),
     b["no_finding"])
same("no size", count(lambda r: r["status"] == "no_size"), b["no_size"])
same("no prices", count(lambda r: r["status"] == "no_prices"), b["no_prices"])
same("other currency", count(lambda r: r["status"] == "other_currency"), b["other_currency"])
same("volumes", len(duck), b["volumes"])
# totals per currency (csv and json)
tj = [t for t in doc["billing_totals"] if t["by"] == "currency"]
tc = [t for t in totals if t["by"] == "currency"]
same("currencies", sorted({r["currency"] for r in duck}), sorted(t["value"] for t in tc))
for t, j in zip(sorted(tc, key=lambda t: t["value"]), sorted(tj, key=lambda t: t["value"])):
    rows = [r for r in duck if r["currency"] == t["value"]]
    pre = t["value"] + " total "
    same(pre + "volumes", len(rows), int(t["volumes"]))
    same(pre + "findings", sum(1 for r in rows if r["finding"] and r["status"] == "priced"),
         int(t["findings"]))
    for dk, tk in (("billed_cost", "billed"), ("list_cost", "list"),
                   ("save_per_month", "savings_monthly"), ("save_period", "savings_period"),
                   ("save_billed_period", "savings_period_billed")):
        s = sum(num(r[dk]) for r in rows)
        same(pre + tk, s, t[tk], CENT)
        same(pre + tk + " (json)", s, j[tk], CENT)
for line in bad[:15]:
    print(line)
print("%d volumes, %d with a finding, %d currencies, %d differences" %
      (len(duck), len(want), len(tc), len(bad)))
sys.exit(1 if bad else 0)
EOF

# agree DIALECT SCHEMA DESC FILE...: the query in DuckDB = ebsize scan
agree() {
	dia=$1 schema=$2 desc=$3
	shift 3
	"$EBSIZE" --db "$DB" scan --emit-sql "$dia" --schema "$schema" --table billing \
		>"$T/q.sql" 2>"$T/err" || { fail "$desc: SQL emitted"; return; }
	flag=""
	[ "$dia" = athena ] && flag=--athena
	if ! node "$ROOT/tests/duckdb/run.mjs" --sql "$T/q.sql" --table billing $flag "$@" \
		>"$T/duck.csv" 2>"$T/err"; then
		rc=1
		fail "$desc: DuckDB runs the query"
		return
	fi
	"$EBSIZE" --db "$DB" --format csv scan "$@" >"$T/found.csv" 2>/dev/null &&
		"$EBSIZE" --db "$DB" --format csv --table billing_totals scan "$@" >"$T/totals.csv" 2>/dev/null &&
		"$EBSIZE" --db "$DB" --format json scan "$@" >"$T/scan.json" 2>/dev/null ||
		{ fail "$desc: ebsize scan"; return; }
	if /usr/bin/python3 "$T/compare.py" "$T/duck.csv" "$T/found.csv" "$T/totals.csv" \
		"$T/scan.json" >"$T/cmp" 2>&1; then
		ok "$desc: $(tail -1 "$T/cmp")"
	else
		rc=1
		fail "$desc" "$(cat "$T/cmp")"
	fi
}

agree duckdb focus "FOCUS sample, DuckDB = scan" "$FOCUS"
agree duckdb cur "legacy CUR, DuckDB = scan" "$CUR"
agree duckdb cur2 "CUR 2.0 (gzip) + China (CNY), DuckDB = scan" "$CUR2" "$CN"
agree athena focus "FOCUS sample, Athena SQL in DuckDB = scan" "$FOCUS"
agree athena cur "legacy CUR, Athena SQL in DuckDB = scan" "$CUR"
agree athena cur2 "CUR 2.0 + China, Athena SQL in DuckDB = scan" "$CUR2" "$CN"

# the check can fail: a finding changed by hand is caught
sed 's/,gp2_to_gp3,/,io1_to_io2,/' "$T/duck.csv" >"$T/duck-bad.csv"
/usr/bin/python3 "$T/compare.py" "$T/duck-bad.csv" "$T/found.csv" "$T/totals.csv" "$T/scan.json" \
	>"$T/cmp" 2>&1 && fail "a changed finding is caught" || ok "a changed finding is caught"
