#!/usr/bin/python3
"""pricing_server.py - a loopback AWS Price List Query API (GetProducts) for tests.

Started and stopped by the e2e tests (tests/e2e/t20*-pricing-*.sh):

    pricing_server.py PORTFILE LOGFILE CONFIG_JSON

It listens on 127.0.0.1 (a free port, written to PORTFILE), checks every
request's SigV4 Authorization header by recomputing the signature with the
TEST credentials below, answers GetProducts with TERM_MATCH filters and
pagination (NextToken), and injects the fault named in CONFIG_JSON:

    {"fault": "throttle400"|"throttle429"|"500"|"reset"|"truncated"|
              "badjson"|"negative"|"nonnumeric"|"endless"|"oversize"|
              "oversize_chunked"|"hang"|"drip"|"none",
     "fault_from": 1,      # first request (1-based) that gets the fault
     "fault_count": 1,     # how many requests get it (-1: all from there)
     "page_size": 1,       # PriceList items per page
     "scale": {"us-east-1/gp2/storage": 5.0}}   # multiply a price

Every request is logged to LOGFILE as one JSON line (target, filters,
token, signature verdict, whether a session token came).

The price data is GENERATED here from ebs-facts.md T6 (values) and T9/T10
(usage types, units, families); the item layout follows formats.md 1.2-1.3.
It is labelled generated: it is not a capture of a real response.
"""
import hashlib
import hmac
import json
import socket
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# TEST CREDENTIALS - made up for the tests, valid nowhere.
TEST_ACCESS_KEY = "AKIDEXAMPLE"
TEST_SECRET = "ebsizeTESTsecret/K7MDENG+bPxRfiCYzzNOTREAL"

# One made-up pair (and session token) per credential source, so that the
# server can tell which source a client used: {name: (akid, secret, token)}.
KEYS = {
    "env": (TEST_ACCESS_KEY, TEST_SECRET, None),
    "profile": ("AKIDPROFILETEST01", "ebsizeTESTprofileSECRETnotreal01", None),
    "source": ("AKIDSOURCETEST001", "ebsizeTESTsourceSECRETnotreal001", None),
    "process": ("ASIAPROCESSTEST01", "ebsizeTESTprocessSECRETnotreal01", "ebsizeTESTprocessTOKENnotreal"),
    "sso": ("ASIASSOTEST000001", "ebsizeTESTssoSECRETnotreal000001", "ebsizeTESTssoTOKENnotreal"),
    "container": ("ASIACONTAINERTEST", "ebsizeTESTcontainerSECRETnotreal", "ebsizeTESTcontainerTOKENnotreal"),
    "imds": ("ASIAIMDSTEST00001", "ebsizeTESTimdsSECRETnotreal00001", "ebsizeTESTimdsTOKENnotreal"),
    "role": ("ASIAROLETEST00001", "ebsizeTESTroleSECRETnotreal00001", "ebsizeTESTroleTOKENnotreal"),
    "role2": ("ASIAROLE2TEST0001", "ebsizeTESTrole2SECRETnotreal0001", "ebsizeTESTrole2TOKENnotreal"),
    "webid": ("ASIAWEBIDTEST0001", "ebsizeTESTwebidSECRETnotreal0001", "ebsizeTESTwebidTOKENnotreal"),
}
SECRETS = {akid: (name, secret, token) for name, (akid, secret, token) in KEYS.items()}

# ebs-facts.md T6 [P1]: gp2, gp3, gp3 IOPS, gp3 GiBps-mo, io1, io1 IOPS,
# io2, io2 t1, t2, t3, st1, sc1, standard, standard per 1M I/O.
T6 = {
    "us-east-1": ("", "US East (N. Virginia)",
                  [0.1, 0.08, 0.005, 40.96, 0.125, 0.065, 0.125, 0.065, 0.0455, 0.03185, 0.045, 0.015, 0.05, 0.05]),
    "us-west-2": ("USW2-", "US West (Oregon)",
                  [0.1, 0.08, 0.005, 40.96, 0.125, 0.065, 0.125, 0.065, 0.0455, 0.03185, 0.045, 0.015, 0.05, 0.05]),
    "eu-west-1": ("EU-", "EU (Ireland)",
                  [0.11, 0.088, 0.0055, 45.056, 0.138, 0.072, 0.138, 0.072, 0.0504, 0.03528, 0.05, 0.0168, 0.055, 0.055]),
}

