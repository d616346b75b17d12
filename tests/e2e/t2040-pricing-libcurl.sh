#!/bin/sh
# t2040-pricing-libcurl: libcurl is loaded (dlopen) only by a command
# that needs the network.  The binary does not link it; offline commands
# never load it; `pricing fetch` without it fails with a clear message and
# leaves the database alone.  EBSIZE_LIBCURL names the library to load
# instead of libcurl.so.4 (here: one that does not exist, and one that is
# not libcurl).
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"

if readelf -d "$EBSIZE" | grep NEEDED | grep -q curl; then
	fail "the binary is not linked against libcurl" "$(readelf -d "$EBSIZE" | grep NEEDED)"
else
	ok "the binary is not linked against libcurl"
fi

# loaded (LD_DEBUG=libs: the dynamic loader reports every library it opens)
run pricing show >/dev/null
LD_DEBUG=libs "$EBSIZE" version >/dev/null 2>"$T/ld"
grep -q "libcurl" "$T/ld" && fail "ebsize version does not load libcurl" || ok "ebsize version does not load libcurl"
LD_DEBUG=libs "$EBSIZE" --db "$DB" cost --type gp3 --size 100 >/dev/null 2>"$T/ld"
grep -q "libcurl" "$T/ld" && fail "ebsize cost does not load libcurl" || ok "ebsize cost does not load libcurl"
start_bulk '{}'
LD_DEBUG=libs "$EBSIZE" --db "$DB" pricing fetch --bulk --endpoint "$BEP" --region us-west-2 >/dev/null 2>"$T/ld"
grep -q "libcurl.so.4" "$T/ld" && ok "pricing fetch loads libcurl.so.4" ||
	fail "pricing fetch loads libcurl.so.4" "$(grep -c . "$T/ld") lines"

dump_db >"$T/before.sql"
EBSIZE_LIBCURL=/nonexistent/libcurl.so.4 run pricing fetch --bulk --endpoint "$BEP" --region us-west-2
expect_rc 1 "no libcurl: exits 1"
expect_err "error: 'pricing fetch' needs libcurl, which cannot be loaded (/nonexistent/libcurl.so.4: cannot open shared object file: No such file or directory); install it (Debian: apt-get install libcurl4)" \
	"no libcurl: says what is missing and how to install it"
expect_db_unchanged "no libcurl"
EBSIZE_LIBCURL=/nonexistent/libcurl.so.4 AWS_ACCESS_KEY_ID=a AWS_SECRET_ACCESS_KEY=b run pricing fetch --region us-west-2
expect_rc 1 "no libcurl, Query API: exits 1"
expect_err_has "'pricing fetch' needs libcurl, which cannot be loaded" "no libcurl, Query API: the same message"
EBSIZE_LIBCURL=libm.so.6 run pricing fetch --bulk --endpoint "$BEP" --region us-west-2
expect_rc 1 "a library that is not libcurl: exits 1"
expect_err "error: 'pricing fetch' needs libcurl, which cannot be loaded ('libm.so.6' lacks curl_global_init); install it (Debian: apt-get install libcurl4)" \
	"a library that is not libcurl: names the missing function"
expect_db_unchanged "not libcurl"

# the offline commands do not care
EBSIZE_LIBCURL=/nonexistent/libcurl.so.4 run cost --type gp3 --size 100
expect_rc 0 "cost works without libcurl"
stop_bulk
