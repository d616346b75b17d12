# test-lib.sh - helpers for the end-to-end tests (after git's t/test-lib.sh).
#
# A test script sources this file, then calls `run ARGS...` to run ebsize
# with its own temporary database, and `expect_*` to check the outcome.
# Each expect_* prints "ok N - DESC" or "not ok N - DESC" with details.
# Everything happens in $T, a fresh temporary directory removed at exit
# (KEEP=1 keeps it, to look at after a failure).

set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/ebsize-test.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
export HOME="$T/home" XDG_DATA_HOME="$T/xdg"
mkdir -p "$HOME"
unset EBSIZE_DB AWS_REGION AWS_DEFAULT_REGION AWS_PROFILE \
	AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN \
	AWS_ENDPOINT_URL AWS_ENDPOINT_URL_PRICING 2>/dev/null || true
DB="$T/ebsize.db"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURES="$ROOT/tests/fixtures"
EBSIZE="${EBSIZE_BIN:?}"
n=0

# run ARGS...: ebsize --db $DB ARGS; stdout in $T/out, stderr in $T/err, rc in $rc
run() {
	"$EBSIZE" --db "$DB" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# run_raw ARGS...: ebsize without --db
run_raw() {
	"$EBSIZE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)); echo "not ok $n - $1"
	shift
	for line in "$@"; do echo "#   $line"; done
	echo "#   rc=$rc"
	sed 's/^/#   stdout: /' "$T/out" | head -n 15
	sed 's/^/#   stderr: /' "$T/err" | head -n 15
}

# expect_rc N DESC
expect_rc() {
	if [ "$rc" = "$1" ]; then ok "$2"; else fail "$2" "expected exit $1"; fi
}

# expect_out_has TEXT DESC: stdout contains TEXT (fixed string)
expect_out_has() {
	if grep -qF -- "$1" "$T/out"; then ok "$2"; else fail "$2" "stdout lacks: $1"; fi
}

# expect_err TEXT DESC: exact stderr (all lines)
expect_err() {
	if [ "$(cat "$T/err")" = "$1" ]; then ok "$2"; else fail "$2" "stderr should be: $1"; fi
}

expect_err_has() {
	if grep -qF -- "$1" "$T/err"; then ok "$2"; else fail "$2" "stderr lacks: $1"; fi
}

expect_out_empty() {
	if [ ! -s "$T/out" ]; then ok "$1"; else fail "$1" "stdout should be empty"; fi
}

expect_err_empty() {
	if [ ! -s "$T/err" ]; then ok "$1"; else fail "$1" "stderr should be empty"; fi
}

# usage_error DESC MESSAGE CMD ARGS...: `ebsize CMD ARGS` exits 2, prints
# nothing on stdout and exactly "error: MESSAGE" + "hint: see 'ebsize CMD -h'"
# on stderr
usage_error() {
	desc=$1 msg=$2 cmd=$3
	shift 2
	run "$@"
	want=$(printf 'error: %s\nhint: see '\''ebsize %s -h'\''' "$msg" "$cmd")
	if [ "$rc" = 2 ] && [ "$(cat "$T/err")" = "$want" ] && [ ! -s "$T/out" ]; then
		ok "$desc"
	else
		fail "$desc" "expected exit 2 and: $want"
	fi
}

# jq-free JSON access: json_get PATH < file  (python3 stdlib)
json_get() {
	/usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    if k == "": continue
    d = d[int(k)] if isinstance(d, list) else d[k]
print(json.dumps(d) if isinstance(d, (dict, list)) else d)' "$1"
}

# expect_value GOT EXPECTED DESC [TOL] [WHAT]: GOT is a number within TOL
# (default exact) of EXPECTED, or the same string
expect_value() {
	if /usr/bin/python3 -c '
import sys
g, e, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
try:
    ok = abs(float(g) - float(e)) <= tol
except ValueError:
    ok = g == e
sys.exit(0 if ok else 1)' "$1" "$2" "${4:-0}"; then
		ok "$3"
	else
		fail "$3" "${5:-value} = '$1', expected $2 (tol ${4:-0})"
	fi
}

# expect_json PATH EXPECTED DESC [TOL]: a member of the JSON on stdout
expect_json() {
	expect_value "$(json_get "$1" <"$T/out" 2>/dev/null)" "$2" "$3" "${4:-0}" "$1"
}

# skip DESC WHY: a check that cannot run here; counted as skipped
skip() {
	n=$((n + 1)); echo "ok $n - $1 # SKIP $2"
}

# q SQL: one query on the test database (waits for a writer up to 5 s)
q() { sqlite3 -cmd ".timeout 5000" "$DB" "$1"; }

# runs: how many benchmark runs the test database holds
runs() { q "SELECT count(*) FROM bench_runs"; }

# check_unchanged DESC: the database dump equals $T/before.sql
check_unchanged() {
	sqlite3 "$DB" .dump >"$T/after.sql"
	cmp -s "$T/before.sql" "$T/after.sql" && ok "$1: database dump unchanged" ||
		fail "$1: database dump unchanged"
}

# expect_finding VOL PATH WANT DESC [TOL]: member PATH (dotted) of the scan
# finding of volume VOL in the JSON on stdout
expect_finding() {
	got=$(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["volume_id"] == sys.argv[2]]
if not f:
    print("(no finding)")
    sys.exit(0)
v = f[0]
for k in sys.argv[3].split("."):
    v = v[k]
print("null" if v is None else v)' "$T/out" "$1" "$2" 2>&1)
	expect_value "$got" "$3" "$4" "${5:-0}" "$1 $2"
}
