#!/usr/bin/python3
# browser-check.py - open an HTML file in headless Chromium (offline flags,
# real-clients.md) and report what the browser saw, as JSON on stdout.
#
#   browser-check.py FILE.html SHOT.png [TEXT...]
#
# Chromium is driven through the DevTools protocol over a pipe
# (--remote-debugging-pipe: fd 3 in, fd 4 out, NUL-separated JSON), so no
# port is opened and no third-party client library is needed.  Reported:
#   requests     every URL the page asked for (the file itself is one)
#   console      console errors/warnings, log entries, uncaught exceptions
#   svgs         <svg> elements in the DOM
#   scripts      <script> elements in the DOM
#   handlers     elements carrying an on* attribute (onload, onclick, ...)
#   texts        for each TEXT argument: true when it occurs as text
#   width/height the screenshot size; colours: distinct colours in it
import json
import os
import select
import subprocess
import sys
import tempfile
import time

from PIL import Image


class Browser:
    def __init__(self, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # dup first: a pipe end may already be fd 3 or 4 (and CLOEXEC)
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--user-data-dir=" + profile, "--remote-debugging-pipe",
                 "--window-size=1280,900", "about:blank"]
        self.proc = subprocess.Popen(["chromium"] + flags, preexec_fn=fds,
                                     close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(os.environ.get("BROWSER_LOG", os.devnull), "w"))
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read_one(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            r, _, _ = select.select([self.from_child], [], [], left)
            if r:
                chunk = os.read(self.from_child, 1 << 20)
                if not chunk:
                    raise EOFError("chromium closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        want = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            m = self.read_one(deadline)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, name, timeout=30):
        deadline = time.time() + timeout
        for m in self.events:
            if m.get("method") == name:
                return m
        while True:
            m = self.read_one(deadline)
            if "method" in m:
                self.events.append(m)
                if m["method"] == name:
                    return m

    def drain(self, seconds):
        deadline = time.time() + seconds
        try:
            while True:
                m = self.read_one(deadline)
                if "method" in m:
                    self.events.append(m)
        except TimeoutError:
            pass

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=15)
        except Exception:
            self.proc.kill()
            self.proc.wait()


PROBE = """(() => {
  const texts = %s;
  const all = document.body ? document.body.textContent : "";
  let handlers = 0;
  for (const el of document.querySelectorAll("*"))
    for (const a of el.attributes)
      if (a.name.toLowerCase().startsWith("on")) handlers++;
  return {
    svgs: document.querySelectorAll("svg").length,
    scripts: document.querySelectorAll("script").length,
    handlers: handlers,
    texts: texts.map(t => all.includes(t)),
  };
})()"""


def main():
    html, shot, texts = sys.argv[1], sys.argv[2], sys.argv[3:]
    url = "file://" + os.path.abspath(html)
    with tempfile.TemporaryDirectory() as profile:
        b = Browser(profile)
        try:
            target = next(t for t in b.call("Target.getTargets")["targetInfos"]
                          if t["type"] == "page")
            s = b.call("Target.attachToTarget",
                       {"targetId": target["targetId"], "flatten": True})["sessionId"]
            for domain in ("Page", "Network", "Runtime", "Log"):
                b.call(domain + ".enable", session=s)
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": 1280, "height": 900, "deviceScaleFactor": 1,
                    "mobile": False}, session=s)
            b.call("Page.navigate", {"url": url}, session=s)
            b.wait_event("Page.loadEventFired")
            b.drain(1.0)
            probe = b.call("Runtime.evaluate",
                           {"expression": PROBE % json.dumps(texts),
                            "returnByValue": True}, session=s)["result"]["value"]
            size = b.call("Page.getLayoutMetrics", session=s)["cssContentSize"]
            height = min(int(size["height"]), 16000)
            png = b.call("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": True,
                          "clip": {"x": 0, "y": 0, "width": 1280,
                                   "height": height, "scale": 1}},
                         session=s, timeout=60)["data"]
        finally:
            b.close()
    import base64
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png))
    img = Image.open(shot).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 24)
    requests, console = [], []
    for e in b.events:
        m, p = e["method"], e.get("params", {})
        if m == "Network.requestWillBeSent":
            requests.append(p["request"]["url"])
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
            console.append("console.%s: %s" % (p["type"], json.dumps(p.get("args"))))
        elif m == "Runtime.exceptionThrown":
            console.append("exception: %s" % json.dumps(p.get("exceptionDetails")))
        elif m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
            console.append("log: %s %s" % (p["entry"].get("text"), p["entry"].get("url", "")))
    out = dict(probe, requests=requests, console=console, url=url,
               width=img.width, height=img.height,
               colours=len(colours) if colours else 0)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