# (family, volumeApiName, usagetype suffix, unit, T6 column, group, key)
SKUS = [
    ("Storage", "gp2", "EBS:VolumeUsage.gp2", "GB-Mo", 0, None, "gp2/storage"),
    ("Storage", "gp3", "EBS:VolumeUsage.gp3", "GB-Mo", 1, None, "gp3/storage"),
    ("System Operation", "gp3", "EBS:VolumeP-IOPS.gp3", "IOPS-Mo", 2, "EBS IOPS", "gp3/iops"),
    ("Provisioned Throughput", "gp3", "EBS:VolumeP-Throughput.gp3", "GiBps-mo", 3, "EBS Throughput", "gp3/throughput"),
    ("Storage", "io1", "EBS:VolumeUsage.piops", "GB-Mo", 4, None, "io1/storage"),
    ("System Operation", "io1", "EBS:VolumeP-IOPS.piops", "IOPS-Mo", 5, "EBS IOPS", "io1/iops"),
    ("Storage", "io2", "EBS:VolumeUsage.io2", "GB-month", 6, None, "io2/storage"),
    ("System Operation", "io2", "EBS:VolumeP-IOPS.io2", "IOPS-Mo", 7, "EBS IOPS", "io2/iops"),
    ("System Operation", "io2", "EBS:VolumeP-IOPS.io2.tier2", "IOPS-Mo", 8, "EBS IOPS Tier 2", "io2/iops2"),
    ("System Operation", "io2", "EBS:VolumeP-IOPS.io2.tier3", "IOPS-Mo", 9, "EBS IOPS Tier 3", "io2/iops3"),
    ("Storage", "st1", "EBS:VolumeUsage.st1", "GB-Mo", 10, None, "st1/storage"),
    ("Storage", "sc1", "EBS:VolumeUsage.sc1", "GB-Mo", 11, None, "sc1/storage"),
    ("Storage", "standard", "EBS:VolumeUsage", "GB-Mo", 12, None, "standard/storage"),
    ("System Operation", "standard", "EBS:VolumeIOUsage", "IOs", 13, "EBS I/O Requests", "standard/io"),
]


def item(region, sku, cfg):
    prefix, location, prices = T6[region]
    family, api, suffix, unit, col, group, key = sku
    price = prices[col]
    if unit == "IOs":
        price = price / 1e6          # the Price List quotes per request
    price *= cfg.get("scale", {}).get(region + "/" + key, 1.0)
    text = "%.10f" % price
    fault = cfg.get("_active")
    if fault == "negative":
        text = "-0.1000000000"
    elif fault == "nonnumeric":
        text = "abc"
    code = ("GEN" + region + key).upper().replace("-", "").replace("/", "")[:16]
    attrs = {"servicecode": "AmazonEC2", "location": location,
             "locationType": "AWS Region", "usagetype": prefix + suffix,
             "operation": "", "regionCode": region,
             "servicename": "Amazon Elastic Compute Cloud", "volumeApiName": api}
    if group:
        attrs["group"] = group
    doc = {"product": {"productFamily": family, "attributes": attrs, "sku": code},
           "serviceCode": "AmazonEC2",
           "terms": {"OnDemand": {code + ".JRTCKXETXF": {
               "priceDimensions": {code + ".JRTCKXETXF.6YS6EN2CT7": {
                   "unit": unit, "endRange": "Inf",
                   "description": "GENERATED test price",
                   "appliesTo": [], "rateCode": code + ".JRTCKXETXF.6YS6EN2CT7",
                   "beginRange": "0", "pricePerUnit": {"USD": text}}},
               "sku": code, "effectiveDate": "2026-09-01T00:00:00Z",
               "offerTermCode": "JRTCKXETXF", "termAttributes": {}}}},
           "version": "20260918212757", "publicationDate": "2026-09-18T21:27:57Z"}
    return json.dumps(doc)


def select(filters):
    f = {x["Field"]: x["Value"] for x in filters}
    out = []
    for region in T6:
        if "regionCode" in f and f["regionCode"] != region:
            continue
        for sku in SKUS:
            if sku[0] == f.get("productFamily") and sku[1] == f.get("volumeApiName"):
                out.append((region, sku))
    return out


def akid_of(handler):
    """The access key id named in the Authorization header, or None."""
    auth = handler.headers.get("Authorization", "")
    i = auth.find("Credential=")
    return auth[i + 11:].split("/")[0] if i >= 0 else None


