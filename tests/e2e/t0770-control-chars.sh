#!/bin/sh
# t0770-control-chars: text from outside -- instance type names (instances
# import), fio job names, versions and --label (bench import), SKUs and
# product names (pricing import), tag values, PV and StorageClass names
# (scan) -- carrying terminal escapes (ESC ] 0 ; ... BEL sets a window
# title, ESC [ 2 J clears the screen, U+009B is the one-character CSI)
# reaches no output raw, in any format, nor any message (issue 13 defect
# 2).  table and md show them escaped (\x1b, \u009b), JSON as \u001b,
# CSV as the visible escapes (tab and newline kept inside quotes).
. "$(dirname "$0")/../lib/test-lib.sh"
NOCTL="/usr/bin/python3 $ROOT/tests/lib/nocontrols.py"

# clean NAME: stdout and stderr of the last run hold no raw control
# (--csv as the first argument: the CSV rules for stdout)
clean() {
	if [ "$1" = --csv ]; then
		shift
		$NOCTL --csv "$T/out" >"$T/noctl" && $NOCTL "$T/err" >>"$T/noctl"
	else
		$NOCTL "$T/out" "$T/err" >"$T/noctl"
	fi
	if [ $? = 0 ]; then ok "$1: nothing raw"; else fail "$1: nothing raw" "$(cat "$T/noctl")"; fi
}

# every_format DESC ARGS...: the command in table, md, csv and json
every_format() {
	d=$1
	shift
	for f in table md json; do
		run --format $f "$@"
		expect_rc 0 "$d ($f) exits 0"
		clean "$d ($f)"
		cp "$T/out" "$T/out.$f"
	done
	run --format csv "$@"
	expect_rc 0 "$d (csv) exits 0"
	clean --csv "$d (csv)"
	cp "$T/out" "$T/out.csv"
}

# --- instances import: three names carrying the three sequences
/usr/bin/python3 - "$FIXTURES/describe-instance-types-2xlarge-group-instance-selector.json" \
	"$T/types.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
new = {"c5a.2xlarge": "c5a.\x1b]0;pwned\x07", "inf1.2xlarge": "inf1.\x1b[2J",
       "c4.2xlarge": "c4.\u009b2J"}
for x in d["InstanceTypes"]:
    x["InstanceType"] = new.get(x["InstanceType"], x["InstanceType"])
json.dump(d, open(sys.argv[2], "w"))
PY
run instances import "$T/types.json"
expect_rc 0 "instances import of hostile names"
clean "instances import"
every_format "instances show" instances show
expect_value "$(grep -c 'c5a\.\\x1b\]0;pwned\\x07 ' "$T/out.table")" 1 "table: the OSC name shown escaped"
expect_value "$(grep -c 'inf1\.\\x1b\[2J ' "$T/out.table")" 1 "table: the clear-screen name shown escaped"
expect_value "$(grep -c 'c4\.\\u009b2J ' "$T/out.table")" 1 "table: U+009B shown escaped"
expect_value "$(grep -c '| c5a\.\\\\x1b\\\]0;pwned\\\\x07 |' "$T/out.md")" 1 "md: the OSC name escaped, brackets too"
expect_value "$(grep -c '^c5a\.\\x1b\]0;pwned\\x07,' "$T/out.csv")" 1 "csv: the OSC name as visible escapes"
expect_value "$(/usr/bin/python3 -c '
import json, sys
names = {i["instance_type"] for i in json.load(open(sys.argv[1]))["instances"]}
print(all(n in names for n in ("c4.\u009b2J", "c5a.\x1b]0;pwned\x07", "inf1.\x1b[2J")))' "$T/out.json")" \
	True "json: the names read back exactly"
run instances show "$(printf 'c5a.\033]0;pwned\007')"
expect_rc 0 "a hostile name can be asked for"
clean "instances show NAME"
run instances show "$(printf 'nope\033[2J')"
expect_rc 1 "an unknown hostile name"
expect_err_has "error: unknown instance type 'nope\x1b[2J'" "the unknown name escaped in the message"

