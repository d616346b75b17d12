#!/bin/sh
# offers.sh - the streaming offer-file reader (issue 14 "stream the big
# inputs", issue 15 `pricing fetch --bulk`):
#  1. `pricing import` of a GENERATED AmazonEC2 offer file of OFFER_MB
#     (default 1000) MB on disk: MB/s and peak RSS (target >= 50 MB/s,
#     <= 64 MiB), median of 3;
#  2. the peer: Python's json.load of a 100 MB one (it needs the whole
#     document in memory), for the ratio;
#  3. `pricing fetch --bulk` of a 300 MB file from the loopback host,
#     generated on the fly (bounded by the Python server's speed).
# Figures only; nothing is asserted.  Files: tests/lib/offer_gen.py.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EBSIZE=${EBSIZE_BIN:?run through make perf}
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-perf.XXXXXX")
DB=$T/perf.db
HOME=$T/home
export HOME
mkdir -p "$HOME"
. "$ROOT/tests/lib/pricing-server.sh"
trap 'stop_bulk; rm -rf "$T"' EXIT
MB=${OFFER_MB:-1000}

"$EBSIZE" --db "$DB" pricing show >/dev/null
/usr/bin/python3 "$ROOT/tests/lib/offer_gen.py" us-west-2 $((MB * 1000000)) >"$T/offer.json"
bytes=$(wc -c <"$T/offer.json")
: >"$T/runs"
for i in 1 2 3; do
	s=$(date +%s%N)
	/usr/bin/time -f %M -o "$T/rss" "$EBSIZE" --db "$DB" pricing import --accept-changes \
		"$T/offer.json" >/dev/null || exit 1
	e=$(date +%s%N)
	echo "$(( (e - s) / 1000000 )) $(tail -1 "$T/rss")" >>"$T/runs"
done
sort -n "$T/runs" | sed -n 2p >"$T/med"
read -r ms kib <"$T/med"
echo "pricing import of a $((bytes / 1000000)) MB offer file: median $ms ms = $((bytes / 1000 / ms)) MB/s, peak RSS $((kib / 1024)) MiB (target >= 50 MB/s, <= 64 MiB)"

/usr/bin/python3 "$ROOT/tests/lib/offer_gen.py" us-west-2 100000000 >"$T/offer100.json"
b100=$(wc -c <"$T/offer100.json")
s=$(date +%s%N)
"$EBSIZE" --db "$DB" pricing import --accept-changes "$T/offer100.json" >/dev/null
e=$(date +%s%N)
ems=$(( (e - s) / 1000000 ))
/usr/bin/time -f "%e %M" -o "$T/py" /usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/offer100.json"
read -r psec pkib <"$T/py"
echo "100 MB offer file: ebsize $ems ms; Python json.load ${psec} s at $((pkib / 1024)) MiB (whole document in memory)"
rm -f "$T/offer.json" "$T/offer100.json"

start_bulk '{"sizes": {"us-west-2": 300000000}}'
s=$(date +%s%N)
/usr/bin/time -f %M -o "$T/rss" "$EBSIZE" --db "$DB" --format json pricing fetch --bulk \
	--endpoint "$BEP" --region us-west-2 --accept-changes >"$T/out" || exit 1
e=$(date +%s%N)
ms=$(( (e - s) / 1000000 ))
echo "pricing fetch --bulk of a 300 MB offer file (loopback, generated on the fly): $ms ms, peak RSS $(( $(tail -1 "$T/rss") / 1024 )) MiB"
