#!/bin/sh
# t2060-pricing-bulk-big: a GENERATED offer file of more than 300 MB
# (tests/lib/offer_gen.py), produced on the fly and never written to disk,
# is streamed through `pricing fetch --bulk` (from the loopback bulk host)
# and through `pricing import -` (from a pipe).  The prices and vintage
# must come out right and the peak resident memory stay at or under
# 64 MiB (GNU time's "maximum resident set size").
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
SIZE=310000000
LIMIT_KIB=65536

# expect_rss DESC: the KiB GNU time wrote to $T/rss is within the limit
expect_rss() {
	kib=$(tail -1 "$T/rss")
	if [ "$kib" -gt 0 ] 2>/dev/null && [ "$kib" -le $LIMIT_KIB ]; then
		ok "$1: peak RSS $kib KiB <= $LIMIT_KIB KiB"
	else
		fail "$1: peak RSS $kib KiB <= $LIMIT_KIB KiB" "$(cat "$T/rss")"
	fi
}

run pricing show >/dev/null   # create the database first
start_bulk "{\"sizes\": {\"us-west-2\": $SIZE}, \"version\": \"20261120093000\", \"published\": \"2026-11-20T09:30:00Z\"}"
/usr/bin/time -f %M -o "$T/rss" "$EBSIZE" --db "$DB" --format json pricing fetch --bulk \
	--endpoint "$BEP" --region us-west-2 >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "bulk fetch of a >300 MB offer file succeeds"
expect_rss "bulk fetch"
bytes=$(json_get bytes <"$T/out")
[ "$bytes" -ge 300000000 ] && ok "more than 300 MB streamed ($bytes bytes)" ||
	fail "more than 300 MB streamed ($bytes bytes)"
expect_json regions.0.prices 14 "the 14 EBS prices found among the filler"
expect_json regions.0.version 20261120093000 "vintage: version"
expect_json regions.0.published 2026-11-20T09:30:00Z "vintage: publicationDate"
expect_json regions.0.as_of 2026-11-20 "as_of is the publication date"
[ -z "$(find "$T" -size +10M)" ] && ok "no big file was written" ||
	fail "no big file was written" "$(find "$T" -size +10M)"
# T6 us-west-2: gp3 storage 0.08, io2 tier 3 0.03185
run --format json pricing show --region us-west-2 --type io2
expect_json prices.2.price_per_unit 0.03185 "io2 tier 3 0.03185 (T6)"
expect_json prices.2.begin_range 64000 "io2 tier 3 from 64,000"
stop_bulk

# the same size through `pricing import -` from a pipe
/usr/bin/python3 "$ROOT/tests/lib/offer_gen.py" eu-west-1 $SIZE 20261121000000 2026-11-21T00:00:00Z |
	/usr/bin/time -f %M -o "$T/rss" "$EBSIZE" --db "$DB" --format json pricing import - >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "import of a >300 MB offer file from a pipe succeeds"
expect_rss "import from a pipe"
expect_json prices 14 "import: 14 prices"
expect_json as_of 2026-11-21 "import: as_of from publicationDate"
expect_json version 20261121000000 "import: version reported"
