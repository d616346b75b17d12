#!/bin/sh
# memcheck.sh - valgrind memcheck over a representative set of commands
# (every command family, every output format, -o files and workbooks, the
# import and parse paths, a fetch through libcurl from a loopback server,
# and error paths): no memory error and no definite leak in any.  Part of
# `make check-all`; needs the plain build (valgrind and ASan do not mix).
# Prints "ok N - ..." / "not ok N - ..." and "N passed, N failed".
# EBSIZE_BIN: the binary (make check-all sets it).
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
: "${EBSIZE_BIN:?run through make check-all (EBSIZE_BIN)}"
command -v valgrind >/dev/null 2>&1 || { echo "memcheck: valgrind is not installed (make deps)" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-memcheck.XXXXXX")
SRV=""
trap '[ -n "$SRV" ] && kill "$SRV" 2>/dev/null; rm -rf "$T"' EXIT
export HOME="$T/home" XDG_DATA_HOME="$T/xdg"
mkdir -p "$HOME"
unset EBSIZE_DB AWS_PROFILE AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE 2>/dev/null || true
export AWS_EC2_METADATA_DISABLED=true EBSIZE_FETCH_BACKOFF_MS=10
F=$ROOT/tests/fixtures
DB=$T/m.db
n=0 passed=0 failed=0

# vg WANT_RC ARGS...: ebsize ARGS under memcheck; its exit status must be
# WANT_RC (valgrind's own is 99 for an error or a definite leak)
vg() {
	want=$1
	shift
	n=$((n + 1))
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
		--errors-for-leak-kinds=definite --log-file="$T/vg.$n" \
		"$EBSIZE_BIN" --db "$DB" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" = "$want" ] && [ ! -s "$T/vg.$n" ]; then
		passed=$((passed + 1))
		echo "ok $n - memcheck: ebsize $*"
	else
		failed=$((failed + 1))
		echo "not ok $n - memcheck: ebsize $* (exit $rc, wanted $want)"
		sed 's/^/#   /' "$T/vg.$n" | head -n 30
		sed 's/^/#   stderr: /' "$T/err" | head -n 5
	fi
}

vg 0 db check
vg 0 --format json cost --type io2 --size 1000 --iops 70000
vg 0 --format md compare --sizes 100,1000,4000 --types gp2,gp3,io2
vg 0 --format csv cheapest --iops 20000 --size 500 --top 5
vg 0 burst --size 100 --load 3000 --duration 2700
vg 0 --format csv burst --size 100 --load 3000 --timeline --duration 600
vg 0 pricing show --region eu-west-1
vg 0 pricing regions
vg 0 --format json pricing import "$F/pricing-offer-extract-usw2-gp3-iops-throughput.json"
vg 0 pricing history
vg 0 --format json pricing diff
vg 0 --format json instances import "$F/describe-instance-types-2xlarge-group-instance-selector.json"
vg 0 instances show c5.large
vg 0 --format json bench import "$F/fio/fio-3.1-randread-libaio-qd1.json" \
	"$F/fio/fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log" --label memcheck --volume-type gp2 --size 8
vg 0 bench list
vg 0 --format md bench show 8
vg 0 bench compare 1 2
vg 0 --format json scan "$F/scan/inv-us.json" "$F/scan/inv-eu.json" "$F/scan/metrics.json" \
	--usage "$F/scan/generated-usage.csv"
vg 0 scan "$F/k8s/a-pvs.json" "$F/k8s/a-pvcs.json" "$F/k8s/a-storageclasses.json" \
	"$F/k8s/a-volumeattributesclasses.json"
vg 0 --format xlsx -o "$T/scan.xlsx" scan "$F/scan/inv-us.json"
vg 0 --format xlsx -o "$T/compare.xlsx" compare --sizes 100,1000
vg 0 -q report -o "$T/report"
vg 0 --format json bench k8s --types gp3 --size 100Gi
# error paths
vg 1 scan "$F/describe-volumes-awscli-example-2020-INVALID-json.txt"
vg 1 pricing import "$F/describe-instance-types-c4.2xlarge-instance-selector.json"
vg 2 cost --type gp9 --size 1
vg 1 --format csv -o "$T/nodir/x.csv" compare

# a fetch through libcurl (dlopen) from the loopback Query API server
/usr/bin/python3 "$ROOT/tests/lib/pricing_server.py" "$T/port" "$T/srv.log" '{"page_size": 20}' &
SRV=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY='ebsizeTESTsecret/K7MDENG+bPxRfiCYzzNOTREAL' \
	vg 0 --format json pricing fetch --endpoint "http://127.0.0.1:$(cat "$T/port")" \
	--region us-west-2 --accept-changes

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
