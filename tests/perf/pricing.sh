#!/bin/sh
# pricing.sh - how long `pricing fetch` takes against the loopback
# GetProducts server (tests/lib/pricing_server.py, GENERATED T6 data) and
# how fast `pricing import` parses a large file of saved pages.  Figures
# only; nothing is asserted about time.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-perf.XXXXXX")
EBSIZE=${EBSIZE_BIN:?}
DB=$T/perf.db
HOME=$T/home
export HOME
mkdir -p "$HOME"
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_PRICING 2>/dev/null || true
. "$ROOT/tests/lib/pricing-server.sh"
trap 'stop_server; rm -rf "$T"' EXIT

now_ms() { date +%s%3N; }

"$EBSIZE" --db "$DB" pricing show >/dev/null
for size in 1 100; do
	start_server "{\"page_size\": $size}"
	t0=$(now_ms)
	with_creds "$EBSIZE" --db "$DB" --format json pricing fetch --endpoint "$EP" --all-regions \
		--accept-changes >"$T/out" || exit 1
	t1=$(now_ms)
	req=$(/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])' <"$T/out")
	echo "fetch --all-regions, page size $size: $req signed requests, $((t1 - t0)) ms"
	stop_server
done

# a saved-pages file: GENERATED, 200 GetProducts pages of 100 items each
# (the 42 T6-based items of the test server, repeated)
/usr/bin/python3 - "$ROOT/tests/lib" "$T/pages.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import pricing_server as s
items = [s.item(r, k, {}) for r in s.T6 for k in s.SKUS]
with open(sys.argv[2], "w") as f:
    for p in range(200):
        page = [items[(p * 100 + i) % len(items)] for i in range(100)]
        f.write(json.dumps({"FormatVersion": "aws_v1", "PriceList": page, "NextToken": "t%d" % p}) + "\n")
PY
bytes=$(wc -c <"$T/pages.json")
t0=$(now_ms)
"$EBSIZE" --db "$DB" --format json pricing import --accept-changes "$T/pages.json" >"$T/out" || exit 1
t1=$(now_ms)
echo "import of 200 saved pages (20,000 items, $((bytes / 1048576)) MiB): $((t1 - t0)) ms"
