#!/usr/bin/python3
"""creds_server.py - loopback fakes of the AWS credential endpoints.

    creds_server.py PORTFILE LOGFILE CONFIG_JSON

One server on 127.0.0.1 (a free port written to PORTFILE) plays:

  STS           POST /sts/  (AWS_ENDPOINT_URL_STS=http://127.0.0.1:P/sts)
                Action=AssumeRole, signed with SigV4 (service sts) by one
                of pricing_server.KEYS, answers the role's keys as STS's XML;
                Action=AssumeRoleWithWebIdentity with the right token
                answers the "webid" keys.
  SSO portal    GET /sso/federation/credentials?role_name=&account_id=
                (AWS_ENDPOINT_URL_SSO=http://127.0.0.1:P/sso) with header
                x-amz-sso_bearer_token: the "sso" keys as roleCredentials.
  container     GET /container/creds (AWS_CONTAINER_CREDENTIALS_FULL_URI,
                or _RELATIVE_URI=/container/creds with
                EBSIZE_CONTAINER_CREDENTIALS_BASE) with the Authorization
                token: the "container" keys.
  IMDSv2        PUT /latest/api/token (X-aws-ec2-metadata-token-ttl-seconds)
                then GET /latest/meta-data/iam/security-credentials/[ROLE]
                with X-aws-ec2-metadata-token
                (AWS_EC2_METADATA_SERVICE_ENDPOINT=http://127.0.0.1:P).

CONFIG_JSON:
    {"sso_token": "...", "container_token": "...", "web_token": "...",
     "roles": {"arn:aws:iam::111122223333:role/ebsize": "role", ...},
     "expired": ["sso", "container", "imds", "role"],   # answer an old Expiration
     "faults": {"imds": "v1only" | "norole" | "slow",
                "container": "500" | "slow",
                "sso": "500",
                "sts": "denied"}}

All keys, secrets and tokens are TEST values made up for the tests
(pricing_server.KEYS), valid nowhere.  Every request is logged to LOGFILE
as one JSON line (without any secret).
"""
import json
import os
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(__file__))
import pricing_server as ps  # noqa: E402

IMDS_TOKEN = "ebsizeTESTimdsSESSIONtokenNOTREAL"
ROLE = "ebsize-test-role"
FUTURE = "2099-01-01T00:00:00Z"
PAST = "2020-01-01T00:00:00Z"


