# xlsx-lib.sh - LibreOffice and openpyxl for the workbook tests (source
# after test-lib.sh).  Skips the whole script when either is missing
# (`make deps` installs libreoffice-calc-nogui and python3-openpyxl).
#
# lo_convert OUTDIR BOOK...: every sheet of every BOOK as
#   OUTDIR/<book>-<sheet>.csv, in one soffice run, with formulas
#   RECALCULATED on load: LibreOffice otherwise shows the cached values of
#   an .xlsx, and a test would pass on wrong formulas.  The private
#   profile in $T/lo sets OOXMLRecalcMode to 0 ("always recalculate").
# py_checks ARGS... <<'EOF': run a Python check script (tests/lib on its
#   path, so `import sheets` works); each line it prints, "ok DESC" or
#   "fail DESC | DETAIL", becomes an ok/fail of this test.

command -v soffice >/dev/null 2>&1 ||
	{ echo "ok 1 # skip LibreOffice (soffice) not installed; run make deps"; exit 0; }
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null ||
	{ echo "ok 1 # skip python3-openpyxl not installed; run make deps"; exit 0; }

LIBDIR="$ROOT/tests/lib"

lo_convert() {
	lo_out=$1
	shift
	mkdir -p "$T/lo/user" "$lo_out"
	cat >"$T/lo/user/registrymodifications.xcu" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
X
	# separator, quote, UTF-8, ..., -1: every sheet to its own file
	soffice -env:UserInstallation="file://$T/lo" --headless \
		--convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1' \
		--outdir "$lo_out" "$@" >"$T/lo.log" 2>&1
}

py_checks() {
	PYTHONPATH="$LIBDIR" /usr/bin/python3 - "$@" >"$T/py.out" 2>"$T/py.err"
	py_rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "${line#ok }" ;;
		"fail "*)
			d=${line#fail }
			n=$((n + 1))
			echo "not ok $n - ${d%% | *}"
			echo "#   ${d#* | }"
			;;
		esac
	done <"$T/py.out"
	[ $py_rc = 0 ] || fail "python check script ran" "$(tail -n 5 "$T/py.err")"
}
