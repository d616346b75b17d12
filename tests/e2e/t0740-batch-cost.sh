#!/bin/sh
# t0740-batch-cost: `ebsize cost --batch` prices a plan (issue 14: "price
# my plan").  Answers byte-identical to one `ebsize --format json cost`
# process per configuration (tests/lib/batch_oneshot.py); totals worked
# by hand from ebs-facts.md T6; the spreadsheet's CSV (BOM, CRLF, quoted
# commas and quotes, a line break inside a field, empty cells, an empty
# row) gives the same answers; --format csv rows carry the columns of
# `--format csv cost`; the workbook; standard input; the exit status.
. "$(dirname "$0")/../lib/test-lib.sh"

PLAN="$FIXTURES/batch/cost-plan.jsonl"
CSV="$FIXTURES/batch/cost-plan.csv"

run cost --batch "$PLAN"
expect_rc 1 "a plan with illegal configurations exits 1"
expect_err "4 of 10 requests failed" "stderr: how many failed"
cp "$T/out" "$T/plan.jsonl"
/usr/bin/python3 "$ROOT/tests/lib/batch_oneshot.py" "$EBSIZE" "$DB" cost "$PLAN" >"$T/want.jsonl"
cmp -s "$T/want.jsonl" "$T/plan.jsonl" && ok "10 answers byte-identical to 10 one-at-a-time calls" ||
	fail "10 answers byte-identical to 10 one-at-a-time calls" \
		"$(diff "$T/want.jsonl" "$T/plan.jsonl" | head -6 | cut -c1-300)"

# totals by hand (T6, us-east-1 unless stated)
total() {
	grep -F "\"id\":\"$1\"" "$T/plan.jsonl" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["monthly_usd"]["total"])'
}
expect_value "$(total 'web, tier 1')" 120 "2 x gp3 500 GiB, 6,000 IOPS, 250 MiB/s: 2 x (40 + 3,000 x 0.005 + 125 x 0.04) = \$120" 1e-9
expect_value "$(total db)" 1581.312 "io2 1 TiB, 20,000 IOPS in eu-west-1: 1,024 x 0.138 + 20,000 x 0.072" 1e-9
expect_value "$(total legacy)" 5.05 "standard 100 GiB, 1e6 I/O: 100 x 0.05 + 1 x 0.05" 1e-9
expect_value "$(total gp2)" 819.2 "4 x gp2 2 TiB: 4 x 2,048 x 0.1" 1e-9
expect_value "$(total sc1)" 294.912 "sc1 16 TiB in ap-northeast-1: 16,384 x 0.018" 1e-9
grep -F '"id":"too-fast"' "$T/plan.jsonl" | grep -qF '"exit":1,"error":"illegal configuration: gp3 allows at most 500 IOPS per GiB: 20000 IOPS need at least 40 GiB","hints":["nearest legal configuration: ebsize cost --type gp3 --size 40 --iops 20000 --throughput 125"]}' &&
	ok "an illegal configuration: the rule and the nearest legal one (T3: 500 IOPS/GiB)" ||
	fail "an illegal configuration: the rule and the nearest legal one (T3: 500 IOPS/GiB)"
grep -qF '{"id":"bad \"quoted\"","line":5,"exit":2,"error":"--iops is required for io1 volumes","hints":[]}' "$T/plan.jsonl" &&
	ok "the command's own check, per request: exit 2" || fail "the command's own check, per request: exit 2"

# the spreadsheet's CSV: the same answers (successes carry no line)
run cost --batch "$CSV"
expect_rc 1 "the CSV plan: exit 1"
expect_err "3 of 7 requests failed" "... 7 rows (the empty one is none)"
grep -E '^\{"id":"(web, tier 1|db|cn|legacy)",' "$T/plan.jsonl" >"$T/want-csv"
grep -vF '"exit":' "$T/out" >"$T/got-csv"
cmp -s "$T/want-csv" "$T/got-csv" && ok "CSV rows priced as the same JSON Lines" ||
	fail "CSV rows priced as the same JSON Lines" "$(diff "$T/want-csv" "$T/got-csv" | head -4 | cut -c1-200)"
grep -qF '{"id":"too\r\nfast","line":8,"exit":1,' "$T/out" &&
	ok "a quoted field with a line break: the id keeps it, the line is where the record starts" ||
	fail "a quoted field with a line break: the id keeps it, the line is where the record starts"
grep -qF '{"id":"st1-small","line":10,"exit":1,"error":"illegal configuration: st1 volumes are 125 to 16384 GiB; 100 GiB is out of range"' "$T/out" &&
	ok "the record after it: line 10" || fail "the record after it: line 10"

