#!/bin/sh
# t0730-batch-cheapest: `ebsize cheapest --batch FILE|-` (issue 14).  The
# answers are byte-identical to one `ebsize --format json cheapest ...`
# process per request (tests/lib/batch_oneshot.py runs those), for a mix
# of units, regions with USD and CNY prices, instance limits, nothing
# meeting the need, bad values, usage errors and missing prices; lines
# that no command line can say (not JSON, unknown keys) get error lines
# worked out by hand; CSV input, standard input, --format csv/xlsx/table,
# -o with failed requests, the usage errors of the batch form, and a big
# GENERATED batch.
. "$(dirname "$0")/../lib/test-lib.sh"

MIX="$FIXTURES/batch/cheapest-mix.jsonl"
ONESHOT="$ROOT/tests/lib/batch_oneshot.py"

# --- byte-identical to one process per request
run cheapest --batch "$MIX"
expect_rc 1 "a batch in which some requests fail exits 1"
cp "$T/out" "$T/batch.jsonl"
expect_err "11 of 23 requests failed" "stderr says how many failed, nothing else"
/usr/bin/python3 "$ONESHOT" "$EBSIZE" "$DB" cheapest "$MIX" >"$T/want.jsonl"
if cmp -s "$T/want.jsonl" "$T/batch.jsonl"; then
	ok "23 answers byte-identical to 23 one-at-a-time calls"
else
	fail "23 answers byte-identical to 23 one-at-a-time calls" \
		"$(diff "$T/want.jsonl" "$T/batch.jsonl" | head -6 | cut -c1-300)"
fi
[ "$(wc -l <"$T/batch.jsonl")" = 23 ] && ok "one line per request (the blank line is none)" ||
	fail "one line per request (the blank line is none)"

# the same, checked by hand where a reader would look
line_of() { grep -F "\"id\":\"$1\"" "$T/batch.jsonl"; }
line_of m5-over | grep -q '^{"id":"m5-over","line":3,"exit":1,"error":"no volume set meets the need on m5.large","hints":\[\],"request":{' &&
	ok "nothing meets the need on m5.large: id, line 3, exit 1, the error, then the document" ||
	fail "nothing meets the need on m5.large: id, line 3, exit 1, the error, then the document" "$(line_of m5-over | cut -c1-200)"
line_of m5-over | grep -q '"nearest":\[{"rank":1' &&
	ok "... with the nearest feasible options" || fail "... with the nearest feasible options"