# --- bench import: job name, fio version and label
/usr/bin/python3 - "$FIXTURES/fio/fio-3.1-randread-libaio-qd1.json" "$T/fio.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["fio version"] = "fio-3.1\u009b2J"
d["jobs"][0]["jobname"] = "io\x1b[2Jtest"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
run bench import "$T/fio.json" --label "$(printf 'lab\033]0;pwned\007el')"
expect_rc 0 "bench import of hostile names"
clean "bench import"
expect_err_has "'lab\x1b]0;pwned\x07el'" "the import message shows the label escaped"
every_format "bench list" bench list
expect_out_has 'lab\x1b]0;pwned\x07el' "bench list csv: the label as visible escapes"
run_id=$(json_get runs.0.id <"$T/out.json" 2>/dev/null || echo 8)
every_format "bench show" bench show "$run_id"
grep -qF 'io\x1b[2Jtest' "$T/out.table" && ok "bench show: the job name shown escaped" ||
	fail "bench show: the job name shown escaped"
grep -qF 'fio-3.1\u009b2J' "$T/out.table" && ok "bench show: the fio version shown escaped" ||
	fail "bench show: the fio version shown escaped"
expect_value "$(json_get run.fio_version <"$T/out.json")" "$(printf 'fio-3.1\302\2332J')" "bench show json: the version exact"

# --- pricing import: a SKU and a price that are escape sequences (errors),
# and an unknown product's name (a note of the result)
/usr/bin/python3 - "$FIXTURES/pricing-getproducts-io1-aps1-awscli-example.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
item = json.loads(d["PriceList"][0])
def write(name, f):
    x = json.loads(json.dumps(item))
    f(x)
    json.dump({"FormatVersion": "aws_v1", "PriceList": [json.dumps(x)]}, open(sys.argv[2] + "/" + name, "w"))
def bad_sku(x):
    sku = "3MKH\x1b]0;pwned\x07"
    x["product"]["sku"] = sku
    t = x["terms"]["OnDemand"]
    term = t.pop("3MKHN58N7RDDVGKJ.JRTCKXETXF")
    term["sku"] = sku
    for dim in term["priceDimensions"].values():
        dim["pricePerUnit"] = {"USD": "0.1\x1b[2J"}
    t[sku + ".JRTCKXETXF"] = term
write("bad-price.json", bad_sku)
def odd_name(x):
    x["product"]["attributes"]["volumeType"] = "Mag\u009b2Jnetic\x1b[2J"
    x["product"]["attributes"]["usagetype"] = "APS1-\x1b]0;x\x07Odd"
write("odd-product.json", odd_name)
PY
sqlite3 "$DB" .dump >"$T/before.sql"
run pricing import "$T/bad-price.json"
expect_rc 1 "a price that is an escape sequence is refused"
clean "pricing import (bad price)"
expect_err_has 'SKU 3MKH\x1b]0;pwned\x07' "the SKU escaped in the error"
check_unchanged "pricing import (bad price)"
for f in table md json; do
	run --format $f pricing import "$T/odd-product.json"
	clean "pricing import (odd product, $f)"
done
run --format csv pricing import "$T/odd-product.json"
clean --csv "pricing import (odd product, csv)"
every_format "pricing history" pricing history
every_format "pricing show" pricing show --region ap-southeast-1

# --- scan: tag values, PV and StorageClass names
cat >"$T/vols.json" <<'JSON'
{"Generated": "generated test data", "Volumes": [
 {"VolumeId": "vol-0e2e0000000730001", "VolumeType": "gp2", "Size": 500,
  "State": "in-use", "AvailabilityZone": "us-east-1a",
  "Attachments": [{"InstanceId": "i-0e2e0001"}],
  "Tags": [{"Key": "Name", "Value": "db\u001b]0;pwned\u0007\r\nfake: line"},
           {"Key": "team\u009b2J", "Value": "x\u001b[2J\u009b31m<script>"}]},
 {"VolumeId": "vol-0e2e0000000730002", "VolumeType": "gp\u001b[2J", "Size": 10,
  "State": "in-use", "AvailabilityZone": "us-east-1a"}
]}
JSON
every_format "scan" scan "$T/vols.json" --by-tag "$(printf 'team\302\2332J')"
expect_err_has "unknown volume type 'gp?[2J'" "scan: the unknown type filtered in the warning"
grep -qF '<script>' "$T/out.md" && fail "scan md: no raw <script>" || ok "scan md: no raw <script>"
expect_value "$(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["findings"][0]["name"] == "db\x1b]0;pwned\x07\r\nfake: line" and
      d["totals_by_tag"][0]["tag_value"] == "x\x1b[2J\u009b31m<script>")' "$T/out.json")" True \
	"scan json: the Name tag and the --by-tag value exact"