def expiry(cfg, who):
    return PAST if who in cfg.get("expired", []) else FUTURE


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def log(self, what, status, **kw):
        with open(self.server.logfile, "a") as f:
            f.write(json.dumps(dict(what=what, method=self.command,
                                    path=self.path.split("?")[0], status=status, **kw)) + "\n")

    def send(self, status, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    # ---------------------------------------------------------- STS
    def sts(self, body):
        cfg = self.server.cfg
        form = dict(urllib.parse.parse_qsl(body.decode()))
        action = form.get("Action")
        if action == "AssumeRoleWithWebIdentity":
            ok = form.get("WebIdentityToken") == cfg.get("web_token")
            who = "webid" if ok else None
            why = "ok" if ok else "bad web identity token"
        else:
            ok, why = ps.sign_check(self, body, service="sts", need=("content-type",))
            who = cfg.get("roles", {}).get(form.get("RoleArn")) if ok else None
            signer = ps.SECRETS.get(ps.akid_of(self), ("?",))[0]
        self.log("sts", 200 if who else 403, action=action, role=form.get("RoleArn"),
                 session=form.get("RoleSessionName"), sig=why,
                 signer=signer if action == "AssumeRole" else None)
        if not who or cfg.get("faults", {}).get("sts") == "denied":
            return self.send(403, "<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code>"
                             "<Message>User is not authorized to perform: sts:AssumeRole (%s)</Message>"
                             "</Error></ErrorResponse>" % why, "text/xml")
        akid, secret, token = ps.KEYS[who]
        tag = action + "Result"
        return self.send(200, "<%sResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><%s>"
                         "<Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey>"
                         "<SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials>"
                         "</%s></%sResponse>" % (action, tag, akid, secret, token,
                                                 expiry(cfg, "role"), tag, action), "text/xml")

    # ---------------------------------------------------------- SSO
    def sso(self):
        cfg = self.server.cfg
        q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(self.path).query))
        tok = self.headers.get("x-amz-sso_bearer_token")
        ok = tok == cfg.get("sso_token")
        self.log("sso", 200 if ok else 401, account=q.get("account_id"), role=q.get("role_name"),
                 token_ok=ok)
        if cfg.get("faults", {}).get("sso") == "500":
            return self.send(500, '{"message": "busy"}')
        if not ok:
            return self.send(401, '{"message": "Session token not found or invalid"}')
        akid, secret, token = ps.KEYS["sso"]
        exp = 946684800000 if "sso" in cfg.get("expired", []) else 4070908800000
        return self.send(200, json.dumps({"roleCredentials": {
            "accessKeyId": akid, "secretAccessKey": secret, "sessionToken": token,
            "expiration": exp}}))

    # ---------------------------------------------------------- container
    def container(self):
        cfg = self.server.cfg
        fault = cfg.get("faults", {}).get("container")
        ok = self.headers.get("Authorization") == cfg.get("container_token")
        self.log("container", 200 if ok else 401, token_ok=ok)
        if fault == "slow":
            time.sleep(10)
        if fault == "500":
            return self.send(500, "{}")
        if not ok:
            return self.send(401, '{"message": "unauthorized"}')
        akid, secret, token = ps.KEYS["container"]
        return self.send(200, json.dumps({"AccessKeyId": akid, "SecretAccessKey": secret,
                                          "Token": token, "Expiration": expiry(cfg, "container"),
                                          "RoleArn": "arn:aws:iam::111122223333:role/task"}))

    # ---------------------------------------------------------- IMDS
    def imds(self):
        cfg = self.server.cfg
        fault = cfg.get("faults", {}).get("imds")
        if self.command == "PUT":
            ttl = self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
            self.log("imds-token", 403 if fault == "v1only" else 200, ttl=ttl)
            if fault == "slow":
                time.sleep(5)
            if fault == "v1only" or not ttl:
                return self.send(403, "", "text/plain")
            return self.send(200, IMDS_TOKEN, "text/plain")
        ok = self.headers.get("X-aws-ec2-metadata-token") == IMDS_TOKEN
        base = "/latest/meta-data/iam/security-credentials/"
        path = self.path.split("?")[0]
        self.log("imds", 200 if ok else 401, token_ok=ok)
        if not ok:
            return self.send(401, "", "text/plain")
        if fault == "norole":
            return self.send(404, "", "text/plain")
        if path == base:
            return self.send(200, ROLE + "\n", "text/plain")
        if path == base + ROLE:
            akid, secret, token = ps.KEYS["imds"]
            return self.send(200, json.dumps({"Code": "Success", "LastUpdated": "2026-11-30T00:00:00Z",
                                              "Type": "AWS-HMAC", "AccessKeyId": akid,
                                              "SecretAccessKey": secret, "Token": token,
                                              "Expiration": expiry(cfg, "imds")}))
        return self.send(404, "", "text/plain")

    def route(self):
        path = self.path.split("?")[0]
        body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
        try:
            if path.startswith("/sts"):
                return self.sts(body)
            if path.startswith("/sso/"):
                return self.sso()
            if path.startswith("/container/"):
                return self.container()
            if path.startswith("/latest/"):
                return self.imds()
            self.log("?", 404)
            return self.send(404, "{}")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_POST = do_PUT = route


def main():
    portfile, logfile, cfg = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.cfg, srv.logfile = cfg, logfile
    srv.handle_error = lambda request, address: None
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


if __name__ == "__main__":
    main()
