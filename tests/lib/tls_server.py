#!/usr/bin/python3
"""tls_server.py CERT KEY PORTFILE LOGFILE: an HTTPS server on 127.0.0.1 (a
free port, written to PORTFILE) with the given certificate -- for the TLS
tests, a self-signed one made by the test.  Every request that gets past
the handshake is logged to LOGFILE (method and path) and answered 200
with "{}".  Stopped by the test (SIGTERM)."""
import ssl
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

cert, key, portfile, logfile = sys.argv[1:5]


class H(BaseHTTPRequestHandler):
    def do_GET(self):
        with open(logfile, "a") as f:
            f.write("%s %s\n" % (self.command, self.path))
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *a):
        pass


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
srv.handle_error = lambda request, address: None    # failed handshakes
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
open(logfile, "a").close()
with open(portfile, "w") as f:
    f.write(str(srv.server_address[1]))
srv.serve_forever()
