#!/bin/sh
# t6000-report: `ebsize report` writes index.html and one well-formed SVG
# per chart (read back with Python's own parsers); the published gp2 cliff
# sits at 1,999 s and the modelled 100 GiB gp2 drops to 300 IOPS at 2,000 s
# (seed-benchmarks.md A; 5,400,000 / (3,000 - 300), T2); the cost curves
# carry the article's Seoul prices; usage and runtime errors; nothing is
# left half-written.
. "$(dirname "$0")/../lib/test-lib.sh"

CHECK="/usr/bin/python3 $ROOT/tests/lib/report-check.py"
R="$T/report"

run report -h
expect_rc 0 "report -h"
expect_out_has "usage: ebsize report -o DIR" "usage text"
run help report
expect_out_has "--runs RUN" "help report"
run help
expect_out_has "report      an HTML report with SVG charts" "report in the command list"

usage_error "no -o" "missing -o DIR" report
usage_error "a stray argument" "unexpected argument 'x'" report -o "$R" x
usage_error "unknown option" "unknown option '--nope'" report -o "$R" --nope
run report -o
expect_rc 2 "-o without a value"
expect_err "error: option '-o' needs a value
hint: see 'ebsize help'" "-o without a value: the global option's message"
usage_error "--iops needs --compare" "--iops goes with --compare" report -o "$R" --burst --iops 5
usage_error "--load needs --burst" "--load goes with --burst" report -o "$R" --compare --load 5
usage_error "--sizes needs a curve" "--sizes goes with --compare or --burst" report -o "$R" --bench --sizes 100
usage_error "bad sizes" "--sizes must be up to 64 sizes of 1 to 65536 GiB (such as 500,1TiB), not '100,0'" \
	report -o "$R" --sizes 100,0
usage_error "bad iops" "--iops must be a whole number from 1 to 256000 (such as 16000 or 16k), not '0'" \
	report -o "$R" --iops 0
[ ! -e "$R" ] && ok "usage errors write nothing" || fail "usage errors write nothing"

# ---------------------------------------------------------------- default
run report -o "$R"
expect_rc 0 "report with every section"
expect_out_empty "nothing on stdout"
expect_err "wrote '$R/index.html' with 11 charts" "one line on stderr (no progress without a terminal)"
ls "$R" >"$T/files"
want="cost-iops.svg
cost-size.svg
gp2-burst-duration.svg
index.html
published-a-iops.svg
published-a-latency-randread-qd1.svg
published-a-latency-randread-qd32.svg
published-a-latency-randwrite-qd32.svg
published-b-gp3-160-iops.svg
published-b-gp3-160-latency-randwrite.svg
published-b-gp3-160-latency-seqread.svg
published-c-iops.svg"
[ "$(cat "$T/files")" = "$want" ] && ok "index.html and one SVG per chart, nothing else" ||
	fail "files" "got: $(cat "$T/files")"
$CHECK svgs "$R" >"$T/svgs"
[ "$(grep -c ' ok$' "$T/svgs")" = 11 ] && ! grep -q ' bad' "$T/svgs" &&
	ok "every SVG is well-formed XML with a <title> and a <desc>" ||
	fail "svgs" "$(grep -v '^texts:' "$T/svgs")"
head -c 38 "$R/cost-iops.svg" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>' &&
	ok "SVG files start with an XML declaration" || fail "XML declaration"
[ "$(grep -c '<svg ' "$R/index.html")" = 11 ] && ok "index.html holds the 11 charts inline" ||
	fail "inline charts"
grep -q '<script' "$R/index.html" && fail "no script in the page" || ok "no script in the page"
grep -Eq ' src=|url\(http|@import|<link' "$R/index.html" && fail "nothing fetched" ||
	ok "no src, link or import: nothing fetched"

# the data behind the published A chart
$CHECK table "$R/index.html" published-a-iops >"$T/a"
cliff=$(awk -F'\t' '$1 == "published-A-gp2-100" && $2 == "published cliff" { print $3 "|" $4 "|" $5 }' "$T/a")
expect_value "$cliff" "1,999|300|3,001 -> 300 IOPS" "published gp2 cliff at 1,999 s, 3,001 -> 300 (data)"
drop=$(awk -F'\t' '$1 == "published-A-gp2-100" && $2 == "modelled" && $4 == "300" { print $3; exit }' "$T/a")
expect_value "$drop" "2,000" "modelled 100 GiB gp2 at 3,000 IOPS drops to 300 at 2,000 s"
before=$(awk -F'\t' '$1 == "published-A-gp2-100" && $2 == "modelled" && $3 == "2,000" { print $4; exit }' "$T/a")
expect_value "$before" "3,000" "... from 3,000 until then"
grep -q 'class="annotation" data-x="1999"' "$R/published-a-iops.svg" &&
	grep -q 'class="annotation" data-x="2000"' "$R/published-a-iops.svg" &&
	ok "both cliffs annotated in the SVG" || fail "cliff annotations"
grep -q 'data-series="published-A-gp2-100: modelled" data-values="0,3000 2000,3000 2000,300 2700,300"' \
	"$R/published-a-iops.svg" && ok "the SVG's data points of the modelled line" ||
	fail "modelled data points"
awk -F'\t' '$2 == "measured"' "$T/a" | grep -q . && fail "no measured series for published runs" ||
	ok "published runs: no per-second series made up"
