#!/bin/sh
# t6010-report-browser: the report in a real browser.  Headless Chromium
# (offline flags, real-clients.md), driven over the DevTools pipe by
# tests/lib/browser-check.py: the page loads with no console error and no
# request but its own file, the screenshot is not blank, the chart count
# is right; run labels like <script>alert(1)</script> arrive as text in the
# page and in the SVG files.  A control page proves the check can fail.
. "$(dirname "$0")/../lib/test-lib.sh"

BROWSE="/usr/bin/python3 $ROOT/tests/lib/browser-check.py"
CHECK="/usr/bin/python3 $ROOT/tests/lib/report-check.py"
EVIL1='<script>alert(1)</script>'
EVIL2='"><svg onload=alert(1)>'

if ! command -v chromium >/dev/null 2>&1; then
	fail "chromium is installed (make deps)"
	exit 1
fi

# jget FILE KEY: a member of the checker's JSON
jget() { json_get "$2" <"$1" 2>/dev/null; }

run report -o "$T/r"
expect_rc 0 "report"
$BROWSE "$T/r/index.html" "$T/shot.png" >"$T/b.json" 2>"$T/b.err"
[ -s "$T/b.json" ] && ok "Chromium rendered the page" || fail "Chromium rendered the page" "$(tail -5 "$T/b.err")"
expect_value "$(jget "$T/b.json" console)" "[]" "no console errors or warnings"
expect_value "$(jget "$T/b.json" requests)" "[\"file://$T/r/index.html\"]" \
	"no request but the page itself: nothing fetched"
expect_value "$(jget "$T/b.json" svgs)" 11 "11 charts in the page"
expect_value "$(jget "$T/b.json" scripts)" 0 "no script element"
# not blank: a white page has 1 colour; charts bring many
colours=$(jget "$T/b.json" colours)
[ "${colours:-0}" -gt 100 ] && ok "the screenshot is not blank ($colours colours)" ||
	fail "the screenshot is not blank" "colours=$colours"
height=$(jget "$T/b.json" height)
[ "${height:-0}" -gt 4000 ] && ok "the page is long enough for 11 charts (${height} px)" ||
	fail "page height" "height=$height"

# hostile labels, stored the ordinary way: bench import of a real fio output
FIO="$FIXTURES/fio"
run bench import "$FIO/fio-3.1-randread-libaio-qd1.json" \
	"$FIO/fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log" \
	--label "$EVIL1" --volume-type gp2 --size 8
expect_rc 0 "import a run labelled $EVIL1"
run bench import "$FIO/fio-3.34-randread-sync-SIGINT-noise-prefix.json.txt" --label "$EVIL2"
expect_rc 0 "import a run labelled $EVIL2"
run report -o "$T/h" --runs "$EVIL1" --runs "$EVIL2"
expect_rc 0 "report on the hostile runs"
$BROWSE "$T/h/index.html" "$T/shot2.png" "$EVIL1" "$EVIL2" >"$T/h.json" 2>"$T/h.err"
expect_value "$(jget "$T/h.json" texts)" "[true, true]" "both labels arrive as text in the page"
expect_value "$(jget "$T/h.json" scripts)" 0 "no script element in the page"
expect_value "$(jget "$T/h.json" handlers)" 0 "no on* attribute anywhere in the page"
expect_value "$(jget "$T/h.json" console)" "[]" "no console errors"
expect_value "$(jget "$T/h.json" requests)" "[\"file://$T/h/index.html\"]" "nothing fetched"
# 8 published charts; the runs: IOPS over time, and latency for each of
# their two phases (fio jobs 'iotest' and 'fiojob')
expect_value "$(jget "$T/h.json" svgs)" 11 "8 published charts and 3 for the imported runs"
expect_value "$(ls "$T/h" | grep -c '^runs-')" 3 "runs-iops, runs-latency-iotest, runs-latency-fiojob"
$CHECK svgs "$T/h" >"$T/svgs"
grep -q ' bad' "$T/svgs" && fail "hostile SVGs well-formed" "$(grep ' bad' "$T/svgs")" ||
	ok "every SVG well-formed with a title"
grep '^texts:' "$T/svgs" | grep -qF "$EVIL1" && grep '^texts:' "$T/svgs" | grep -qF "$EVIL2" &&
	ok "both labels arrive as text in the SVG files" || fail "labels as SVG text"
$CHECK elements "$T/h/runs-iops.svg" >"$T/el"
grep -qx 'script' "$T/el" && fail "no script element in the SVG" || ok "no script element in the SVG"
grep -q '^@on' "$T/el" && fail "no on* attribute in the SVG" || ok "no on* attribute in the SVG"
$CHECK table "$T/h/index.html" runs-iops >"$T/t"
grep -q "^$EVIL1	measured	" "$T/t" && ok "the label as text in the data table" || fail "label in the table"

# control: the same check catches a page that fetches and fails
cat >"$T/bad.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>control</title></head>
<body><img src="http://127.0.0.1:9/x.png"><script>console.error("control")</script></body></html>
EOF
$BROWSE "$T/bad.html" "$T/shot3.png" >"$T/c.json" 2>/dev/null
jget "$T/c.json" requests | grep -q '127.0.0.1:9' && ok "control: a fetch is seen" || fail "control: fetch"
jget "$T/c.json" console | grep -q 'control' && ok "control: a console error is seen" || fail "control: console"

echo "# $n tests"