def sign_check(handler, body, service="pricing", need=("x-amz-target", "content-type")):
    """Recompute the SigV4 signature with the secret of the key id used
    (one of KEYS); a session token must be the one issued with that key.
    Returns (ok, reason)."""
    auth = handler.headers.get("Authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return False, "no AWS4-HMAC-SHA256 Authorization"
    parts = dict(p.strip().split("=", 1) for p in auth[len("AWS4-HMAC-SHA256 "):].split(","))
    akid, date, region, service_, term = parts["Credential"].split("/")
    signed = parts["SignedHeaders"].split(";")
    if akid not in SECRETS or service_ != service or region != "us-east-1" or term != "aws4_request":
        return False, "bad credential scope " + parts["Credential"]
    for h in ("host", "x-amz-date") + tuple(need):
        if h not in signed:
            return False, h + " not signed"
    token = handler.headers.get("X-Amz-Security-Token")
    if token and "x-amz-security-token" not in signed:
        return False, "x-amz-security-token not signed"
    want_token = SECRETS[akid][2]
    if want_token and token != want_token:
        return False, "wrong or missing session token"
    amzdate = handler.headers.get("X-Amz-Date", "")
    canon_headers = "".join("%s:%s\n" % (h, " ".join(handler.headers.get(h, "").split())) for h in signed)
    creq = "\n".join(["POST", handler.path.split("?")[0], "", canon_headers,
                      ";".join(signed), hashlib.sha256(body).hexdigest()])
    scope = "/".join([date, region, service, term])
    sts = "\n".join(["AWS4-HMAC-SHA256", amzdate, scope, hashlib.sha256(creq.encode()).hexdigest()])
    k = ("AWS4" + SECRETS[akid][1]).encode()
    for m in (date, region, service, term):
        k = hmac.new(k, m.encode(), hashlib.sha256).digest()
    want = hmac.new(k, sts.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, parts.get("Signature", "")):
        return False, "signature mismatch"
    return True, "ok"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def send(self, status, body, extra=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.1")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        srv = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        srv.requests += 1
        n = srv.requests
        cfg = dict(srv.cfg)
        fault = cfg.get("fault", "none")
        start, count = cfg.get("fault_from", 1), cfg.get("fault_count", 1)
        active = fault if (n >= start and (count < 0 or n < start + count)) else None
        cfg["_active"] = active
        ok, why = sign_check(self, body)
        try:
            req = json.loads(body)
        except ValueError:
            req = {}
        with open(srv.logfile, "a") as log:
            log.write(json.dumps({"n": n, "target": self.headers.get("X-Amz-Target"),
                                  "sig": why, "token_header": bool(self.headers.get("X-Amz-Security-Token")),
                                  "source": SECRETS.get(akid_of(self), ("?",))[0],
                                  "filters": req.get("Filters"), "next": req.get("NextToken"),
                                  "fault": active}) + "\n")
        if not ok:
            return self.send(403, {"__type": "InvalidSignatureException", "message": "signature check failed: " + why})
        if self.headers.get("X-Amz-Target") != "AWSPriceListService.GetProducts" or \
                self.headers.get("Content-Type") != "application/x-amz-json-1.1":
            return self.send(400, {"__type": "UnknownOperationException"})
        if active == "throttle400":
            return self.send(400, {"__type": "com.amazonaws.awspricing#ThrottlingException", "Message": "Rate exceeded"})
        if active == "throttle429":
            return self.send(429, {"__type": "ThrottlingException", "message": "Too Many Requests"})
        if active == "500":
            return self.send(500, {"__type": "InternalErrorException", "message": "internal failure"})
        rows = select(req.get("Filters", []))
        size = cfg.get("page_size", 1)
        off = 0
        if req.get("NextToken"):
            off = int(req["NextToken"].split(":")[1])
        page = rows[off:off + size]
        resp = {"FormatVersion": "aws_v1", "PriceList": [item(r, s, cfg) for r, s in page]}
        if off + size < len(rows) or active == "endless":
            resp["NextToken"] = "WGDY7ko8fQXdla==:%d:x/y+z" % (off + size)
        if active == "badjson":
            resp["PriceList"].insert(0, '{"product": {"productFamily": "Storage",')
        data = json.dumps(resp).encode()
        if active == "truncated":
            return self.send(200, data[:len(data) // 2])
        if active == "oversize":
            return self.send(200, data + b" " * (17 << 20))
        if active == "oversize_chunked":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            for _ in range(17):
                self.wfile.write(b" " * (1 << 20))
            self.close_connection = True
            return
        if active == "hang":                 # accept, read, never answer
            time.sleep(120)
            self.close_connection = True
            return
        if active == "drip":                 # a body of 1 byte a second
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                for i in range(len(data)):
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    time.sleep(1)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if active == "reset":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        return self.send(200, data)


def main():
    portfile, logfile, cfg = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.cfg, srv.logfile, srv.requests = cfg, logfile, 0
    srv.handle_error = lambda request, address: None   # clients hang up on purpose
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


if __name__ == "__main__":
    main()
