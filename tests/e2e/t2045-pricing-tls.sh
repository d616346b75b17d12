#!/bin/sh
# t2045-pricing-tls: TLS certificates are always verified (issue 13,
# security): an https endpoint with a self-signed certificate -- here a
# loopback server whose certificate the test makes -- is refused by the
# Query API and the bulk route alike, before any request reaches it, with
# the certificate named as the reason, and nothing stored.  The same
# server answers a client told to trust that certificate (curl --cacert),
# so the refusal is the verification and nothing else.  Plain http is for
# loopback hosts only (t2050).
. "$(dirname "$0")/../lib/test-lib.sh"
. "$ROOT/tests/lib/pricing-server.sh"
export EBSIZE_FETCH_BACKOFF_MS=10
TLS_PID=""
trap 'stop_server; stop_bulk; [ -n "$TLS_PID" ] && kill "$TLS_PID" 2>/dev/null; rm -rf "$T"' EXIT

if ! command -v openssl >/dev/null 2>&1; then
	skip "TLS verification" "openssl (to make a certificate) is not installed"
	exit 0
fi
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" -days 2 \
	-subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" >/dev/null 2>&1
/usr/bin/python3 "$ROOT/tests/lib/tls_server.py" "$T/cert.pem" "$T/key.pem" "$T/tport" "$T/tls.log" &
TLS_PID=$!
TEP="https://127.0.0.1:$(wait_port "$T/tport")"

# the control: a client that trusts the certificate gets an answer
if command -v curl >/dev/null 2>&1; then
	curl -s --cacert "$T/cert.pem" "$TEP/control" >"$T/curl.out" 2>&1
	expect_value "$(cat "$T/curl.out")" "{}" "control: curl trusting the certificate gets the server's answer"
	expect_value "$(wc -l <"$T/tls.log")" 1 "control: the server logged that request"
else
	skip "control with curl" "curl is not installed"
fi
before=$(wc -l <"$T/tls.log")

run db check
sqlite3 "$DB" .dump >"$T/before.sql"
with_creds run pricing fetch --endpoint "$TEP" --region us-west-2
expect_rc 1 "Query API over a self-signed certificate: refused"
grep -qiE "^error: .*certificate" "$T/err" && ok "Query API: the certificate is named as the reason" ||
	fail "Query API: the certificate is named as the reason"
run pricing fetch --bulk --endpoint "$TEP" --region us-west-2
expect_rc 1 "bulk over a self-signed certificate: refused"
grep -qiE "^error: .*certificate" "$T/err" && ok "bulk: the certificate is named as the reason" ||
	fail "bulk: the certificate is named as the reason"
expect_value "$(wc -l <"$T/tls.log")" "$before" "no request got past the handshake"
check_unchanged "refused certificates"