grep -qF '\\u009b31m&lt;script&gt; |' "$T/out.md" && ok "scan md: the tag value escaped" ||
	fail "scan md: the tag value escaped"

/usr/bin/python3 - "$FIXTURES/scan/pv.json" "$FIXTURES/scan/sc.json" "$T" <<'PY'
import json, sys
pv = json.load(open(sys.argv[1]))
sc = json.load(open(sys.argv[2]))
pv["items"][0]["metadata"]["name"] = "pvc-\x1b]0;pwned\x07"
pv["items"][0]["spec"]["storageClassName"] = "gp2-\u009b2J"
pv["items"][0]["spec"]["claimRef"]["name"] = "db-\x1b[2J"
sc["items"][0]["metadata"]["name"] = "gp2-\u009b2J"
sc["items"][0]["parameters"]["TYPE"] = "gp\x1b[2J"
json.dump(pv, open(sys.argv[3] + "/pv.json", "w"))
json.dump(sc, open(sys.argv[3] + "/sc.json", "w"))
PY
every_format "scan (kubectl)" scan "$T/pv.json" "$T/sc.json"
[ -s "$T/err" ] && ok "scan (kubectl): warned" || fail "scan (kubectl): warned"
grep -qF 'gp2-?2J' "$T/err" && ok "scan (kubectl): the class name's U+009B filtered in the warning" ||
	fail "scan (kubectl): the class name's U+009B filtered in the warning"

# --- Markdown that renders the text (issue 13 defect 3): names that are
# HTML, a javascript: link, markup and a CR, through instances import; the
# md output rendered by GitHub's own renderer (cmark-gfm, its table
# extension, raw HTML allowed as a permissive renderer would) must hold
# only the table's own tags, no link, and each name as its text
if command -v cmark-gfm >/dev/null 2>&1; then
	/usr/bin/python3 - "$FIXTURES/describe-instance-types-2xlarge-group-instance-selector.json" \
		"$T/html.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
new = {"c5a.2xlarge": "<script>alert(1)</script>", "inf1.2xlarge": "<img src=x onerror=alert(1)>",
       "c4.2xlarge": "[x](javascript:alert(1))", "c5.2xlarge": "a\rb *em* `c` &amp; _u_ ~s~ | <!-- c",
       "c5d.2xlarge": "<a href=\"javascript:alert(1)\">y</a>"}
for x in d["InstanceTypes"]:
    x["InstanceType"] = new.get(x["InstanceType"], x["InstanceType"])
json.dump(d, open(sys.argv[2], "w"))
PY
	DB="$T/html.db"
	run instances import "$T/html.json"
	expect_rc 0 "instances import of HTML-like names"
	run --format md instances show
	expect_rc 0 "instances show --format md"
	cmark-gfm --unsafe -e table -e strikethrough -e autolink "$T/out" >"$T/page.html"
	/usr/bin/python3 - "$T/page.html" >"$T/render" <<'PY'
import sys
from html.parser import HTMLParser
want = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
        "a\\rb *em* `c` &amp; _u_ ~s~ | <!-- c", "<a href=\"javascript:alert(1)\">y</a>"]
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.cells, self.cur, self.other = set(), [], None, []
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        attrs = [a for a in attrs if a != ("align", "right")]
        if attrs:
            self.other.append((tag, attrs))
        if tag == "td":
            self.cur = ""
    def handle_endtag(self, tag):
        if tag == "td":
            self.cells.append(self.cur)
            self.cur = None
    def handle_data(self, data):
        if self.cur is not None:
            self.cur += data
    def handle_comment(self, data):
        self.other.append(("comment", data))
p = P()
p.feed(open(sys.argv[1]).read())
bad = p.tags - {"table", "thead", "tbody", "tr", "th", "td", "p", "ul", "li"}
print("tags", sorted(bad) or "ok")
print("attributes", p.other[:3] or "ok")
print("texts", [w for w in want if w not in p.cells] or "ok")
PY
	expect_value "$(sed -n 1p "$T/render")" "tags ok" "md rendered: no tag but the table's"
	expect_value "$(sed -n 2p "$T/render")" "attributes ok" "md rendered: no attribute, link or comment"
	expect_value "$(sed -n 3p "$T/render")" "texts ok" "md rendered: every name as its text (CR shown escaped)"
else
	skip "md rendered by cmark-gfm" "cmark-gfm is not installed (make deps)"
fi