# --format csv: the columns of `--format csv cost`, values equal
run --format csv cost --batch "$CSV"
cp "$T/out" "$T/rows.csv"
/usr/bin/python3 - "$T/rows.csv" "$EBSIZE" "$DB" >"$T/py" <<'PY'
import csv, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
by = {r["id"]: r for r in rows}
one = subprocess.run([sys.argv[2], "--db", sys.argv[3], "--format", "csv", "cost", "--type", "gp3",
                      "--size", "500", "--iops", "6000", "--throughput", "250", "--count", "2"],
                     capture_output=True, text=True).stdout
single = list(csv.DictReader(one.splitlines()))[0]
cols = list(rows[0].keys())
want = ["id", "line", "exit", "error"] + list(single.keys())
want.insert(want.index("monthly_usd.storage"), "io_per_month")
print("ok cols" if cols == want + ["notes"] else "fail cols %s" % cols)
print("ok same" if all(by["web, tier 1"][k] == v for k, v in single.items()) else "fail same")
print("ok n" if len(rows) == 7 and [r["line"] for r in rows] == ["2", "3", "4", "5", "6", "8", "10"]
      else "fail n %s" % [r["line"] for r in rows])
print("ok io" if by["legacy"]["io_per_month"] == "1000000" and by["db"]["io_per_month"] == ""
      else "fail io")
print("ok cny" if by["cn"]["currency"] == "CNY" else "fail cny")
PY
grep -q "^ok cols" "$T/py" && ok "csv: id, line, exit, error, cost's own columns (io_per_month always), notes" ||
	fail "csv: id, line, exit, error, cost's own columns (io_per_month always), notes" "$(cat "$T/py")"
grep -q "^ok same" "$T/py" && ok "csv: a row equals the one-at-a-time CSV row" ||
	fail "csv: a row equals the one-at-a-time CSV row"
grep -q "^ok n" "$T/py" && ok "csv: one row per request, with its line" || fail "csv: one row per request, with its line" "$(cat "$T/py")"
grep -q "^ok io" "$T/py" && ok "csv: io_per_month for standard only" || fail "csv: io_per_month for standard only"
grep -q "^ok cny" "$T/py" && ok "csv: the China row in CNY" || fail "csv: the China row in CNY"

# the workbook of a plan, -o kept although requests failed
if /usr/bin/python3 -c 'import openpyxl' 2>/dev/null; then
	run --format xlsx -o "$T/plan.xlsx" cost --batch - <"$CSV"
	expect_rc 1 "xlsx from standard input: exit 1"
	/usr/bin/python3 - "$T/plan.xlsx" >"$T/py" <<'PY'
import openpyxl, sys
ws = openpyxl.load_workbook(sys.argv[1])["results"]
rows = list(ws.iter_rows(values_only=True))
hdr = rows[0]
r = dict(zip(hdr, rows[1]))
ok = len(rows) == 8 and r["id"] == "web, tier 1" and abs(r["monthly_usd.total"] - 120) < 1e-9
print("ok" if ok else "fail %s" % (rows[:2],))
PY
	grep -q "^ok" "$T/py" && ok "xlsx: sheet results, 7 rows, totals as numbers" ||
		fail "xlsx: sheet results, 7 rows, totals as numbers" "$(cat "$T/py")"
else
	skip "xlsx: sheet results" "python3-openpyxl not installed"
fi

# all good: exit 0, nothing on stderr; --as-of and --region as defaults
printf '%s\n' '{"id":"a","type":"gp3","size":100}' '{"id":"b","type":"gp2","size":100,"region":"us-east-1"}' >"$T/ok.jsonl"
run cost --batch "$T/ok.jsonl" --as-of 2024-06-01 --region eu-west-1
expect_rc 0 "every configuration priced: exit 0"
expect_err_empty "... nothing on stderr"
"$EBSIZE" --db "$DB" --region eu-west-1 --format json cost --type gp3 --size 100 --as-of 2024-06-01 >"$T/a.json"
"$EBSIZE" --db "$DB" --region us-east-1 --format json cost --type gp2 --size 100 --as-of 2024-06-01 >"$T/b.json"
{ printf '{"id":"a",'; tail -c +2 "$T/a.json"; printf '{"id":"b",'; tail -c +2 "$T/b.json"; } >"$T/want-ok"
cmp -s "$T/want-ok" "$T/out" && ok "--as-of and --region with --batch: defaults, a line's region wins" ||
	fail "--as-of and --region with --batch: defaults, a line's region wins"

# the required options are required of each request, not of the command line
printf '%s\n' '{"id":"no-type","size":100}' >"$T/req.jsonl"
run cost --batch "$T/req.jsonl"
expect_rc 1 "a request without --type: exit 1"
expect_out_has '{"id":"no-type","line":1,"exit":2,"error":"missing --type (gp2, gp3, io1, io2, st1, sc1 or standard)","hints":[]}' \
	"... its line says what the command line would"
usage_error "without --batch, --type is still required" "missing --type (gp2, gp3, io1, io2, st1, sc1 or standard)" \
	cost --size 100