# line 5 is blank: the requests after it keep their physical line numbers
[ "$(line_of bad-number)" = '{"id":"bad-number","line":10,"exit":2,"error":"--iops must be a number from 1 to 1e+07 (such as 16000 or 16k), not '\''abc'\''","hints":[]}' ] &&
	ok "a bad value: the option table's message, its line (10), exit 2" ||
	fail "a bad value: the option table's message, its line (10), exit 2" "$(line_of bad-number)"
[ "$(line_of no-such-instance)" = '{"id":"no-such-instance","line":14,"exit":1,"error":"unknown instance type '\''x9.huge'\''","hints":["'\''ebsize instances show'\'' lists every known type"]}' ] &&
	ok "an unknown instance: exit 1 with the hint" ||
	fail "an unknown instance: exit 1 with the hint" "$(line_of no-such-instance)"
line_of cny | grep -q '"currency":"CNY"' && ok "cn-north-1 answered in CNY" ||
	fail "cn-north-1 answered in CNY"
line_of db-7 | grep -q '"region":"eu-west-1","currency":"USD","instance":"r6i.2xlarge","instance_fit":"instance-burst"' &&
	ok "a line's region and instance are used" || fail "a line's region and instance are used"
grep -q '^{"id":"42","request":{"iops":0,"throughput_mibps":0,"size_gib":1024,' "$T/batch.jsonl" &&
	ok "a number id comes back as text; 1TiB is 1,024 GiB" ||
	fail "a number id comes back as text; 1TiB is 1,024 GiB"
grep -q '^{"id":"café \\"quoted\\"",' "$T/batch.jsonl" &&
	ok "an id with \\u00e9 and quotes comes back as UTF-8, escaped JSON" ||
	fail "an id with \\u00e9 and quotes comes back as UTF-8, escaped JSON"

# --- what no command line says: hand-worked error lines
printf '%s\n' '{"iops":3000,"id":"ok"}' '{"iops":3000 "id":"broken"}' \
	'{"iops":3000,"bogus":1,"id":"k"}' '{"iops":3000,"region":"Europe","id":"r"}' \
	'{"iops":3000,"svg-dir":"/tmp","id":"s"}' '{"iops":true,"id":"b"}' \
	'{"iops":3000,"batch":"x","id":"nested"}' 'not json' >"$T/odd.jsonl"
run cheapest --batch "$T/odd.jsonl"
expect_rc 1 "odd lines: exits 1"
cat >"$T/want-odd" <<EOF
{"id":null,"line":2,"exit":2,"error":"cannot parse '$T/odd.jsonl': line 2: column 14: expected ',' or '}' after a value","hints":[]}
{"id":"k","line":3,"exit":2,"error":"unknown key 'bogus' (use id, region, iops, throughput, size, io-size, instance, types, max-stripe, peak, top or as-of)","hints":[]}
{"id":"r","line":4,"exit":2,"error":"'Europe' is not an AWS region code (like us-east-1)","hints":[]}
{"id":"s","line":5,"exit":2,"error":"'svg-dir' cannot be given per request","hints":[]}
{"id":"b","line":6,"exit":2,"error":"--iops must be a number from 1 to 1e+07 (such as 16000 or 16k), not 'true'","hints":[]}
{"id":"nested","line":7,"exit":2,"error":"'batch' cannot be given per request","hints":[]}
{"id":null,"line":8,"exit":2,"error":"cannot parse '$T/odd.jsonl': line 8: column 1: expected '{' (a request is one JSON object per line)","hints":[]}
EOF
sed 1d "$T/out" >"$T/got-odd"
cmp -s "$T/want-odd" "$T/got-odd" && ok "error lines: id, line, exit 2, the message" ||
	fail "error lines: id, line, exit 2, the message" "$(diff "$T/want-odd" "$T/got-odd" | head -6)"
head -1 "$T/out" | grep -q '^{"id":"ok","request":' && ok "the good line before them is answered" ||
	fail "the good line before them is answered"

# --- options on the command line are every request's defaults
printf '%s\n' '{"id":"a","iops":3000}' '{"id":"b","iops":3000,"types":"io2"}' >"$T/def.jsonl"
run cheapest --batch "$T/def.jsonl" --types gp3,gp2 --top 1 --region eu-west-1
expect_rc 0 "all answered: exit 0"
expect_err_empty "all answered: nothing on stderr"
"$EBSIZE" --db "$DB" --region eu-west-1 --format json cheapest --iops 3000 --types gp3,gp2 --top 1 >"$T/a.json"
"$EBSIZE" --db "$DB" --region eu-west-1 --format json cheapest --iops 3000 --types io2 --top 1 >"$T/b.json"
{ printf '{"id":"a",'; tail -c +2 "$T/a.json"; printf '{"id":"b",'; tail -c +2 "$T/b.json"; } >"$T/want-def"
cmp -s "$T/want-def" "$T/out" && ok "--types, --top and --region with --batch: defaults a line overrides" ||
	fail "--types, --top and --region with --batch: defaults a line overrides"

# --- standard input, CSV input
"$EBSIZE" --db "$DB" cheapest --batch - <"$MIX" >"$T/stdin.jsonl" 2>/dev/null
cmp -s "$T/stdin.jsonl" "$T/batch.jsonl" && ok "--batch - reads standard input: the same bytes" ||
	fail "--batch - reads standard input: the same bytes"
# the successful requests of the mix, as a spreadsheet would save them
printf '\357\273\277id,iops,throughput,size,region,instance,types,io-size,max-stripe\r\n' >"$T/mix.csv"
printf '%s\r\n' 'units,20k,500MiB/s,200,,,,,' 'db-7,12000,500,400,eu-west-1,r6i.2xlarge,,,' \
	'cny,6000,,500,cn-north-1,,,,' '"list",3000,,100,,,"gp2,gp3",,' \
	'st1,,500,12800,,,"st1,sc1,gp3,gp2",1024,' ',,,,,,,,' >>"$T/mix.csv"
run cheapest --batch "$T/mix.csv"
expect_rc 0 "CSV (BOM, CRLF, quoted lists, an empty row): exit 0"
grep -E '"id":"(units|db-7|cny|list|st1)",' "$T/batch.jsonl" >"$T/want-csv"
cmp -s "$T/want-csv" "$T/out" && ok "CSV rows give the same answers as the same JSON Lines" ||
	fail "CSV rows give the same answers as the same JSON Lines" "$(diff "$T/want-csv" "$T/out" | head -4 | cut -c1-200)"
run cheapest --batch "$T/mix.csv" --batch-format jsonl
expect_rc 1 "--batch-format jsonl on a CSV file: every line is an error"
grep -q '"line":1,"exit":2,"error":"cannot parse' "$T/out" && ok "... named by line" ||
	fail "... named by line"
printf 'id,iops\n"a,3000\n' >"$T/open.csv"
run cheapest --batch "$T/open.csv"
expect_rc 1 "a quote never closed: exit 1"
expect_err "error: cannot read '$T/open.csv': line 2: a quote is never closed" "... says where it opened"
printf 'id,iosp\nx,3000\n' >"$T/typo.csv"
run cheapest --batch "$T/typo.csv"
expect_rc 1 "a header with an unknown column: exit 1"
expect_err "error: cannot read '$T/typo.csv': line 1: unknown column 'iosp' (use id, region, iops, throughput, size, io-size, instance, types, max-stripe, peak, top or as-of)" \
	"... names the column and the keys there are"
expect_out_empty "... and answers nothing"
printf 'id,iops\na,3000,1\nb,3000\n' >"$T/wide.csv"
run cheapest --batch "$T/wide.csv"
expect_rc 1 "a row with too many fields: exit 1"
head -1 "$T/out" | grep -qF "{\"id\":null,\"line\":2,\"exit\":2,\"error\":\"cannot parse '$T/wide.csv': line 2: 3 fields where the header has 2\"" &&
	ok "... an error line for it" || fail "... an error line for it"
sed -n 2p "$T/out" | grep -q '^{"id":"b","request"' && ok "... and the next row is answered" ||
	fail "... and the next row is answered"

# --- --format csv: one row per request, the cheapest option's columns as
# `--format csv cheapest` prints them (its rank-1 row)
run --format csv cheapest --batch "$MIX"
expect_rc 1 "--format csv: exit 1 (some failed)"
cp "$T/out" "$T/rows.csv"
/usr/bin/python3 - "$T/rows.csv" "$EBSIZE" "$DB" >"$T/py" <<'PY'
import csv, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
want_cols = ("id line exit error request.iops request.throughput_mibps request.size_gib "
             "request.io_kib request.effective_mibps request.peak.iops request.peak.seconds "
             "request.peak.period_s request.region request.currency request.instance "
             "request.instance_fit request.types request.max_stripe request.as_of options_found "
             "type count size_gib iops throughput_mibps monthly_usd.storage monthly_usd.iops "
             "monthly_usd.throughput monthly_usd.total usd_per_1k_iops sustained peak_covered "
             "burst_seconds burst_note baseline_iops baseline_mibps headroom_pct instance_fit "
             "evidence notes").split()
print("ok columns" if list(rows[0].keys()) == want_cols else "fail columns %s" % list(rows[0].keys()))
print("ok rows" if len(rows) == 23 else "fail rows %d" % len(rows))
by = {r["id"]: r for r in rows}
one = subprocess.run([sys.argv[2], "--db", sys.argv[3], "--region", "eu-west-1", "--format", "csv",
                      "cheapest", "--iops", "12000", "--throughput", "500", "--size", "400",
                      "--instance", "r6i.2xlarge"], capture_output=True, text=True).stdout
first = list(csv.DictReader(one.splitlines()))[0]
same = all(by["db-7"][k] == v for k, v in first.items() if k != "rank")
print("ok same" if same else "fail same %s / %s" % (first, by["db-7"]))
print("ok cny" if by["cny"]["request.currency"] == "CNY" and by["cny"]["type"] else "fail cny")
print("ok err" if by["zero"]["exit"] == "2" and by["zero"]["type"] == "" and
      by["zero"]["error"].startswith("'--iops must be") else "fail err %s" % by["zero"])
print("ok nothing" if by["m5-over"]["exit"] == "1" and by["m5-over"]["options_found"] == "0" and
      "nearest feasible" in by["m5-over"]["notes"] else "fail nothing %s" % by["m5-over"])
print("ok line" if by["bad-date"]["line"] == "18" else "fail line")
PY
grep -q "^ok columns" "$T/py" && ok "csv: id, line, exit, error, the request, the option's columns, notes" ||
	fail "csv: id, line, exit, error, the request, the option's columns, notes" "$(cat "$T/py")"
grep -q "^ok rows" "$T/py" && ok "csv: one row per request" || fail "csv: one row per request" "$(cat "$T/py")"
grep -q "^ok same" "$T/py" && ok "csv: the option cells are those of the one-at-a-time CSV's first row" ||
	fail "csv: the option cells are those of the one-at-a-time CSV's first row" "$(grep same "$T/py")"
grep -q "^ok cny" "$T/py" && ok "csv: the CNY row says CNY" || fail "csv: the CNY row says CNY"
grep -q "^ok err" "$T/py" && ok "csv: a failed request: exit, the error (a leading '-' defused), empty cells" ||
	fail "csv: a failed request: exit, the error (a leading '-' defused), empty cells" "$(grep err "$T/py")"
grep -q "^ok nothing" "$T/py" && ok "csv: nothing meets the need: no option, the notes say the nearest" ||
	fail "csv: nothing meets the need: no option, the notes say the nearest" "$(grep nothing "$T/py")"
grep -q "^ok line" "$T/py" && ok "csv: the line column" || fail "csv: the line column"

# --- --format xlsx (read back with openpyxl), table, md
if /usr/bin/python3 -c 'import openpyxl' 2>/dev/null; then
	run --format xlsx -o "$T/b.xlsx" cheapest --batch "$MIX"
	expect_rc 1 "xlsx: exit 1 (some failed)"
	/usr/bin/python3 - "$T/b.xlsx" >"$T/py" <<'PY'
import openpyxl, sys
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb["results"]
rows = list(ws.iter_rows(values_only=True))
ids = [r[0] for r in rows[1:]]
ok = rows[0][:4] == ("id", "line", "exit", "error") and len(rows) == 24 and \
    ids[0] == "units" and ids[-1] == "attach" and isinstance(rows[1][1], (int, float))
print("ok" if ok else "fail %s %s" % (rows[0][:4], ids))
PY
	grep -q "^ok" "$T/py" && ok "xlsx: sheet results, a header and 23 typed rows, -o kept though a request failed" ||
		fail "xlsx: sheet results, a header and 23 typed rows, -o kept though a request failed" "$(cat "$T/py")"
else
	skip "xlsx: sheet results" "python3-openpyxl not installed"
fi
run --format table cheapest --batch "$MIX"
grep -q '^Results$' "$T/out" && grep -q '^io2-cap ' "$T/out" && ok "--format table: one table, a row per request" ||
	fail "--format table: one table, a row per request"
run --format md cheapest --batch "$MIX"
grep -q '^| db-7 ' "$T/out" && ok "--format md: a Markdown row per request" || fail "--format md: a Markdown row per request"

# --- -o: the output is whole though some requests failed, so it is kept
run -o "$T/out.jsonl" cheapest --batch "$MIX"
expect_rc 1 "-o: exit 1"
cmp -s "$T/out.jsonl" "$T/batch.jsonl" && ok "-o FILE holds every answer" || fail "-o FILE holds every answer"

# --- usage errors of the batch form
usage_error "--batch-format needs --batch" "--batch-format needs --batch" \
	cheapest --iops 3000 --batch-format csv
usage_error "--svg-dir with --batch" "--svg-dir cannot be used with --batch" \
	cheapest --batch "$MIX" --svg-dir "$T/svg"
usage_error "a --table other than results" "with --batch the only table is 'results', not 'options'" \
	cheapest --batch "$MIX" --format csv --table options
usage_error "--batch-format must be auto, jsonl or csv" "--batch-format must be auto, jsonl or csv, not 'xml'" \
	cheapest --batch "$MIX" --batch-format xml
run cheapest --batch "$T/nonexistent.jsonl"
expect_rc 1 "a file that is not there: exit 1"
expect_err "error: cannot open '$T/nonexistent.jsonl': No such file or directory" "... says so"
: >"$T/empty"
run cheapest --batch "$T/empty"
expect_rc 0 "an empty file: exit 0"
expect_err "note: no requests in '$T/empty'" "... and a note"

# --- a big GENERATED batch: every line answered in order, memory flat
/usr/bin/python3 - "$T/big.jsonl" <<'PY'
import json, random, sys
# GENERATED requests (not real workloads): a seeded mix of needs, regions, instances
rnd = random.Random(14)
with open(sys.argv[1], "w") as f:
    for i in range(5000):
        r = {"id": "g%d" % i, "iops": rnd.choice([3000, 12000, 40000, 90000]),
             "size": rnd.choice([50, 500, 4000])}
        if i % 3 == 0:
            r["region"] = rnd.choice(["eu-west-1", "cn-north-1", "ap-southeast-2"])
        if i % 4 == 0:
            r["instance"] = rnd.choice(["m6i.2xlarge", "r6i.large", "c7i.4xlarge"])
        f.write(json.dumps(r) + "\n")
PY
# (under ASan, freed memory waits in its quarantine -- 256 MB by default --
# which would measure ASan, not ebsize: none for this run; a plain build
# ignores ASAN_OPTIONS)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
	/usr/bin/time -f "%M" -o "$T/rss" "$EBSIZE" --db "$DB" cheapest --batch "$T/big.jsonl" >"$T/big.out" 2>"$T/big.err"
rc=$?
/usr/bin/python3 - "$T/big.out" >"$T/py" <<'PY'
import json, sys
ids = [json.loads(l)["id"] for l in open(sys.argv[1])]
print("ok" if ids == ["g%d" % i for i in range(5000)] else "fail %d lines" % len(ids))
PY
grep -q "^ok" "$T/py" && ok "5,000 generated requests: 5,000 JSON lines, ids in order" ||
	fail "5,000 generated requests: 5,000 JSON lines, ids in order" "$(cat "$T/py")"
rss=$(tail -1 "$T/rss")
[ "$rss" -lt 65536 ] && ok "... in $((rss / 1024)) MiB (< 64 MiB: results are not held)" ||
	fail "... in $((rss / 1024)) MiB (< 64 MiB: results are not held)"
# a sample of them against one process each
awk 'NR % 500 == 1' "$T/big.jsonl" >"$T/sample.jsonl"
/usr/bin/python3 "$ONESHOT" "$EBSIZE" "$DB" cheapest "$T/sample.jsonl" >"$T/want-sample"
awk 'NR % 500 == 1' "$T/big.out" | sed 's/"line":[0-9]*,/"line":L,/' >"$T/got-sample"
sed 's/"line":[0-9]*,/"line":L,/' "$T/want-sample" | cmp -s - "$T/got-sample" &&
	ok "... 10 of them byte-identical to one-at-a-time calls" ||
	fail "... 10 of them byte-identical to one-at-a-time calls"
