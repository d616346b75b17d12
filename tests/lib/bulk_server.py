#!/usr/bin/python3
"""bulk_server.py - a loopback AWS bulk Price List host for tests.

    bulk_server.py PORTFILE LOGFILE CONFIG_JSON

Serves, on 127.0.0.1 (a free port written to PORTFILE):

    /offers/v1.0/aws/AmazonEC2/current/region_index.json
    /offers/v1.0/cn/AmazonEC2/current/region_index.json
    /offers/v1.0/{aws,cn}/AmazonEC2/<version>/<region>/index.json

The offer files are GENERATED on the fly by tests/lib/offer_gen.py (never
written to disk), any size.  GET with "Range: bytes=N-" (and If-Range with
the ETag) answers 206 from byte N.  CONFIG_JSON:

    {"regions": ["us-east-1", "us-west-2", "eu-west-1"],   # aws index
     "cn_regions": ["cn-north-1", "cn-northwest-1"],        # cn index
     "size": 200000,                       # bytes per offer file
     "sizes": {"us-west-2": 300000000},    # per region
     "version": "20260918212757", "published": "2026-09-18T21:27:57Z",
     "scale": {"us-west-2/gp2/storage": 5.0},
     "faults": {"REGION": FAULT, ...},
     "index_fault": "bad_path" | "not_json",
     "rate": 5000000}                      # bytes/s cap (default none)

FAULT for one region's offer file:
    cut_once        the first GET sends half the bytes (Content-Length of
                    the whole) and hangs up; later GETs work (Range too)
    cut_once_noetag the same, and no ETag is ever sent (no resuming)
    stall_once      the first GET sends half, then nothing for 60 s
    truncated       the file itself ends halfway (a consistent length)
    404             Not Found
    500_once        the first GET answers 500
    wrong_version   the file says another version than its URL
    wrong_region    the file holds another region's EBS products
    wrong_offer     offerCode AmazonRDS
    drip            the file arrives at 20 KB/s
    not_json        HTML instead of JSON

Every request is logged to LOGFILE as one JSON line.
"""
import hashlib
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(__file__))
import offer_gen  # noqa: E402

OTHER = {"us-east-1": "us-west-2"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def log(self, **kw):
        with open(self.server.logfile, "a") as f:
            f.write(json.dumps(dict(path=self.path, range=self.headers.get("Range"),
                                    if_range=self.headers.get("If-Range"), **kw)) + "\n")

    def plain(self, status, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def index(self, part):
        cfg = self.server.cfg
        regions = cfg.get("regions" if part == "aws" else "cn_regions",
                          ["us-east-1", "us-west-2", "eu-west-1"] if part == "aws"
                          else ["cn-north-1", "cn-northwest-1"])
        version = cfg.get("version", "20260918212757")
        out = {"formatVersion": "v1.0", "disclaimer": offer_gen.DISCLAIMER,
               "publicationDate": cfg.get("published", "2026-09-18T21:27:57Z"), "regions": {}}
        for r in regions:
            url = "/offers/v1.0/%s/AmazonEC2/%s/%s/index.json" % (part, version, r)
            if cfg.get("index_fault") == "bad_path" and r == regions[-1]:
                url = "https://evil.example/offers/v1.0/aws/AmazonEC2/x/%s/index.json" % r
            out["regions"][r] = {"regionCode": r, "currentVersionUrl": url}
        if cfg.get("index_fault") == "not_json":
            return self.plain(200, "<html>oops</html>", "text/html")
        self.log(status=200)
        return self.plain(200, json.dumps(out, indent=2))

    def offer(self, part, version, region):
        srv, cfg = self.server, self.server.cfg
        fault = cfg.get("faults", {}).get(region)
        n = srv.count.get(region, 0) + 1
        srv.count[region] = n
        if fault == "404":
            self.log(status=404)
            return self.plain(404, "<Error><Code>NoSuchKey</Code></Error>", "application/xml")
        if fault == "500_once" and n == 1:
            self.log(status=500)
            return self.plain(500, "busy")
        if fault == "not_json":
            self.log(status=200)
            return self.plain(200, "<html>maintenance</html>", "text/html")
        size = cfg.get("sizes", {}).get(region, cfg.get("size", 200000))
        kw = dict(version=version if fault != "wrong_version" else "20250101000000",
                  published=cfg.get("published", "2026-09-18T21:27:57Z"),
                  scale=cfg.get("scale", {}),
                  other_region=OTHER.get(region, "us-east-1") if fault == "wrong_region" else None,
                  offer_code="AmazonRDS" if fault == "wrong_offer" else "AmazonEC2")
        key = (region, size, json.dumps(kw, sort_keys=True))
        if key not in srv.sizes:
            srv.sizes[key] = offer_gen.total_size(region, size, **kw)
        total = srv.sizes[key]
        if fault == "truncated":
            total //= 2
        etag = '"%s"' % hashlib.sha1(repr(key).encode()).hexdigest()[:20]
        start = 0
        rng = self.headers.get("Range", "")
        if rng.startswith("bytes=") and rng.endswith("-"):
            ifr = self.headers.get("If-Range")
            if fault != "cut_once_noetag" and (not ifr or ifr == etag):
                start = int(rng[6:-1])
        status = 206 if start else 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(total - start))
        self.send_header("Accept-Ranges", "bytes")
        if fault != "cut_once_noetag":
            self.send_header("ETag", etag)
        if start:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, total - 1, total))
        self.end_headers()
        self.log(status=status, start=start, total=total, n=n)
        stop = total
        if fault in ("cut_once", "cut_once_noetag", "stall_once") and n == 1:
            stop = total // 2
        sent = 0
        try:
            for c in offer_gen.chunks(region, size, **kw):
                lo, hi = sent, sent + len(c)
                sent = hi
                if hi <= start:
                    continue
                piece = c[max(0, start - lo):max(0, min(hi, stop) - lo)]
                if fault == "drip":
                    for i in range(0, len(piece), 2000):
                        self.wfile.write(piece[i:i + 2000])
                        self.wfile.flush()
                        time.sleep(0.1)
                elif piece and cfg.get("rate"):
                    for i in range(0, len(piece), 65536):
                        self.wfile.write(piece[i:i + 65536])
                        time.sleep(65536 / cfg["rate"])
                elif piece:
                    self.wfile.write(piece)
                if hi >= stop:
                    break
            self.wfile.flush()
            if stop < total:
                if fault == "stall_once":
                    time.sleep(60)
                self.close_connection = True
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        # offers v1.0 PART AmazonEC2 current region_index.json
        if len(parts) == 6 and parts[:2] == ["offers", "v1.0"] and parts[3] == "AmazonEC2" \
                and parts[4] == "current" and parts[5] == "region_index.json":
            return self.index(parts[2])
        if len(parts) == 7 and parts[:2] == ["offers", "v1.0"] and parts[3] == "AmazonEC2" \
                and parts[6] == "index.json":
            return self.offer(parts[2], parts[4], parts[5])
        self.log(status=404)
        return self.plain(404, "not found", "text/plain")


def main():
    portfile, logfile, cfg = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.cfg, srv.logfile, srv.count, srv.sizes = cfg, logfile, {}, {}
    srv.handle_error = lambda request, address: None   # clients hang up on purpose
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


if __name__ == "__main__":
    main()
