#!/bin/sh
# t5025-xlsx-libxlsxwriter: libxlsxwriter is loaded (dlopen) only when a
# workbook is written (issue 14: linked, it and the libraries it pulls in
# -- libcrypto, minizip -- were most of a short command's start-up).  The
# binary does not link it; other formats never load it; --format xlsx
# without it fails with a clear message and writes no file.
# EBSIZE_LIBXLSXWRITER names the library to load instead.
. "$(dirname "$0")/../lib/test-lib.sh"

needed=$(readelf -d "$EBSIZE" | grep NEEDED)
for lib in xlsxwriter crypto minizip; do
	if echo "$needed" | grep -q "$lib"; then
		fail "the binary is not linked against lib$lib" "$needed"
	else
		ok "the binary is not linked against lib$lib"
	fi
done

run cost --type gp3 --size 100 >/dev/null
LD_DEBUG=libs "$EBSIZE" version >/dev/null 2>"$T/ld"
grep -q "libxlsxwriter" "$T/ld" && fail "ebsize version does not load libxlsxwriter" ||
	ok "ebsize version does not load libxlsxwriter"
LD_DEBUG=libs "$EBSIZE" --db "$DB" --format csv cost --type gp3 --size 100 >/dev/null 2>"$T/ld"
grep -q "libxlsxwriter" "$T/ld" && fail "cost --format csv does not load libxlsxwriter" ||
	ok "cost --format csv does not load libxlsxwriter"
LD_DEBUG=libs "$EBSIZE" --db "$DB" --format xlsx -o "$T/c.xlsx" cost --type gp3 --size 100 \
	>/dev/null 2>"$T/ld"
grep -q "libxlsxwriter.so.4" "$T/ld" && ok "--format xlsx loads libxlsxwriter.so.4" ||
	fail "--format xlsx loads libxlsxwriter.so.4" "$(grep -c . "$T/ld") lines"
if [ -s "$T/c.xlsx" ] && head -c 2 "$T/c.xlsx" | grep -q PK; then
	ok "the workbook is written (a zip)"
else
	fail "the workbook is written (a zip)"
fi

EBSIZE_LIBXLSXWRITER=/nonexistent/libxlsxwriter.so.4 run --format xlsx -o "$T/n.xlsx" \
	cost --type gp3 --size 100
expect_rc 1 "no libxlsxwriter: exits 1"
expect_err "error: cannot write '$T/n.xlsx': --format xlsx needs libxlsxwriter, which cannot be loaded (/nonexistent/libxlsxwriter.so.4: cannot open shared object file: No such file or directory); install it (Debian: apt-get install libxlsxwriter4)" \
	"no libxlsxwriter: says what is missing and how to install it"
[ -e "$T/n.xlsx" ] && fail "no libxlsxwriter: no file is left" || ok "no libxlsxwriter: no file is left"
[ -z "$(ls "$T" | grep 'n.xlsx')" ] && ok "no libxlsxwriter: no temporary file is left" ||
	fail "no libxlsxwriter: no temporary file is left" "$(ls "$T")"
EBSIZE_LIBXLSXWRITER=libm.so.6 run --format xlsx -o "$T/m.xlsx" cost --type gp3 --size 100
expect_rc 1 "a library that is not libxlsxwriter: exits 1"
expect_err "error: cannot write '$T/m.xlsx': --format xlsx needs libxlsxwriter, which cannot be loaded ('libm.so.6' lacks workbook_new_opt); install it (Debian: apt-get install libxlsxwriter4)" \
	"a library that is not libxlsxwriter: names the missing function"

EBSIZE_LIBXLSXWRITER=/nonexistent/libxlsxwriter.so.4 run --format csv cost --type gp3 --size 100
expect_rc 0 "csv works without libxlsxwriter"