$CHECK table "$R/index.html" published-a-latency-randwrite-qd32 >"$T/lat"
grep -q "published-A-gp2-100	gp2	randwrite-qd32	11.100	109.600	133.700" "$T/lat" &&
	grep -q "published-A-gp3-100	gp3	randwrite-qd32	10.200	11.200	12.000" "$T/lat" &&
	ok "latency percentiles of gp2 and gp3 side by side (article)" || fail "latency table" "$(cat "$T/lat")"

# the same report again: byte for byte the same; and the committed example
# is what `make reports` makes (tools/make-reports.sh: these sections and
# the scan of a generated inventory)
run report -o "$T/again"
diff -r "$R" "$T/again" >/dev/null && ok "the report is reproducible" || fail "reproducible"
sh "$ROOT/tools/make-reports.sh" "$EBSIZE" "$T/example" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "tools/make-reports.sh"
diff -r "$T/example" "$ROOT/reports" >/dev/null && ok "reports/ is up to date" ||
	fail "reports/ is up to date" "run 'make reports' and commit the result"
for f in "$R"/*; do
	cmp -s "$f" "$T/example/$(basename "$f")" || [ "$(basename "$f")" = index.html ] ||
		fail "the example's $(basename "$f") is the default report's"
done
grep -q 'generated inventory' "$ROOT/reports/scan-categories.svg" &&
	grep -q 'GENERATED test data, not a real account' "$ROOT/reports/index.html" &&
	ok "the example's scan says its inventory is generated" || fail "generated label"

# ---------------------------------------------------------------- sections
run --region ap-northeast-2 report -o "$T/seoul" --compare --sizes 100,1000
expect_rc 0 "--compare in Seoul"
ls "$T/seoul" | tr '\n' ' ' >"$T/files"
expect_value "$(cat "$T/files")" "cost-iops.svg cost-size.svg index.html " "--compare: the two cost charts only"
$CHECK table "$T/seoul/index.html" cost-size >"$T/c"
# seed-benchmarks.md A: gp2 100 GiB $11.40, gp3 100 GiB $9.12; gp2 1,000 GiB $114.00
expect_value "$(awk -F'\t' '$1 == "100" { print $2 "|" $3 }' "$T/c")" '$11.40|$9.12' \
	"Seoul 100 GiB: gp2 \$11.40, gp3 \$9.12 (article)"
expect_value "$(awk -F'\t' '$1 == "1,000" { print $2 }' "$T/c")" '$114.00' \
	"Seoul gp2 1,000 GiB \$114.00 (article)"
# Seoul gp3 250 MiB/s above 170 GiB: 0.0912 S + 125 x 0.0456 = 0.114 S
# -> S = 5.7 / 0.0228 = 250 GiB again; and 171: 17.19 + 5.70 > 19.49
grep -q 'data-x="171"' "$T/seoul/cost-size.svg" && grep -q 'data-x="250"' "$T/seoul/cost-size.svg" &&
	ok "crossovers at 171 and 250 GiB labelled" || fail "crossovers"

run report -o "$T/burst" --burst --load 6000 --sizes 100,500
expect_rc 0 "--burst --load 6000"
$CHECK table "$T/burst/index.html" gp2-burst-duration >"$T/b"
# 100 GiB at 6,000 asked: capped at the 3,000 ceiling: 5,400,000 / 2,700
expect_value "$(awk -F'\t' '$1 == "100" { print $4 }' "$T/b")" "2,000" "load above the ceiling: 2,000 s at 100 GiB"
# 500 GiB: 5,400,000 / (3,000 - 1,500) = 3,600 s = 60 min
expect_value "$(awk -F'\t' '$1 == "500" { print $4 "|" $5 }' "$T/b")" "3,600|60 min" "500 GiB lasts an hour (T2)"

run report -o "$T/one" --runs 2
expect_rc 0 "--runs with a published run"
run report -o "$T/none" --runs no-such-run
expect_rc 1 "an unknown run is a runtime error"
expect_err_has "no-such-run" "the error names the run"
expect_err_has "hint: see 'ebsize bench list'" "and points at bench list"
[ ! -e "$T/none" ] && ok "nothing written on a runtime error" || fail "nothing written on a runtime error"
run --region xx-nowhere-1 report -o "$T/nowhere" --compare
expect_rc 1 "a region without prices is a runtime error"
[ ! -e "$T/nowhere" ] && ok "... and writes nothing" || fail "nowhere"

# ---------------------------------------------------------------- failures
printf 'x' >"$T/afile"
run report -o "$T/afile"
expect_rc 1 "a file as the output directory"
expect_err "error: cannot write into '$T/afile': it is not a directory" "says so"
run report -o "$T/afile/sub"
expect_rc 1 "a directory under a file"
expect_err "error: cannot create directory '$T/afile/sub': Not a directory" "names the directory"
mkdir -p "$T/blocked/index.html"
run report -o "$T/blocked"
expect_rc 1 "index.html blocked by a directory"
expect_err "error: cannot write '$T/blocked/index.html': it is a directory" "names the file"
[ "$(ls "$T/blocked")" = "index.html" ] && ok "no chart written when the page cannot be" ||
	fail "no partial report" "$(ls "$T/blocked")"
ls "$R" | grep -q '\.tmp\.' && fail "no temporary files left" || ok "no temporary files left"

echo "# $n tests"
